// The content layer's loaders (src/content.config.ts), as small as Astro's own file() loader:
//   - a YAML collection is read by the site's reader (read.ts: positions kept, so every problem is
//     located at file:line:column), each valid entry stored by its id, its Markdown fields rendered
//     by the site's pipeline. A build's pages read the store; in dev they read the files (index.ts),
//     so these load once and do not watch;
//   - `problems` runs every rule over the whole folder once per sync (load.ts, checkContent): in a
//     build, any problem fails the sync before a page renders, listing all. In dev it watches the
//     folder: each change is logged with its problems, and stored, which makes Astro reload the open
//     pages; they read and check the files again (index.ts), so what a page shows and the problems
//     it throws come from the same files.
// The MDX pages are Astro's glob() loader (content.config.ts).
import { resolve, sep } from 'node:path';
import type { Loader, LoaderContext } from 'astro/loaders';
import { ContentError, describe } from '../problems.ts';
import { siteRender } from './render.ts';
import { PATHS, entryId, readCollection, stamp, type CollectionName } from './collections.ts';
import { checkContent } from './load.ts';

const under = (dir: string, path: string) => path === dir || path.startsWith(dir + sep);

/**
 * Runs `fn` after the run before it has finished, so a later change is stored after an earlier one;
 * a failure is logged and the next change runs again.
 */
function inTurn<A>(fn: (arg: A) => Promise<void>, log: LoaderContext['logger']): (arg: A) => void {
  let last = Promise.resolve();
  return (arg) => {
    last = last.then(() => fn(arg)).catch((e: unknown) => log.error(String(e)));
  };
}

/** A YAML collection of the registry (collections.ts). */
export function yamlLoader(name: Exclude<CollectionName, 'pages'>, contentDir: string): Loader {
  return {
    name: `yaml-${name}`,
    load: async (ctx) => {
      const read = await readCollection(name, contentDir, siteRender(ctx.config.markdown, ctx.config.image));
      ctx.store.clear();
      for (const entry of read.entries) {
        const data = entry as unknown as Record<string, unknown>;
        ctx.store.set({ id: entryId(name, entry as never), data, digest: ctx.generateDigest(data) });
      }
      // No entry (no evidence captured yet) is a normal state; an entry set and deleted keeps the
      // collection in the store, so getCollection() does not warn that it is missing.
      if (read.entries.length === 0) {
        ctx.store.set({ id: '_', data: {} });
        ctx.store.delete('_');
      }
    },
  };
}

/** Every problem of the content folder: fails a build; in dev, logged as files change. */
export function problemsLoader(contentDir: string): Loader {
  return {
    name: 'content-problems',
    load: async (ctx) => {
      const list = await checkContent(contentDir);
      if (list.length > 0 && !ctx.watcher) throw new ContentError(list);
      if (list.length > 0) ctx.logger.error(new ContentError(list).message);
      if (!ctx.watcher) return;
      let shown = list.map(describe).join('\n');
      const root = resolve(contentDir);
      const pages = resolve(root, PATHS.pages);
      const again = inTurn(async (changed: string) => {
        const now = await checkContent(contentDir);
        // A new value in the store makes Astro reload the open pages, which read the files (index.ts).
        // glob() stores an MDX page's change itself: one reload per save, not two (a second one sent
        // while a page loads reaches no one).
        if (!under(pages, changed)) ctx.store.set({ id: 'files', data: { stamp: stamp(root) } });
        const text = now.map(describe).join('\n');
        if (text === shown) return;
        if (now.length > 0) ctx.logger.error(new ContentError(now).message);
        else ctx.logger.info('content problems fixed');
        shown = text;
      }, ctx.logger);
      ctx.watcher.add(root);
      ctx.watcher.on('all', (_event, changed) => {
        if (under(root, changed)) again(changed);
      });
    },
  };
}
