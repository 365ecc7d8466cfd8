// The figures as the site shows them: each one joined (model.ts), laid out (layout.ts) and drawn
// (svg.ts) once per build, in two forms: the drawing to place inline in a page (one SVG per lane,
// placed by the page's CSS), whose colours come from the page's CSS, and a standalone SVG file
// (the lanes side by side) with its own colours, served at a path that carries a hash of its bytes
// (so it can be cached for good). The route data (src/lib/route/data.ts)
// places them; components only read that.
import { createHash } from 'node:crypto';
import { getFigureEntries, getTable } from '../content/index.ts';
import { routes } from '../routes.ts';
import { assembleFigure, type FigureModel } from './model.ts';
import { layoutFigure } from './layout.ts';
import { laneSvgs, figureFileSvg, inlineStyle, standaloneStyle } from './svg.ts';
import tokensCss from '../../styles/tokens.css?raw';
import figureCss from './figure-svg.css?raw';

export interface FigureView extends FigureModel {
  /** The drawing for a page, one <svg> per lane: its colours are the page's tokens (svg.ts inlineStyle). */
  svg: string;
  /** The standalone file: its bytes and its site-relative path. */
  file: { svg: string; path: string };
  /** The lanes side by side (and the standalone file): the width they need, and the height. */
  width: number;
  height: number;
}

export { drawingName } from './model.ts';

async function build(): Promise<FigureView[]> {
  const table = await getTable();
  const entries = (await getFigureEntries()).sort((a, b) => a.id.localeCompare(b.id));
  const style = standaloneStyle(tokensCss, figureCss);
  return entries.map((entry) => {
    const model = assembleFigure(entry, table.backends, table.excerpts);
    const layout = layoutFigure(model);
    const svg = laneSvgs(
      model,
      layout,
      inlineStyle(figureCss, { id: routes.figureFragment(model.id), width: layout.width }),
    );
    const file = figureFileSvg(model, layout, style);
    const hash = createHash('sha256').update(file).digest('hex').slice(0, 10);
    return {
      ...model,
      svg,
      file: { svg: file, path: routes.figureFile(model.id, hash) },
      width: layout.width,
      height: layout.height,
    };
  });
}

let cached: Promise<FigureView[]> | undefined;

/** Every figure; built once per build, and afresh on every request in dev (live authoring). */
export function getFigures(): Promise<FigureView[]> {
  if (import.meta.env.DEV) return build();
  cached ??= build();
  return cached;
}
