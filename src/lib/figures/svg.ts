// Draws a laid-out figure as SVG: shapes and real text, classes only (no style="" and no
// presentation colours), so the page's CSS (or, for the standalone file, the SVG's own <style>)
// gives it light, dark and print colours. A step drawn as our reading has a dashed border and says
// so in words; a cited one names its sources.
import type { FigureModel } from './model.ts';
import { TEXT, type Layout, type TextBox } from './layout.ts';
import type { Line } from './text.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function tspans(line: Line): string {
  return line.map((r) => (r.code ? `<tspan class="fig-code">${esc(r.text)}</tspan>` : esc(r.text))).join('');
}

/** A box's text: its label lines, then its provenance line(s) in small type. */
function boxText(b: TextBox, cls: string): string {
  const x = b.x + TEXT.pad;
  let y = b.y + TEXT.pad + TEXT.size - 1;
  const out: string[] = [];
  for (const line of b.lines) {
    out.push(`<text class="${cls}" x="${x}" y="${y}">${tspans(line)}</text>`);
    y += TEXT.line;
  }
  y += TEXT.smallLine - TEXT.line + 2;
  for (const p of b.prov) {
    out.push(`<text class="fig-prov" x="${x}" y="${y}">${esc(p)}</text>`);
    y += TEXT.smallLine;
  }
  return out.join('');
}

export interface SvgOptions {
  /** Extra markup right after the opening tag (the standalone file's <style>). */
  head?: string;
  /** Attributes of the <svg> element beyond the geometry. */
  attributes?: string;
  /**
   * A <title> with the figure's title: for the standalone file. Inline, the drawing is named by its
   * aria-label instead, and the page keeps one <title> element, its own.
   */
  title?: boolean;
}

export function figureSvg(figure: FigureModel, layout: Layout, options: SvgOptions = {}): string {
  const { width: W, height: H } = layout;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" class="fig fig--${figure.flow}"${options.attributes ? ` ${options.attributes}` : ''}>`,
    options.head ?? '',
    options.title ? `<title>${esc(figure.title)}</title>` : '',
  ];
  for (const lane of layout.lanes) {
    parts.push(`<rect class="fig-lane" x="${lane.x}" y="${lane.y}" width="${lane.w}" height="${lane.h}" rx="6"/>`);
    const cx = figure.flow === 'down' ? lane.x + lane.w / 2 : lane.header.x + TEXT.pad;
    const anchor = figure.flow === 'down' ? ' text-anchor="middle"' : '';
    parts.push(`<text class="fig-lane-title" x="${cx}" y="${lane.header.y + TEXT.size + 2}"${anchor}>${esc(lane.title[0]!)}</text>`);
    lane.title.slice(1).forEach((t, i) =>
      parts.push(`<text class="fig-prov" x="${cx}" y="${lane.header.y + TEXT.size + 2 + (i + 1) * TEXT.smallLine}"${anchor}>${esc(t)}</text>`));
  }
  for (const s of layout.stages) {
    parts.push(`<rect class="fig-stage" x="${s.x}" y="${s.y}" width="${s.w}" height="${s.h}" rx="4"/>`, boxText(s, 'fig-stage-label'));
  }
  for (const e of layout.edges) {
    parts.push(`<path class="fig-edge" d="${e.path}"/>`, `<polygon class="fig-arrow" points="${e.arrow}"/>`);
    if (e.label) parts.push(`<text class="fig-edge-label" x="${e.label.x}" y="${e.label.y + 4}" text-anchor="middle">${esc(e.label.text)}</text>`);
  }
  for (const s of layout.steps) {
    parts.push(`<rect class="fig-step${s.reading ? ' fig-step--reading' : ''}" x="${s.x}" y="${s.y}" width="${s.w}" height="${s.h}" rx="4"/>`, boxText(s, 'fig-label'));
  }
  parts.push('</svg>');
  return parts.join('');
}

/** The site token each figure colour takes (tokens.css), on the page and in the standalone file. */
export const FIGURE_COLOURS: Readonly<Record<string, string>> = {
  '--fig-text': '--text', '--fig-muted': '--text-muted', '--fig-border': '--border',
  '--fig-accent': '--accent', '--fig-lane': '--bg-soft', '--fig-step': '--bg',
};

const minify = (css: string) => css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s*\n\s*/g, '');

/**
 * The <style> of a drawing placed inline in a page: the figure colours are the page's tokens, black
 * on white in print. It travels inside the drawing, so only pages that draw a figure inline carry
 * it (the home page shows its figure as an image and keeps its bytes for the table); the build's
 * CSP allows it by its hash like any inline style.
 */
export function inlineStyle(figureCss: string): string {
  const tokens = Object.entries(FIGURE_COLOURS).map(([fig, token]) => `${fig}:var(${token})`).join(';');
  const print = '--fig-text:#000;--fig-muted:#333;--fig-border:#999;--fig-accent:#000;--fig-lane:#fff;--fig-step:#fff';
  return `<style>.fig{${tokens}}@media print{.fig{${print}}}${minify(figureCss)}</style>`;
}

/**
 * The standalone SVG file's own <style>: an image cannot see the page's CSS, so the figure colours
 * are read from tokens.css's light-dark() pairs; dark follows the reader's colour scheme, and print
 * is always light. The drawing rules are figure-svg.css itself.
 */
export function standaloneStyle(tokensCss: string, figureCss: string): string {
  const pairs = new Map([...tokensCss.matchAll(/(--[\w-]+):\s*light-dark\(\s*([^,]+?)\s*,\s*([^)]+?)\s*\)/g)].map((m) => [m[1]!, [m[2]!, m[3]!] as const]));
  const block = (i: 0 | 1) => Object.entries(FIGURE_COLOURS).map(([fig, token]) => {
    const pair = pairs.get(token);
    if (!pair) throw new Error(`tokens.css has no light-dark() value for ${token} (figure colour ${fig})`);
    return `${fig}:${pair[i]}`;
  }).join(';');
  return `<style>svg{${block(0)}}@media screen and (prefers-color-scheme:dark){svg{${block(1)}}}${minify(figureCss)}</style>`;
}
