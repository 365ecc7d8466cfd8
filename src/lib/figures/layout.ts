// Lays a figure out as a grid, at build time: one column per lane, one row per stage. A step's stage
// decides its row in every lane, so a row read across compares the backends at the same point; a lane
// with no step at a stage keeps an empty slot there. Each lane is drawn on its own (svg.ts) with the
// same row heights as every other lane, and the page's CSS places the lanes: side by side when the
// figure's box is as wide as `width`, one after another (each flowing down) when it is narrower
// (FlowFigure.astro). Both arrangements are the same drawing moved, so a second layout costs no bytes.
// A figure without stages is one stage, with no band.
import type { FigureModel } from './model.ts';
import { wrap, textWidth, type Line } from './text.ts';

/** Type sizes in CSS px: nothing in a drawing is smaller than 12 px (code included, figure-svg.css). */
export const TEXT = { size: 13, line: 17, small: 12, smallLine: 15, pad: 8 } as const;
/** Widest a step's text runs: three lanes fit side by side in a 768 px window (`width` below). */
export const STEP_TEXT_WIDTH = 186;
/** Room each side of the boxes inside a lane: where edges that skip a box run. */
const GUTTER = 12;
/** Between lanes (the CSS gap of FlowFigure's row), and between boxes down a lane. */
export const LANE_GAP = 10;
const BOX_GAP = 20;
/** Lane titles are bold: DejaVu Sans Bold runs up to about 15 % wider than the regular weight. */
const BOLD = 1.15;
/** Where a straight edge runs down: near the boxes' right edge, clear of a stage band's text. */
const RAIL = 14;

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
export interface TextBox extends Box {
  lines: Line[];
  prov: string[];
}
export interface LaidEdge {
  from: string;
  to: string;
  path: string;
  arrow: string;
  label?: { x: number; y: number; text: string; textAnchor: 'start' | 'end' };
}
export interface LaneLayout {
  id: string;
  title: string[];
  /**
   * Each stage's band (its label, on a figure with stages) and its slot's empty box, where the lane has no step
   * there.
   */
  slots: Array<{ stage: string | undefined; y: number; h: number; band?: TextBox; empty?: Box }>;
  steps: Array<TextBox & { id: string; reading: boolean; stage: string | undefined }>;
  edges: LaidEdge[];
}
export interface Layout {
  /** Every lane's width and height: the same for all, so their rows line up. */
  laneWidth: number;
  height: number;
  /** The lanes side by side: what the figure's box must be at least for them to sit in one row. */
  width: number;
  lanes: LaneLayout[];
}

/** What a step's provenance line says in the drawing: the sources it cites, or that it is our reading. */
export function provenanceLine(item: { cites: { source: { label: string } }[]; reading: boolean }): string {
  return item.reading ? '◇ our reading' : `§ ${[...new Set(item.cites.map((c) => c.source.label))].join(', ')}`;
}

/** Whether every stage of a figure is our own grouping (then marked once, not band by band). */
export const stagesOurs = (figure: { stages: { reading: boolean }[] }): boolean =>
  figure.stages.length > 0 && figure.stages.every((s) => s.reading);

/** The lane's title: its backend's name, and "read, not run" on a second line for a column that was not run. */
export const laneTitle = (lane: FigureModel['lanes'][number]): string[] =>
  lane.run ? [lane.name] : [lane.name, 'read, not run'];

function sizedText(label: string, prov: string, maxWidth: number): { lines: Line[]; prov: string[]; h: number } {
  const lines = wrap(label, maxWidth, TEXT.size);
  const provLines = wrap(prov, maxWidth, TEXT.small).map((l) => l.map((r) => r.text).join(''));
  return { lines, prov: provLines, h: lines.length * TEXT.line + provLines.length * TEXT.smallLine + 2 * TEXT.pad };
}

export function layoutFigure(figure: FigureModel): Layout {
  const boxW = STEP_TEXT_WIDTH + 2 * TEXT.pad;
  const laneW = boxW + 2 * GUTTER;
  const x = GUTTER;
  const stages: Array<{ id: string | undefined; band?: ReturnType<typeof sizedText> }> =
    figure.stages.length === 0
      ? [{ id: undefined }]
      : // Stages that are all our own grouping say so once, in the caption, not on every band.
        figure.stages.map((s) => ({
          id: s.id,
          band: sizedText(s.label, stagesOurs(figure) ? '' : provenanceLine(s), STEP_TEXT_WIDTH - RAIL),
        }));
  const stepsOf = (lane: string, stage: string | undefined) =>
    figure.steps.filter((s) => s.backend === lane && s.stage === stage);
  const sized = new Map(figure.steps.map((s) => [s.id, sizedText(s.label, provenanceLine(s), STEP_TEXT_WIDTH)]));
  const EMPTY_H = 2 * TEXT.pad + TEXT.line;

  // The header: as tall as the tallest lane title. Then each stage's row: as tall as its tallest lane.
  const titles = figure.lanes.map(laneTitle);
  const widestTitle = Math.max(
    ...titles.map((t) =>
      Math.max(textWidth(t[0]!, TEXT.size) * BOLD, ...t.slice(1).map((s) => textWidth(s, TEXT.small))),
    ),
  );
  if (widestTitle > laneW - 2 * TEXT.pad)
    throw new Error(`figure ${figure.id}: a lane title is wider than its lane (${Math.ceil(widestTitle)} px)`);
  const headerH = TEXT.pad + TEXT.line + Math.max(...titles.map((t) => t.length - 1)) * TEXT.smallLine + TEXT.pad;
  const rows = stages.map((st) => {
    const bandH = st.band ? st.band.h + BOX_GAP : 0;
    const stacks = figure.lanes.map((lane) => {
      const steps = stepsOf(lane.id, st.id);
      return steps.length === 0
        ? EMPTY_H
        : steps.reduce((h, s) => h + sized.get(s.id)!.h, 0) + (steps.length - 1) * BOX_GAP;
    });
    return { bandH, h: bandH + Math.max(...stacks) + BOX_GAP };
  });
  const height = headerH + rows.reduce((h, r) => h + r.h, 0);

  const lanes = figure.lanes.map((lane, li): LaneLayout => {
    const slots: LaneLayout['slots'] = [];
    const steps: LaneLayout['steps'] = [];
    let y = headerH;
    stages.forEach((st, si) => {
      const row = rows[si]!;
      const slot: LaneLayout['slots'][number] = { stage: st.id, y, h: row.h };
      if (st.band) slot.band = { x, y, w: boxW, h: st.band.h, lines: st.band.lines, prov: st.band.prov };
      let sy = y + row.bandH;
      const inStage = stepsOf(lane.id, st.id);
      if (inStage.length === 0) slot.empty = { x, y: sy, w: boxW, h: EMPTY_H };
      for (const s of inStage) {
        const t = sized.get(s.id)!;
        steps.push({
          id: s.id,
          reading: s.reading,
          stage: s.stage,
          x,
          y: sy,
          w: boxW,
          h: t.h,
          lines: t.lines,
          prov: t.prov,
        });
        sy += t.h + BOX_GAP;
      }
      slots.push(slot);
      y += row.h;
    });
    return { id: lane.id, title: titles[li]!, slots, steps, edges: laneEdges(figure, lane.id, steps, laneW) };
  });
  return {
    laneWidth: laneW,
    height: Math.ceil(height),
    width: figure.lanes.length * laneW + (figure.lanes.length - 1) * LANE_GAP,
    lanes,
  };
}

const ARROW = 6;
const arrowDown = (x: number, y: number) => `${x - ARROW / 2},${y - ARROW} ${x + ARROW / 2},${y - ARROW} ${x},${y}`;
const arrowSide = (x: number, y: number, fromLeft: boolean) =>
  fromLeft
    ? `${x - ARROW},${y - ARROW / 2} ${x - ARROW},${y + ARROW / 2} ${x},${y}`
    : `${x + ARROW},${y - ARROW / 2} ${x + ARROW},${y + ARROW / 2} ${x},${y}`;

/**
 * A lane's edges. One that goes to the next box down runs straight down its right-hand rail; one
 * that skips a box (or goes back up) leaves from a side, runs down a gutter and comes in from the
 * same side: the left gutter unless an edge already runs there over the same height.
 */
function laneEdges(figure: FigureModel, lane: string, steps: LaneLayout['steps'], laneW: number): LaidEdge[] {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const taken: Record<'left' | 'right', Array<[number, number]>> = { left: [], right: [] };
  const out: LaidEdge[] = [];
  for (const e of figure.edges) {
    const a = byId.get(e.from),
      b = byId.get(e.to);
    if (!a && !b) continue;
    if (!a || !b)
      throw new Error(
        `figure ${figure.id}: the edge ${e.from} -> ${e.to} joins two lanes; an edge joins steps of one lane`,
      );
    const between = steps.some((s) => s !== a && s !== b && s.y >= Math.min(a.y, b.y) && s.y <= Math.max(a.y, b.y));
    if (b.y > a.y && !between) {
      const rx = a.x + a.w - RAIL,
        y1 = a.y + a.h,
        y2 = b.y;
      out.push({
        from: e.from,
        to: e.to,
        path: `M${rx} ${y1}V${y2}`,
        arrow: arrowDown(rx, y2),
        ...(e.label && { label: { x: rx - 5, y: y1 + 13, text: e.label, textAnchor: 'end' as const } }),
      });
      continue;
    }
    // Out at two thirds of the box's height, in at one third: a box's way in and way out never meet.
    const y1 = Math.round(a.y + (a.h * 2) / 3),
      y2 = Math.round(b.y + b.h / 3);
    const span: [number, number] = [Math.min(y1, y2), Math.max(y1, y2)];
    const free = (side: 'left' | 'right') => !taken[side].some(([s, t]) => s < span[1] && span[0] < t);
    const side = free('left') || !free('right') ? 'left' : 'right';
    taken[side].push(span);
    const sx = side === 'left' ? a.x : a.x + a.w,
      gx = side === 'left' ? GUTTER / 2 : laneW - GUTTER / 2;
    out.push({
      from: e.from,
      to: e.to,
      path: `M${sx} ${y1}H${gx}V${y2}H${sx}`,
      arrow: arrowSide(sx, y2, side === 'left'),
      ...(e.label && { label: { x: a.x + 4, y: a.y + a.h + 13, text: e.label, textAnchor: 'start' as const } }),
    });
  }
  return out;
}
