// The site's single way in to the content: the table model, built from the content layer's
// collections. In `astro dev` every render first checks the folder as it is on disk (load.ts,
// checkContent: read again only when a file changed), so a page never shows content its rules
// reject: it throws their problems, and Astro shows them in the error overlay until the file is
// fixed. A build has checked it once already: its `problems` loader fails the sync first.
import { getCollection, getEntry } from 'astro:content';
import { ContentError } from '../problems.ts';
import { assembleTable, type TableModel, type ModelInput } from './model.ts';
import { pageSchema } from './schemas.ts';
import { contentDir } from './dir.ts';

const inOrder = <T extends { file: string; index: number }>(xs: T[]) =>
  xs.sort((a, b) => a.file.localeCompare(b.file) || a.index - b.index);

async function load(): Promise<TableModel> {
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
  return assembleTable(content);
}

let cached: Promise<TableModel> | undefined;
let dev: { stamp: string; model: Promise<TableModel> } | undefined;

/**
 * The table model; built once per build from the content layer's collections. In dev, from the files
 * as they are (read again only when one changed), rendered by the same pipeline: the store the pages
 * read lags the files after an edit, and was seen to keep a collection's old version (axes.yaml
 * fixed on disk, its bad cite still stored; an excerpt's new lines not shown: in 1 of 6 quiet runs of
 * the dev test and in CI runs, quiet and busy), so a page in dev never reads it for the table. MDX
 * bodies still come from Astro's glob() store, which renders them.
 */
export async function getTable(): Promise<TableModel> {
  if (import.meta.env.DEV) {
    // Imported here, so a build (where DEV is false and this branch is dropped) bundles no reader.
    const { checkContent, readAll, dataOf } = await import('./load.ts');
    const { stamp } = await import('./collections.ts');
    const { siteRender } = await import('./render.ts');
    const { markdownConfig } = await import('../markdown-pipeline.ts');
    const problems = await checkContent(contentDir);
    if (problems.length > 0) throw new ContentError(problems);
    const now = stamp(contentDir);
    if (dev?.stamp !== now) {
      const render = siteRender(markdownConfig(import.meta.env.BASE_URL));
      dev = { stamp: now, model: readAll(contentDir, render).then((reads) => assembleTable(dataOf(reads))) };
    }
    return dev.model;
  }
  return (cached ??= load());
}
