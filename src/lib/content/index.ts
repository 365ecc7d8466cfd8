// The site's single way in to the content: the table model and the figures' entries. A build takes
// them from the collections, which its `problems` loader checked first; `astro dev` from the files,
// read, checked and rendered again when one changed, so a page never shows what the rules reject.
import { getCollection, getEntry } from 'astro:content';
import { ContentError } from '../problems.ts';
import { assembleTable, type TableModel, type ModelInput } from './model.ts';
import type { FigureEntry } from './entries.ts';
import { pageSchema } from './schemas.ts';
import { contentDir } from './dir.ts';

type Content = { table: TableModel; figures: FigureEntry[] };

const inOrder = <T extends { file: string; index: number }>(xs: T[]) =>
  xs.sort((a, b) => a.file.localeCompare(b.file) || a.index - b.index);

async function fromStore(): Promise<Content> {
  const content: ModelInput = {
    site: (await getEntry('site', 'site'))!.data,
    sources: inOrder((await getCollection('sources')).map((e) => e.data)),
    backends: inOrder((await getCollection('backends')).map((e) => e.data)),
    axes: inOrder((await getCollection('axes')).map((e) => e.data)),
    excerpts: inOrder((await getCollection('excerpts')).map((e) => e.data)),
    evidence: (await getCollection('evidence')).map((e) => e.data).sort((a, b) => a.id.localeCompare(b.id)),
    growth: (await getCollection('growth')).map((e) => e.data).sort((a, b) => a.id.localeCompare(b.id)),
    // glob() keeps the frontmatter as written; the rules have validated it, this applies its defaults.
    pages: (await getCollection('pages')).map((e) => ({ id: e.id, data: pageSchema.parse(e.data) })),
  };
  return { table: assembleTable(content), figures: (await getCollection('figures')).map((e) => e.data) };
}

// In dev, from the files: the store lags them after an edit, and was seen to keep an old version (a
// fixed axes.yaml's bad cite; an excerpt's old lines). One read feeds rules and model; MDX: glob().
async function fromFiles(): Promise<Content> {
  // Imported here, so a build (where DEV is false and this branch is dropped) bundles no reader.
  const { readAll, dataOf, contentProblems } = await import('./load.ts');
  const { siteRender } = await import('./render.ts');
  const { markdownConfig } = await import('../markdown-pipeline.ts');
  const reads = await readAll(contentDir, siteRender(markdownConfig(import.meta.env.BASE_URL)));
  const problems = contentProblems(reads);
  if (problems.length > 0) throw new ContentError(problems);
  const data = dataOf(reads);
  return { table: assembleTable(data), figures: data.figures };
}

let built: Promise<Content> | undefined;
let dev: { stamp: string; content: Promise<Content> } | undefined;

async function content(): Promise<Content> {
  if (!import.meta.env.DEV) return (built ??= fromStore());
  const { stamp } = await import('./collections.ts');
  const now = stamp(contentDir);
  if (dev?.stamp !== now) dev = { stamp: now, content: fromFiles() };
  return dev.content;
}

/** The table model; built once per build, in dev again after a content file changed. */
export const getTable = async (): Promise<TableModel> => (await content()).table;

/** The figures' entries (src/lib/figures/ lays them out and draws them), from the same content. */
export const getFigureEntries = async (): Promise<FigureEntry[]> => (await content()).figures;
