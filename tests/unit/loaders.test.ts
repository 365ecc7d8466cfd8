// The content layer's loaders (src/lib/content/loaders.ts) driven the way `astro build` drives them,
// with a small stand-in for Astro's loader context. Astro starts every collection's loader at once;
// the problems collection runs the cross-file rules once all have reported. Any of them can be the
// last to finish: here the pages are. Astro's glob loader reads the pages asynchronously, so other
// work (timers) runs between two pages; here each page after the first takes a few milliseconds to
// parse, as on a busy machine or a slow disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LoaderContext } from 'astro/loaders';
import { collections } from '../../src/lib/content/astro-collections.ts';
import { markdownConfig } from '../../src/lib/markdown-pipeline.ts';

type Entry = Parameters<LoaderContext['store']['set']>[0];

/** The part of Astro's data store the loaders use. */
class Store {
  readonly entries = new Map<string, Entry>();
  set(entry: Entry) {
    this.entries.set(entry.id, entry);
    return true;
  }
  get(id: string) {
    return this.entries.get(id);
  }
  keys() {
    return [...this.entries.keys()];
  }
  values() {
    return [...this.entries.values()];
  }
  delete(id: string) {
    this.entries.delete(id);
  }
  clear() {
    this.entries.clear();
  }
  addModuleImport() {}
  addAssetImports() {}
}

const root = resolve('.');
let parsed = 0;
/** The frontmatter as data; every page after the first yields to timers before it is parsed. */
const mdx = {
  getEntryInfo: async ({ contents }: { contents: string }) => {
    if (parsed++ > 0) await new Promise((r) => setTimeout(r, 5));
    return { data: {}, body: contents };
  },
  contentModuleTypes: '',
};

function context(name: string, store: Store): LoaderContext {
  const quiet = () => {};
  return {
    collection: name,
    store,
    config: { root: pathToFileURL(`${root}/`), srcDir: pathToFileURL(`${root}/src/`), markdown: markdownConfig('/') },
    logger: { info: quiet, warn: quiet, error: quiet, debug: quiet, label: name, options: {}, fork: () => undefined },
    parseData: async ({ data }: { data: unknown }) => data,
    generateDigest: (data: unknown) => String(JSON.stringify(data).length),
    entryTypes: new Map([['.mdx', mdx]]),
    watcher: undefined,
  } as unknown as LoaderContext;
}

test('the rules see every page, not those read so far, when the pages load last', async () => {
  const stores = new Map(Object.keys(collections).map((name) => [name, new Store()]));
  const load = (names: string[]) =>
    Promise.all(
      names.map((name) => {
        const { loader } = collections[name as keyof typeof collections] as unknown as {
          loader: { load: (ctx: LoaderContext) => Promise<void> };
        };
        return loader.load(context(name, stores.get(name)!));
      }),
    );
  const last = ['pages', 'problems'];
  await load(Object.keys(collections).filter((name) => !last.includes(name)));
  await load(last); // a build fails here if the rules ran on a part of the pages
  const pages = stores.get('pages')!;
  assert.ok(pages.entries.size >= 10 && parsed === pages.entries.size, `every page read (${pages.entries.size})`);
  const problems = stores.get('problems')!.get('all')?.data as { list: unknown[] } | undefined;
  assert.deepEqual(problems?.list, [], 'content/ has no problems');
});
