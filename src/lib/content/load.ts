// The plain-Node way in to a content folder, for scripts and tests: every collection read from
// disk through the same readers and schemas as the content layer (read.ts), then the same
// cross-file rules (checks.ts). Problems come out in the same located format.
import type { Problem } from './errors.ts';
import { ContentError, Problems, sortProblems, type Locator } from './errors.ts';
import { plainRender, type Render } from './inline.ts';
import type { Read } from './entries.ts';
import { readAll, readCollection, type ContentData } from './collections.ts';
import { checkContent } from './checks/index.ts';
import { assembleTable, type TableModel } from './model.ts';
import type { YamlFile } from './yaml.ts';

/** A locator over the YAML files read: file + path -> line and column. */
export function locatorFor(files: YamlFile[]): Locator {
  const byFile = new Map(files.map((f) => [f.file, f]));
  return (file, path, seek) => byFile.get(file)?.at(path, seek);
}

/**
 * Schema problems, then the cross-file problems of files that read cleanly (a rule run over a
 * file with a broken entry would only repeat that entry's problem in other words).
 */
export function combine(readProblems: Problem[], data: ContentData, locate: Locator): Problem[] {
  const checks = new Problems(locate);
  checkContent(data, checks);
  const broken = new Set(readProblems.map((p) => p.file));
  return sortProblems([...readProblems, ...checks.list.filter((p) => !broken.has(p.file))]);
}

/** Reads and checks a content folder; throws a ContentError listing every problem. */
export async function loadContent(dir: string, render: Render = plainRender): Promise<ContentData> {
  const read = await readAll(dir, render);
  const all = Object.values(read) as Read<unknown>[];
  const readProblems = all.flatMap((r) => r.problems);
  const data: ContentData = {
    site: read.site.entries[0]!,
    sources: read.sources.entries,
    backends: read.backends.entries,
    axes: read.axes.entries,
    excerpts: read.excerpts.entries,
    evidence: read.evidence.entries,
    pages: read.pages.entries,
    figures: read.figures.entries,
  } satisfies { [K in keyof typeof read]: unknown };
  if (!data.site) throw new ContentError(readProblems);
  const problems = combine(readProblems, data, locatorFor(all.flatMap((r) => r.files)));
  if (problems.length > 0) throw new ContentError(problems);
  return data;
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
