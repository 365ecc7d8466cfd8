// The content layer's loaders (src/lib/content/loaders.ts) driven the way `astro build` and `astro dev`
// drive them, with a small stand-in for Astro's loader context: each YAML collection stores its valid
// entries by id; `problems` fails a build with every located problem of the folder; in dev a change
// under a collection's path is read again and stored.
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
  set(entry: Entry) {
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

test('dev: a change under a collection is read again and stored; the problems loader logs a problem and its fix', async (t) => {
  const dir = copy(t);
  const watcher = new EventEmitter();
  const store = new Store();
  const logged: string[] = [];
  await yamlLoader('sources', dir).load(context('sources', store, watcher));
  await problemsLoader(dir).load(context('problems', new Store(), watcher, logged));
  const file = join(dir, 'sources.yaml');
  const text = readFileSync(file, 'utf8');
  const first = [...store.entries.values()][0]!.data as { id: string; label: string };
  writeFileSync(file, text.replace(`label: ${first.label}`, `label: ${first.label} FIXTURE`));
  watcher.emit('all', 'change', file);
  const label = () => (store.get(first.id)?.data as { label: string } | undefined)?.label;
  for (let i = 0; i < 100 && label() === first.label; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(label(), `${first.label} FIXTURE`);
  writeFileSync(file, '');
  watcher.emit('all', 'change', file);
  for (let i = 0; i < 100 && logged.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  assert.match(logged[0] ?? '', /sources\.yaml:1:1: file is empty/);
  writeFileSync(file, text);
  watcher.emit('all', 'change', file);
  for (let i = 0; i < 100 && logged.length === 1; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(logged[1], 'content problems fixed');
  assert.equal(label(), first.label, 'the restored file is stored again');
});
