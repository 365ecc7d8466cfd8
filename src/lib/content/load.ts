// The plain-Node way in to a content folder, for scripts and tests: a content reader of their own
// (reader.ts), so the same readers, schemas and cross-file rules as the content layer, and problems
// in the same located format.
import type { Problem } from '../problems.ts';
import { ContentError, sortProblems, type Locator } from '../problems.ts';
import { plainRender, type Render } from './inline.ts';
import type { ContentData } from './collections.ts';
import { assembleTable, type TableModel } from './model.ts';
import { ContentReader, crossFileProblems, dataOf, locatorFor, throwIfProblems } from './reader.ts';

export { locatorFor };

/**
 * Read problems; when there are none, the cross-file problems (for callers that read the collections
 * themselves: the reader's `problems` lets each rule wait only for the collections it reads).
 */
export function combine(readProblems: Problem[], data: ContentData, locate: Locator): Problem[] {
  return sortProblems(readProblems.length > 0 ? readProblems : crossFileProblems(data, new Set(), locate));
}

/** Reads and checks a content folder; throws a ContentError listing every problem. */
export async function loadContent(dir: string, render: Render = plainRender): Promise<ContentData> {
  const reader = new ContentReader(dir);
  const reads = await reader.all(render);
  throwIfProblems(await reader.problems(render));
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
  const reader = new ContentReader(dir);
  const [sources, excerpts] = await Promise.all([
    reader.collection('sources', plainRender),
    reader.collection('excerpts', plainRender),
  ]);
  const problems = [...sources.problems, ...excerpts.problems];
  if (problems.length > 0) throw new ContentError(sortProblems(problems));
  return {
    sources: sources.entries,
    excerpts: excerpts.entries,
    locate: locatorFor([...sources.files, ...excerpts.files]),
  };
}
