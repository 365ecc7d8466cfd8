// One link-preview image per row (routes.rowPreview), drawn from the model at build time: a new
// row gets its image with no code change.
import type { APIRoute, GetStaticPaths } from 'astro';
import { getTable } from '../../../lib/content/index.ts';
import type { RowModel } from '../../../lib/view/model.ts';
import { rowCard, renderPng, PREVIEW } from '../../../lib/preview-image.ts';

export const getStaticPaths = (async () =>
  (await getTable()).rows.map((row) => ({ params: { axis: row.id }, props: { row } }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ row: RowModel }> = async ({ props }) =>
  new Response(new Uint8Array(await renderPng(rowCard(props.row, await getTable()))), {
    headers: { 'Content-Type': PREVIEW.type },
  });
