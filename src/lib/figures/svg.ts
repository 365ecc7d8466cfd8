// Draws a laid-out figure as SVG: shapes and real text, classes only (no style="" and no
// presentation colours), so the page's CSS (or, for the standalone file, the SVG's own <style>)
// gives it light, dark and print colours. A step drawn as our reading has a dashed border and says
// so in words; a cited one names its sources.
import type { FigureModel } from './model.ts';
import { TEXT, LANE_GAP, type Layout, type LaneLayout, type TextBox } from './layout.ts';
import type { Line } from './text.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function tspans(line: Line): string {
  return line.map((r) => (r.code ? `<tspan class="fig-code">${esc(r.text)}</tspan>` : esc(r.text))).join('');
}

/**
 * A box's text: its label lines, then its provenance line(s) in small type, as one <text> whose
 * lines are <tspan>s stepping down by a line height (dy): the same few attributes on every line.
 */
function boxText(b: TextBox, cls: string): string {
  const x = b.x + TEXT.pad;
  const lines = b.lines.map((line, i) =>
    i === 0 ? tspans(line) : `<tspan x="${x}" dy="${TEXT.line}">${tspans(line)}</tspan>`,
  );
  // The first provenance line sits a small line below the last label line's baseline, plus 2 px.
  const prov = b.prov.map(
    (p, i) =>
      `<tspan class="fig-prov" x="${x}" dy="${i === 0 ? TEXT.smallLine + 2 : TEXT.smallLine}">${esc(p)}</tspan>`,
  );
  return `<text class="${cls}" x="${x}" y="${b.y + TEXT.pad + TEXT.size - 1}">${[...lines, ...prov].join('')}</text>`;
}

/** The prefix of ids inside a drawing: unique in a page, which shows a figure once. */
const figureId = (figure: Pick<FigureModel, 'id'>) => `fig-${figure.id}`;

/**
 * One lane, in its own coordinates (0 0 at its top left): its frame and title, its stages' bands, its steps and
 * edges.
 */
function laneBody(lane: LaneLayout, layout: Layout, figureId: string, first: boolean): string {
  const W = layout.laneWidth,
    cx = W / 2;
  const parts: string[] = [
    `<rect class="fig-lane" x="1" y="1" width="${W - 2}" height="${layout.height - 2}" rx="6"/>`,
  ];
  const top = TEXT.pad + TEXT.size;
  parts.push(`<text class="fig-lane-title" x="${cx}" y="${top}" text-anchor="middle">${esc(lane.title[0]!)}</text>`);
  lane.title
    .slice(1)
    .forEach((t, i) =>
      parts.push(
        `<text class="fig-prov" x="${cx}" y="${top + (i + 1) * TEXT.smallLine}" text-anchor="middle">${esc(t)}</text>`,
      ),
    );
  for (const slot of lane.slots) {
    // A stage's band is at the same place in every lane: drawn in the first, reused (<use>) in the others.
    const band = `${figureId}-band-${slot.stage}`;
    if (slot.band && first)
      parts.push(
        `<g id="${band}"><rect class="fig-stage" x="${slot.band.x}" y="${slot.band.y}" width="${slot.band.w}" height="${slot.band.h}" rx="4"/>${boxText(slot.band, 'fig-stage-label')}</g>`,
      );
    else if (slot.band) parts.push(`<use href="#${band}"/>`);
    if (slot.empty)
      parts.push(
        `<rect class="fig-empty" x="${slot.empty.x}" y="${slot.empty.y}" width="${slot.empty.w}" height="${slot.empty.h}" rx="4"/>`,
      );
  }
  for (const e of lane.edges) {
    parts.push(`<path class="fig-edge" d="${e.path}"/>`, `<polygon class="fig-arrow" points="${e.arrow}"/>`);
    if (e.label)
      parts.push(
        `<text class="fig-edge-label" x="${e.label.x}" y="${e.label.y}"${e.label.textAnchor === 'end' ? ' text-anchor="end"' : ''}>${esc(e.label.text)}</text>`,
      );
  }
  for (const s of lane.steps)
    parts.push(
      `<rect class="fig-step${s.reading ? ' fig-step--reading' : ''}" x="${s.x}" y="${s.y}" width="${s.w}" height="${s.h}" rx="4"/>`,
      boxText(s, 'fig-label'),
    );
  return parts.join('');
}

/**
 * The drawing for a page: one <svg> per lane, each the same height, for the page's CSS to place side
 * by side or one after another (FlowFigure.astro); `head` (the drawing's <style>) goes in the first.
 * In HTML an <svg> needs no xmlns; the standalone file has it.
 */
export function laneSvgs(figure: Pick<FigureModel, 'id'>, layout: Layout, head = ''): string {
  const { laneWidth: W, height: H } = layout;
  return layout.lanes
    .map(
      (lane, i) =>
        `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" class="fig">${i === 0 ? head : ''}${laneBody(lane, layout, figureId(figure), i === 0)}</svg>`,
    )
    .join('');
}

/** The standalone file: the lanes side by side in one <svg>, with its own <style> and <title>. */
export function figureFileSvg(figure: FigureModel, layout: Layout, head: string): string {
  const { width: W, height: H } = layout;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" class="fig">`,
    head,
    `<title>${esc(figure.title)}</title>`,
    ...layout.lanes.map(
      (lane, i) =>
        `<g transform="translate(${i * (layout.laneWidth + LANE_GAP)} 0)">${laneBody(lane, layout, figureId(figure), i === 0)}</g>`,
    ),
    '</svg>',
  ].join('');
}

/** The site token each figure colour takes (tokens.css), on the page and in the standalone file. */
export const FIGURE_COLOURS: Readonly<Record<string, string>> = {
  '--fig-text': '--text',
  '--fig-muted': '--text-muted',
  '--fig-border': '--border',
  '--fig-accent': '--accent',
  '--fig-lane': '--bg-soft',
  '--fig-step': '--bg',
};

/** Comments, line breaks and the spaces around punctuation left out (no string in these rules holds `{}:;,`). */
const minify = (css: string) =>
  css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s*([{}:;,\n])\s*/g, '$1')
    .replace(/\n/g, '')
    .replace(/;}/g, '}');

/**
 * On screen, the drawing's row is laid out only once it nears the window (issue 44: on the home page
 * its SVG was the largest part of the load's layout; every page draws its figure below the first
 * screen). Its box (FlowFigure.astro, figure.css) already contains its layout and inline size, so its
 * place and height do not change when it renders; the row, not the box, as the row is the image a
 * screen reader names, and Chromium leaves a skipped element's descendants out of the accessibility
 * tree. The rule travels in the drawing's own <style>, whose hash the page's CSP carries anyway, so
 * nothing is added before the home page's table ends (tools/lib/bench.ts, throughTable). Print
 * draws it whole.
 */
const onlyNearScreen = (id: string) =>
  `@media screen{#${id} .figure-draw{content-visibility:auto;contain-intrinsic-size:auto 1000px}}`;

/**
 * The <style> of a drawing placed inline in a page: the figure colours are the page's tokens, black
 * on white in print. It travels inside the drawing, so only pages that draw a figure carry it; the
 * build's CSP allows it by its hash like any inline style. With a figure's id and its lanes' width
 * side by side, it also says from which width of the figure's box (FlowFigure.astro's container)
 * the lanes sit side by side instead of one after another.
 */
export function inlineStyle(figureCss: string, wide?: { id: string; width: number }): string {
  const tokens = Object.entries(FIGURE_COLOURS)
    .map(([fig, token]) => `${fig}:var(${token})`)
    .join(';');
  const print = '--fig-text:#000;--fig-muted:#333;--fig-border:#999;--fig-accent:#000;--fig-lane:#fff;--fig-step:#fff';
  const row = wide ? `@container (min-width:${wide.width}px){#${wide.id} .figure-draw{flex-direction:row}}` : '';
  return `<style>.fig{${tokens}}@media print{.fig{${print}}}${row}${wide ? onlyNearScreen(wide.id) : ''}${minify(figureCss)}</style>`;
}

/**
 * The standalone SVG file's own <style>: an image cannot see the page's CSS, so the figure colours
 * are read from tokens.css's light-dark() pairs; dark follows the reader's colour scheme, and print
 * is always light. The drawing rules are figure-svg.css itself.
 */
export function standaloneStyle(tokensCss: string, figureCss: string): string {
  const pairs = new Map(
    [...tokensCss.matchAll(/(--[\w-]+):\s*light-dark\(\s*([^,]+?)\s*,\s*([^)]+?)\s*\)/g)].map((m) => [
      m[1]!,
      [m[2]!, m[3]!] as const,
    ]),
  );
  const pairOf = (token: string, fig: string) => {
    const pair = pairs.get(token);
    if (!pair) throw new Error(`tokens.css has no light-dark() value for ${token} (figure colour ${fig})`);
    return pair;
  };
  // Opened on its own, the file is the page: its background is the page's (--bg), so the dark
  // drawing is not laid on a white canvas.
  const block = (i: 0 | 1) =>
    [
      ...Object.entries(FIGURE_COLOURS).map(([fig, token]) => `${fig}:${pairOf(token, fig)[i]}`),
      `background:${pairOf('--bg', 'background')[i]}`,
    ].join(';');
  return `<style>svg{${block(0)}}@media screen and (prefers-color-scheme:dark){svg{${block(1)}}}${minify(figureCss)}</style>`;
}
