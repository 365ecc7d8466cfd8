// The plain-Node way in to a content folder, for the content layer's checks, scripts and tests: every
// collection read and validated by the registry's readers (collections.ts), the cross-file rules
// (checks/) run over what was read, and every problem located (file:line:column, item, backend, field).
import { resolve } from 'node:path';
import { ContentError, Problems, sortProblems, type Locator, type Problem } from '../problems.ts';
import { plainRender, type Render } from './inline.ts';
import type { Read } from './entries.ts';
import type { YamlFile } from './yaml.ts';
import {
  COLLECTION_NAMES,
  readAll,
  readCollection,
  type CollectionName,
  type ContentData,
  type ContentReads,
} from './collections.ts';
import { CHECKS } from './checks/index.ts';
import { assembleTable, type TableModel } from './model.ts';

/** A locator over the YAML files read: file + path -> line and column. */
export function locatorFor(files: YamlFile[]): Locator {
  const byFile = new Map(files.map((f) => [f.file, f]));
  return (file, path, seek) => byFile.get(file)?.at(path, seek);
}

/**
 * The cross-file rules over `data`. A rule that reads a collection listed in `waiting` (one with a
 * problem of its own: a file that does not parse, an entry its schema rejects) does not report: it
 * would run on part of that collection and report what is only missing ("unknown axis" for every
 * axis of an axes.yaml that does not parse). It reports once the collection reads cleanly.
 */
export function crossFileProblems(data: ContentData, waiting: ReadonlySet<CollectionName>, locate: Locator): Problem[] {
  const out: Problem[] = [];
  for (const check of CHECKS) {
    const read = new Set<CollectionName>();
    const view = {} as ContentData;
    for (const name of COLLECTION_NAMES)
      Object.defineProperty(view, name, {
        enumerable: true,
        get: () => {
          read.add(name);
          return data[name];
        },
      });
    const problems = new Problems(locate);
    check(view, problems);
    if (![...read].some((name) => waiting.has(name))) out.push(...problems.list);
  }
  return out;
}

/** The entries of every collection: the site document alone, the others as lists. */
export function dataOf(reads: ContentReads): ContentData {
  const lists = Object.fromEntries(COLLECTION_NAMES.map((n) => [n, reads[n].entries]));
  return { ...lists, site: reads.site.entries[0] } as ContentData;
}

/** The problems of a content folder's reads: each collection's own, then the cross-file rules'. */
export function contentProblems(reads: ContentReads): Problem[] {
  const all = COLLECTION_NAMES.map((n) => reads[n] as Read<unknown>);
  const own = all.flatMap((r) => r.problems);
  const data = dataOf(reads);
  if (!data.site) return sortProblems(own);
  const waiting = new Set(COLLECTION_NAMES.filter((n) => reads[n].problems.length > 0));
  return sortProblems([...own, ...crossFileProblems(data, waiting, locatorFor(all.flatMap((r) => r.files)))]);
}

/**
 * Read problems; when there are none, the cross-file problems (for callers that read the collections
 * themselves, as the drift report does).
 */
export function combine(readProblems: Problem[], data: ContentData, locate: Locator): Problem[] {
  return sortProblems(readProblems.length > 0 ? readProblems : crossFileProblems(data, new Set(), locate));
}

/**
 * Every problem of a content folder, from its files as they are now. Each collection is read again
 * only when a file of it changed since (collections.ts, parseCollection), so a page in `astro dev`
 * checks on each render at the cost of a stat of each file, and a build's loaders share the read.
 */
export async function checkContent(dir: string): Promise<Problem[]> {
  return contentProblems(await readAll(resolve(dir), plainRender));
}

/** Throws a ContentError listing every problem, when there are any. */
export function throwIfProblems(problems: Problem[]): void {
  if (problems.length > 0) throw new ContentError(problems);
}

/** Reads and checks a content folder; throws a ContentError listing every problem. */
export async function loadContent(dir: string, render: Render = plainRender): Promise<ContentData> {
  const reads = await readAll(resolve(dir), render);
  throwIfProblems(contentProblems(reads));
  return dataOf(reads);
}

/** The table of a content folder, as the site builds it (loadContent has run every rule, once). */
export async function loadTable(dir: string, render: Render = plainRender): Promise<TableModel> {
  return assembleTable(await loadContent(dir, render));
}

/**
 * Only sources.yaml and excerpts/*.yaml, validated by their schemas (what the quote and anchor checks
 * need), with a locator over those files so the checks can name a problem's line and column.
 */
export async function loadSourcesAndExcerpts(
  dir: string,
): Promise<Pick<ContentData, 'sources' | 'excerpts'> & { locate: Locator }> {
  const [sources, excerpts] = await Promise.all([
    readCollection('sources', dir, plainRender),
    readCollection('excerpts', dir, plainRender),
  ]);
  const problems = [...sources.problems, ...excerpts.problems];
  if (problems.length > 0) throw new ContentError(sortProblems(problems));
  return {
    sources: sources.entries,
    excerpts: excerpts.entries,
    locate: locatorFor([...sources.files, ...excerpts.files]),
  };
}

// What tools (tools/) use of the content layer besides the above: this module is their one way in
// (.dependency-cruiser.cjs, tools-through-the-ways-in).
export { PATHS, readAll, readCollection, type ContentData } from './collections.ts';
export { plainRender } from './inline.ts';
export { displayPath } from './read.ts';
export { evidenceSchema, type Axis, type Cell, type Evidence } from './schemas.ts';
export type { Read, AxisEntry, BackendEntry, ExcerptEntry, SourceEntry } from './entries.ts';
export type { YamlFile } from './yaml.ts';
