// Each figure as a standalone SVG file (figures/<id>.<hash>.svg), with its own light and dark
// colours: the home page shows the dispatch figure this way, so that the table's first render
// stays within its budget while the drawing loads after it.
import type { APIRoute, GetStaticPaths } from 'astro';
import { getFigures, type FigureView } from '../../lib/figures/index.ts';

export const getStaticPaths = (async () =>
  (await getFigures()).map((figure) => ({
    params: { file: figure.file.path.replace(/^figures\//, '') },
    props: { figure },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ figure: FigureView }> = ({ props }) =>
  new Response(props.figure.file.svg, { headers: { 'Content-Type': 'image/svg+xml' } });
