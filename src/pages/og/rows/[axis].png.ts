// One link-preview image per axis (routes.axisPreview), drawn from the model at build time: a new
// axis gets its image with no code change.
import type { APIRoute, GetStaticPaths } from 'astro';
import { getTable } from '../../../lib/content/index.ts';
import type { AxisModel } from '../../../lib/view/model.ts';
import { axisCard, renderPng, PREVIEW } from '../../../lib/preview-image.ts';

export const getStaticPaths = (async () =>
  (await getTable()).axes.map((axis) => ({ params: { axis: axis.id }, props: { axis } }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ axis: AxisModel }> = async ({ props }) =>
  new Response(new Uint8Array(await renderPng(axisCard(props.axis, await getTable()))), {
    headers: { 'Content-Type': PREVIEW.type },
  });
