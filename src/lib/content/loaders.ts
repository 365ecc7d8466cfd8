// The content layer's loaders: thin, over the process's content reader (reader.ts), which reads each
// file once and computes the problems, the citation index and the moved axes from what it read.
//   - YAML collections: the reader's own YAML reader (positions for located problems; Astro's file()
//     loader parses without them, so it would be a second parse), each valid entry stored by its id;
//   - pages: Astro's glob() loader, which reads each MDX file; the reader gets the same text, for the
//     frontmatter's located problems and the body's scan;
//   - problems: every problem of the folder. `astro build` / `astro sync`: any problem fails the sync,
//     before a page renders, listing all. `astro dev`: problems are logged and stored; every page
//     render then throws them (index.ts, the error overlay), and fixing the file recovers, no restart.
import { readFileSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { glob, type Loader, type LoaderContext } from 'astro/loaders';
import { ContentError, type Problem } from '../problems.ts';
import { siteRender } from './render.ts';
import { readPage } from './read.ts';
import type { Render } from './inline.ts';
import type { PageEntry } from './entries.ts';
import { COLLECTIONS, entryId, type CollectionName, type ContentReads } from './collections.ts';
import { contentReader } from './reader.ts';
import { SETTLE_MS, settleChanges } from './settle.ts';

interface EntryInfoInput {
  contents: string;
  fileUrl: URL;
}
interface EntryType {
  getEntryInfo: (info: EntryInfoInput) => unknown;
}

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

/**
 * Calls `fn` at most once per tick (or per `delay` ms, when the first call asks for one), however many
 * files changed together, and one call after the other: a later change is stored after an earlier one,
 * never before it.
 */
function batched(fn: () => Promise<void>, onError: (e: unknown) => void): (delay?: number) => void {
  let queued = false;
  let running = Promise.resolve();
  return (delay = 0) => {
    if (queued) return;
    queued = true;
    setTimeout(() => {
      queued = false;
      running = running.then(fn).catch(onError);
    }, delay);
  };
}

/** Whether the file is there and empty: emptied by an author, or by a save not finished yet. */
function isEmpty(file: string): boolean {
  try {
    return statSync(file).size === 0;
  } catch {
    return false;
  }
}

const under = (dir: string, path: string) => path === dir || path.startsWith(dir + sep);

/** A YAML collection of the registry (collections.ts); in dev, a change under its path re-reads it. */
export function yamlCollection(name: Exclude<CollectionName, 'pages'>, contentDir: string): Loader {
  const watched = resolve(contentDir, COLLECTIONS[name].path);
  let loads = 0;
  let unsubscribe: (() => void) | undefined;
  return {
    name: `yaml-${name}`,
    load: async (ctx) => {
      const reader = contentReader(contentDir);
      const render = renderWith(ctx);
      const store = (read: ContentReads[typeof name]) => {
        ctx.store.clear();
        for (const entry of read.entries) {
          const data = entry as unknown as Record<string, unknown>;
          ctx.store.set({ id: entryId(name, entry as never), data, digest: ctx.generateDigest(data) });
        }
        if (read.entries.length === 0) keepEmptyCollection(ctx);
      };
      // A later sync in the same process (dev: the content config changed) reads the files again.
      store(await (loads++ === 0 ? reader.collection(name, render) : reader.reread(name, render)));
      if (!ctx.watcher) return;
      ctx.watcher.add(watched);
      // Its files changed: read them again. Or a citation in one of its Markdown fields shows an entry
      // that changed (an excerpt's lines, a source's label): the reader renders it again. Both store
      // through one queue, so the last change is stored last.
      let filesChanged = false;
      const update = batched(
        async () => {
          const reread = filesChanged;
          filesChanged = false;
          store(await (reread ? reader.reread(name, render) : reader.collection(name, render)));
        },
        (e) => ctx.logger.error(String(e)),
      );
      // A file found empty is read once the save can have finished: most often it is a save in two
      // steps caught half-way, and reading it now would show the page an empty collection (and its
      // problem) for a moment, one reload more than the edit needs. Just after settle.ts's look, so
      // the change that look announces again joins this read instead of making a second one.
      ctx.watcher.on('all', (_event, changed) => {
        if (!under(watched, changed)) return;
        filesChanged = true;
        update(isEmpty(changed) ? SETTLE_MS + 20 : 0);
      });
      unsubscribe?.();
      unsubscribe = reader.onChange((changed, citations) => {
        if (changed !== name && reader.cites(name, citations)) update();
      });
    },
  };
}

/**
 * The MDX pages: Astro's glob loader, which stores each page for rendering; the reader gets the text
 * glob read (its getEntryInfo) and validates the frontmatter with located problems, and scans the
 * body (excerpt embeds, heading ids) for the cross-file rules.
 */
export function pagesCollection(contentDir: string): Loader {
  const base = resolve(contentDir, COLLECTIONS.pages.path);
  const inner = glob({ pattern: '**/*.mdx', base });
  contentReader(contentDir).expect('pages');
  return {
    name: 'pages',
    load: async (ctx) => {
      const reader = contentReader(contentDir);
      const root = fileURLToPath(ctx.config.root);
      /** Each file's text as glob read it, until it is scanned. */
      const texts = new Map<string, string>();
      const pages = new Map<string, { entry?: PageEntry; problems: Problem[] }>();
      const scan = (id: string, abs: string) => {
        const text = texts.get(abs) ?? readFileSync(abs, 'utf8');
        texts.delete(abs);
        const page = readPage(id, abs, text);
        pages.set(abs, page);
        return page;
      };
      const publish = () => {
        const sorted = [...pages.keys()].sort().map((abs) => pages.get(abs)!);
        reader.put('pages', {
          entries: sorted.flatMap((p) => (p.entry ? [p.entry] : [])),
          problems: sorted.flatMap((p) => p.problems),
          files: [],
        });
      };
      const later = batched(
        async () => publish(),
        (e) => ctx.logger.error(String(e)),
      );
      let loaded = false;
      // glob() reads each file, then hands its text to the entry type of its extension (a context
      // field Astro's own loaders use, not in LoaderContext's type); wrapped, so the text is kept.
      const { entryTypes: types } = ctx as LoaderContext & { entryTypes?: Map<string, EntryType> };
      const entryTypes =
        types &&
        new Map(
          [...types].map(([ext, type]) => [
            ext,
            {
              ...type,
              getEntryInfo: (info: EntryInfoInput) => {
                texts.set(fileURLToPath(info.fileUrl), info.contents);
                return type.getEntryInfo(info);
              },
            },
          ]),
        );
      await inner.load({
        ...ctx,
        ...(entryTypes && { entryTypes }),
        // Frontmatter problems are reported with their lines by the reader; the entry is kept as
        // written so the page still exists (the build fails, and dev shows the problem).
        parseData: async (props) => {
          const abs = props.filePath ? resolve(root, props.filePath) : resolve(base, `${props.id}.mdx`);
          const { entry } = scan(props.id, abs);
          if (loaded) later();
          return (entry?.data ?? props.data) as typeof props.data;
        },
      });
      // Pages glob kept from its cache (unchanged since the last sync) were not parsed: scan those.
      const stored = new Set<string>();
      for (const entry of ctx.store.values()) {
        if (!entry.filePath) continue;
        const abs = resolve(root, entry.filePath);
        stored.add(abs);
        if (!pages.has(abs)) scan(entry.id, abs);
      }
      for (const abs of pages.keys()) if (!stored.has(abs)) pages.delete(abs);
      texts.clear();
      loaded = true;
      publish();
      ctx.watcher?.on('unlink', (path) => {
        if (pages.delete(path)) later();
      });
    },
  };
}

/**
 * The problems of the whole content folder, as a collection. In a build it fails the sync when
 * there are any; in dev it logs them and keeps them current as files change, and makes sure no
 * change under the content folder is lost (settle.ts).
 */
export function problemsCollection(contentDir: string): Loader {
  let unsubscribe: (() => void) | undefined;
  return {
    name: 'content-problems',
    load: async (ctx) => {
      const reader = contentReader(contentDir);
      const render = renderWith(ctx);
      // One entry, "all", always present: the list of every problem (empty when there is none).
      const write = async (): Promise<Problem[]> => {
        const list = await reader.problems(render);
        const data = { list } as Record<string, unknown>;
        ctx.store.set({ id: 'all', data, digest: ctx.generateDigest(data) });
        return list;
      };
      const list = await write();
      if (list.length > 0 && !ctx.watcher) throw new ContentError(list);
      if (list.length > 0) ctx.logger.error(new ContentError(list).message);
      if (!ctx.watcher) return;
      settleChanges(ctx.watcher, contentDir);
      let had = list.length > 0;
      unsubscribe?.();
      const rewrite = batched(
        async () => {
          const now = await write();
          if (now.length > 0) ctx.logger.error(new ContentError(now).message);
          else if (had) ctx.logger.info('content problems fixed');
          had = now.length > 0;
        },
        (e) => ctx.logger.error(String(e)),
      );
      unsubscribe = reader.onChange(() => rewrite());
    },
  };
}
