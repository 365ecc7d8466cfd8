// One link-preview image per row (routes.axisPreview), drawn from the model at build time: a new
// row gets its image with no code change.
import type { APIRoute, GetStaticPaths } from 'astro';
import { getTable } from '../../../lib/content/index.ts';
import type { AxisModel } from '../../../lib/view/model.ts';
import { rowCard, renderPng, PREVIEW } from '../../../lib/preview-image.ts';

export const getStaticPaths = (async () =>
  (await getTable()).axes.map((row) => ({ params: { axis: row.id }, props: { row } }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ row: AxisModel }> = async ({ props }) =>
  new Response(new Uint8Array(await renderPng(rowCard(props.row, await getTable()))), {
    headers: { 'Content-Type': PREVIEW.type },
  });
