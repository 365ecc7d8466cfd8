// The content layer's loaders. Each YAML collection is read by read.ts (positions, schemas,
// located problems) and its cell text rendered by Astro's own Markdown pipeline; the pages are
// Astro's glob loader with located frontmatter problems. All of them report to one session,
// which runs the cross-file rules (checks.ts) and keeps the result in the `problems` collection:
//   - `astro build` / `astro sync`: any problem fails the sync, before a page renders, listing all;
//   - `astro dev`: problems are logged and stored; every page render then throws them (the error
//     overlay), and fixing the file re-runs the rules and recovers with no restart.
import { readFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { glob, type Loader, type LoaderContext } from 'astro/loaders';
import { ContentError, type Problem } from './errors.ts';
import { combine, locatorFor } from './load.ts';
import { siteRender } from './render.ts';
import { readPage } from './read.ts';
import type { Render } from './inline.ts';
import type { Read, PageEntry } from './entries.ts';
import { COLLECTIONS, COLLECTION_NAMES as NAMES, type CollectionName, type ContentData } from './collections.ts';
import { settleChanges } from './settle.ts';

/** What every loader has read most recently; runs the rules once all have reported. */
class Session {
  readonly reads = new Map<CollectionName, Read<unknown>>();
  #ready: Array<() => void> = [];
  #listeners = new Set<() => void>();

  report(name: CollectionName, read: Read<unknown>): void {
    this.reads.set(name, read);
    if (this.reads.size === NAMES.length) {
      for (const resolveReady of this.#ready.splice(0)) resolveReady();
      for (const listener of this.#listeners) listener();
    }
  }
  /** Resolves once every collection has reported. */
  ready(): Promise<void> {
    return this.reads.size === NAMES.length ? Promise.resolve() : new Promise((r) => this.#ready.push(r));
  }
  onChange(listener: () => void): void {
    this.#listeners.add(listener);
  }
  problems(): Problem[] {
    const get = (name: CollectionName) => this.reads.get(name) ?? { entries: [], problems: [], files: [] };
    const all = NAMES.map(get);
    const lists = Object.fromEntries(NAMES.map((n) => [n, get(n).entries]));
    const data = { ...lists, site: lists.site![0] } as ContentData;
    return combine(
      all.flatMap((r) => r.problems),
      data,
      locatorFor(all.flatMap((r) => r.files)),
    );
  }
}

const session = new Session();

/**
 * An empty collection (no evidence captured yet) is a normal state here, but getCollection()
 * warns about a collection the store does not hold at all; an entry set and deleted leaves it
 * present and empty.
 */
function keepEmptyCollection(ctx: LoaderContext): void {
  ctx.store.set({ id: '_', data: {} });
  ctx.store.delete('_');
}

/** Inline Markdown through the site's own pipeline and plugins (render.ts). */
const renderWith = (ctx: LoaderContext): Render => siteRender(ctx.config.markdown, ctx.config.image);

/** Calls `fn` at most once per tick, however many files changed together. */
function batched(fn: () => Promise<void>, onError: (e: unknown) => void): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    setTimeout(() => {
      queued = false;
      fn().catch(onError);
    }, 0);
  };
}

/**
 * A YAML collection of the registry (collections.ts): its file or folder is read by its reader,
 * each valid entry stored under its id; in dev, any change under that path re-reads it.
 */
export function yamlCollection(name: Exclude<CollectionName, 'pages'>, contentDir: string): Loader {
  const { path, read, id } = COLLECTIONS[name] as unknown as {
    path: string;
    read: (abs: string, render: Render) => Promise<Read<object>>;
    id: (entry: object) => string;
  };
  const watched = resolve(contentDir, path);
  return {
    name: `yaml-${name}`,
    load: async (ctx) => {
      const sync = async () => {
        const result = await read(watched, renderWith(ctx));
        ctx.store.clear();
        for (const entry of result.entries) {
          const data = entry as Record<string, unknown>;
          ctx.store.set({ id: id(entry), data, digest: ctx.generateDigest(data) });
        }
        if (result.entries.length === 0) keepEmptyCollection(ctx);
        session.report(name, result);
      };
      await sync();
      if (!ctx.watcher) return;
      ctx.watcher.add(watched);
      const resync = batched(sync, (e) => ctx.logger.error(String(e)));
      ctx.watcher.on('all', (_event, changed) => {
        if (changed === watched || changed.startsWith(watched + sep)) resync();
      });
    },
  };
}

/**
 * The MDX pages: Astro's glob loader, except that frontmatter is validated with located
 * problems, and each page's body is scanned (excerpt embeds, heading ids) for the cross-file rules.
 */
export function pagesCollection(contentDir: string, path: string): Loader {
  const base = resolve(contentDir, path);
  const inner = glob({ pattern: '**/*.mdx', base });
  return {
    name: 'pages',
    load: async (ctx) => {
      const root = fileURLToPath(ctx.config.root);
      const rescan = () => {
        const read: Read<PageEntry> = { entries: [], problems: [], files: [] };
        for (const stored of ctx.store.values()) {
          if (!stored.filePath) continue;
          const abs = resolve(root, stored.filePath);
          const { entry, problems } = readPage(stored.id, abs, readFileSync(abs, 'utf8'));
          if (entry) read.entries.push(entry);
          read.problems.push(...problems);
        }
        session.report('pages', read);
      };
      const later = batched(
        async () => rescan(),
        (e) => ctx.logger.error(String(e)),
      );
      // The store glob writes to: every change after the first load (dev) re-scans the pages. Not
      // during it: glob reads the files asynchronously, and a rescan between two files would report
      // the pages read so far; were every other collection in by then, the rules would run on that
      // part and fail the build with "no page" problems (tests/unit/loaders.test.ts).
      let loaded = false;
      const changed = () => {
        if (loaded) later();
      };
      const store: typeof ctx.store = Object.create(ctx.store, {
        set: {
          value: (entry: Parameters<typeof ctx.store.set>[0]) => {
            const r = ctx.store.set(entry);
            changed();
            return r;
          },
        },
        delete: {
          value: (id: string) => {
            ctx.store.delete(id);
            changed();
          },
        },
      });
      await inner.load({
        ...ctx,
        store,
        // Frontmatter problems are reported by rescan() with their lines; the entry is kept as
        // written so the page still exists (the build fails, and dev shows the problem).
        parseData: async (props) => {
          const abs = props.filePath ?? resolve(base, `${props.id}.mdx`);
          const { entry } = readPage(props.id, abs, readFileSync(abs, 'utf8'));
          return (entry?.data ?? props.data) as typeof props.data;
        },
      });
      loaded = true;
      rescan();
    },
  };
}

/**
 * The problems of the whole content folder, as a collection. In a build it fails the sync when
 * there are any; in dev it logs them and keeps them current as files change, and makes sure no
 * change under the content folder is lost (settle.ts).
 */
export function problemsCollection(contentDir: string): Loader {
  return {
    name: 'content-problems',
    load: async (ctx) => {
      await session.ready();
      // One entry, "all", always present: the list of every problem (empty when there is none).
      const write = (): Problem[] => {
        const list = session.problems();
        const data = { list } as Record<string, unknown>;
        ctx.store.set({ id: 'all', data, digest: ctx.generateDigest(data) });
        return list;
      };
      const list = write();
      if (list.length > 0 && !ctx.watcher) throw new ContentError(list);
      if (list.length > 0) ctx.logger.error(new ContentError(list).message);
      if (!ctx.watcher) return;
      settleChanges(ctx.watcher, contentDir);
      let had = list.length > 0;
      session.onChange(() => {
        const now = write();
        if (now.length > 0) ctx.logger.error(new ContentError(now).message);
        else if (had) ctx.logger.info('content problems fixed');
        had = now.length > 0;
      });
    },
  };
}
