// The site's single way in to the content: the table model, built from the content layer's
// collections. Problems found by the loaders (problems collection) are thrown here, so in
// `astro dev` every page shows them in the error overlay until the file is fixed.
import { getCollection, getEntry } from 'astro:content';
import { ContentError } from '../problems.ts';
import { assembleTable, type TableModel, type ModelInput } from './model.ts';

const inOrder = <T extends { file: string; index: number }>(xs: T[]) =>
  xs.sort((a, b) => a.file.localeCompare(b.file) || a.index - b.index);

async function load(): Promise<TableModel> {
  const problems = (await getEntry('problems', 'all'))?.data.list ?? [];
  if (problems.length > 0) throw new ContentError(problems);
  const content: ModelInput = {
    site: (await getEntry('site', 'site'))!.data,
    sources: inOrder((await getCollection('sources')).map((e) => e.data)),
    backends: inOrder((await getCollection('backends')).map((e) => e.data)),
    axes: inOrder((await getCollection('axes')).map((e) => e.data)),
    excerpts: inOrder((await getCollection('excerpts')).map((e) => e.data)),
    evidence: (await getCollection('evidence')).map((e) => e.data).sort((a, b) => a.id.localeCompare(b.id)),
    pages: (await getCollection('pages')).map((e) => ({ id: e.id, data: e.data })),
  };
  return assembleTable(content);
}

let cached: Promise<TableModel> | undefined;

/** The table model; built once per build, and afresh on every request in dev (live authoring). */
export function getTable(): Promise<TableModel> {
  if (import.meta.env.DEV) return load();
  cached ??= load();
  return cached;
}
