// The content layer's loaders (src/lib/content/loaders.ts) driven the way `astro build` drives them,
// with a small stand-in for Astro's loader context. Astro starts every collection's loader at once;
// the problems collection runs the cross-file rules once all have reported. Any of them can be the
// last to finish: here the pages are. Astro's glob loader reads the pages asynchronously, so other
// work (timers) runs between two pages; here each page after the first takes a few milliseconds to
// parse, as on a busy machine or a slow disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LoaderContext } from 'astro/loaders';
import { collections } from '../../src/lib/content/astro-collections.ts';
import { yamlCollection, pagesCollection, problemsCollection } from '../../src/lib/content/loaders.ts';
import { COLLECTION_NAMES } from '../../src/lib/content/collections.ts';
import type { Problem } from '../../src/lib/problems.ts';
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

test('a copy of content/ with one malformed line in axes.yaml: the problems collection holds that one problem', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'loaders-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync('content', dir, { recursive: true });
  const axes = join(dir, 'comparison/axes.yaml');
  const lines = readFileSync(axes, 'utf8').split('\n');
  const at = lines.findIndex((l) => /^\s+short: \S/.test(l));
  lines[at] = lines[at]!.replace(/short: .*/, 'short: Linear walk: then a DNAT chain');
  writeFileSync(axes, lines.join('\n'));
  const loaders = {
    ...Object.fromEntries(
      COLLECTION_NAMES.filter((n) => n !== 'pages').map((n) => [
        n,
        yamlCollection(n as Exclude<typeof n, 'pages'>, dir),
      ]),
    ),
    pages: pagesCollection(dir),
    problems: problemsCollection(dir),
  };
  const stores = new Map(Object.keys(loaders).map((name) => [name, new Store()]));
  const failure = await Promise.all(
    Object.entries(loaders).map(([name, loader]) => loader.load(context(name, stores.get(name)!))),
  ).then(
    () => undefined,
    (e: unknown) => e,
  );
  const list = (stores.get('problems')!.get('all')?.data as { list: Problem[] } | undefined)?.list ?? [];
  assert.equal(list.length, 1, JSON.stringify(list, null, 1));
  assert.deepEqual(
    { file: list[0]!.file.endsWith('comparison/axes.yaml'), line: list[0]!.line, col: list[0]!.col },
    { file: true, line: at + 1, col: lines[at]!.indexOf('Linear') + 1 },
  );
  assert.match(String(failure), /malformed YAML/, 'the build fails on it');
  assert.equal(stores.get('axes')!.entries.size, 0, 'no row is stored from a file that does not parse');
});
