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
    // glob() keeps the frontmatter as written; the rules have validated it, this applies its defaults.
    pages: (await getCollection('pages')).map((e) => ({ id: e.id, data: pageSchema.parse(e.data) })),
  };
  return assembleTable(content);
}

let cached: Promise<TableModel> | undefined;

/** The table model; built once per build, and afresh on every request in dev (live authoring). */
export async function getTable(): Promise<TableModel> {
  if (import.meta.env.DEV) {
    // Imported here, so a build (where DEV is false and this branch is dropped) bundles no reader.
    const { checkContent } = await import('./load.ts');
    const problems = await checkContent(contentDir);
    if (problems.length > 0) throw new ContentError(problems);
    const model = await load();
    // The files pass every rule, so a citation that does not resolve means the store is still being
    // written (one collection stored, the next not yet): say so rather than fail somewhere in a page.
    const unresolved = model.axes.flatMap((a) => a.cells.filter((c) => c.cites.some((x) => x === undefined)));
    if (unresolved.length > 0)
      throw new Error(
        `content is still being stored after an edit (${unresolved.length} cells cite excerpts not stored yet; ${model.excerpts.size} excerpts stored); the page reloads once it is (or reload it)`,
      );
    return model;
  }
  return (cached ??= load());
}
