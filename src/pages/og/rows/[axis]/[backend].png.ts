// One link-preview image per cell (routes.cellPreview), for the page "Link to this cell" shares:
// its axis's question over this backend's answer alone, drawn from the model at build time.
import type { APIRoute, GetStaticPaths } from 'astro';
import { getTable } from '../../../../lib/content/index.ts';
import type { AxisModel, CellModel } from '../../../../lib/view/model.ts';
import { cellCard, renderPng, PREVIEW } from '../../../../lib/preview-image.ts';

export const getStaticPaths = (async () =>
  (await getTable()).axes.flatMap((axis) =>
    axis.cells.map((cell) => ({ params: { axis: axis.id, backend: cell.backend.id }, props: { axis, cell } })),
  )) satisfies GetStaticPaths;

export const GET: APIRoute<{ axis: AxisModel; cell: CellModel }> = async ({ props }) =>
  new Response(new Uint8Array(await renderPng(cellCard(props.axis, props.cell, await getTable()))), {
    headers: { 'Content-Type': PREVIEW.type },
  });
