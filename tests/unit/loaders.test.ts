// The content layer's loaders (src/lib/content/loaders.ts) driven the way `astro build` and `astro dev`
// drive them, with a small stand-in for Astro's loader context: each YAML collection stores its valid
// entries by id; `problems` fails a build with every located problem of the folder; in dev it logs
// each change's problems and stores the folder's stamp (which makes Astro reload the open pages).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LoaderContext } from 'astro/loaders';
import { yamlLoader, problemsLoader } from '../../src/lib/content/loaders.ts';
import { COLLECTION_NAMES } from '../../src/lib/content/collections.ts';
import { ContentError } from '../../src/lib/problems.ts';
import { markdownConfig } from '../../src/lib/markdown-pipeline.ts';

type Entry = Parameters<LoaderContext['store']['set']>[0];

/** The part of Astro's data store the loaders use. */
class Store {
  readonly entries = new Map<string, Entry>();
  sets = 0;
  set(entry: Entry) {
    this.sets++;
    this.entries.set(entry.id, entry);
    return true;
  }
  get(id: string) {
    return this.entries.get(id);
  }
  delete(id: string) {
    this.entries.delete(id);
  }
  clear() {
    this.entries.clear();
  }
}

const root = resolve('.');

function context(name: string, store: Store, watcher?: EventEmitter, logged: string[] = []): LoaderContext {
  const quiet = () => {};
  const log = (line: string) => logged.push(line);
  return {
    collection: name,
    store,
    config: { root: pathToFileURL(`${root}/`), srcDir: pathToFileURL(`${root}/src/`), markdown: markdownConfig('/') },
    logger: { info: log, warn: quiet, error: log, debug: quiet, label: name, options: {}, fork: () => undefined },
    parseData: async ({ data }: { data: unknown }) => data,
    generateDigest: (data: unknown) => String(JSON.stringify(data).length),
    watcher: watcher && Object.assign(watcher, { add: () => watcher }),
  } as unknown as LoaderContext;
}

const copy = (t: { after: (fn: () => void) => void }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loaders-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync('content', dir, { recursive: true });
  return dir;
};

test('each YAML collection of content/ stores its entries by id; the problems loader finds none', async () => {
  const stores = new Map<string, Store>();
  for (const name of COLLECTION_NAMES.filter((n) => n !== 'pages')) {
    const store = new Store();
    stores.set(name, store);
    await yamlLoader(name as Exclude<typeof name, 'pages'>, 'content').load(context(name, store));
  }
  assert.deepEqual([...stores.get('site')!.entries.keys()], ['site']);
  assert.ok(stores.get('axes')!.entries.size >= 6, 'every axis');
  assert.ok(stores.get('excerpts')!.get('kep-265/fallback-scenarios'), 'excerpts by <source>/<id>');
  await problemsLoader('content').load(context('problems', new Store()));
});

test('a copy of content/ with one malformed line in axes.yaml: the build fails with that one problem, located', async (t) => {
  const dir = copy(t);
  const axes = join(dir, 'comparison/axes.yaml');
  const lines = readFileSync(axes, 'utf8').split('\n');
  const at = lines.findIndex((l) => /^\s+short: \S/.test(l));
  lines[at] = lines[at]!.replace(/short: .*/, 'short: Linear walk: then a DNAT chain');
  writeFileSync(axes, lines.join('\n'));
  const failure = await problemsLoader(dir)
    .load(context('problems', new Store()))
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  assert.ok(failure instanceof ContentError, String(failure));
  assert.equal(failure.problems.length, 1, failure.message);
  const [p] = failure.problems;
  assert.deepEqual(
    { file: p!.file.endsWith('comparison/axes.yaml'), line: p!.line, col: p!.col },
    { file: true, line: at + 1, col: lines[at]!.indexOf('Linear') + 1 },
  );
  assert.match(p!.problem, /malformed YAML/);
  const store = new Store();
  await yamlLoader('axes', dir).load(context('axes', store));
  assert.equal(store.entries.size, 0, 'no axis is stored from a file that does not parse');
});

test('dev: a change under content/ is stored as a new stamp (Astro reloads the open pages), an MDX page is left to glob(); problems and their fix are logged', async (t) => {
  const dir = copy(t);
  const watcher = new EventEmitter();
  const store = new Store();
  const logged: string[] = [];
  await problemsLoader(dir).load(context('problems', store, watcher, logged));
  const stamp = () => (store.get('files')?.data as { stamp: string } | undefined)?.stamp;
  const until = async (done: () => boolean) => {
    for (let i = 0; i < 150 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
  };
  const file = join(dir, 'sources.yaml');
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, '');
  watcher.emit('all', 'change', file);
  await until(() => logged.length > 0);
  assert.match(logged[0] ?? '', /sources\.yaml:1:1: file is empty/);
  const emptied = stamp();
  assert.match(emptied ?? '', /sources\.yaml:0:/, 'the stored stamp is of the folder as it is now');
  writeFileSync(file, text);
  watcher.emit('all', 'change', file);
  await until(() => logged.length > 1);
  assert.equal(logged[1], 'content problems fixed');
  assert.notEqual(stamp(), emptied, 'a new stamp: the pages reload');
  // glob() stores an MDX page's change itself (one reload per save): this loader stores nothing for it.
  // Changes are handled in turn: once the emptied sources.yaml after the page is logged, both were.
  const sets = store.sets;
  const page = join(dir, 'pages/drain.mdx');
  writeFileSync(page, readFileSync(page, 'utf8') + '\n');
  watcher.emit('all', 'change', page);
  writeFileSync(file, '');
  watcher.emit('all', 'change', file);
  await until(() => logged.length > 2);
  assert.match(logged[2] ?? '', /file is empty/);
  assert.equal(store.sets - sets, 1, 'one store write: for sources.yaml, none for the MDX page');
});
