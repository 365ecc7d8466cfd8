// Lays a figure out with Graphviz (dot, compiled to WebAssembly by @viz-js/viz): lanes are
// clusters, a timeline's stages are ranks shared by every lane (newrank), edges are splines routed
// around the boxes. We size every box from its wrapped text (text.ts) and Graphviz places them; what
// comes back is positions only, drawn by svg.ts. Runs at build time only; Graphviz's answers are kept
// (graphviz.ts), so a clean checkout of the site does not run it.
import { runGraphviz, type Graphviz } from './graphviz.ts';
import type { FigureModel } from './model.ts';
import { wrap, lineWidth, textWidth, type Line } from './text.ts';

export const TEXT = { size: 13, line: 17, small: 11, smallLine: 14, pad: 8 } as const;
/** Widest a step's text may run: about 30 characters, so three lanes fit 800 px side by side. */
const STEP_TEXT_WIDTH = { down: 190, right: 210 } as const;
/** Lane titles are bold: DejaVu Sans Bold runs up to about 15 % wider than the regular weight. */
const BOLD = 1.15;

export interface Box { x: number; y: number; w: number; h: number }
export interface TextBox extends Box { lines: Line[]; prov: string[] }
export interface LaidEdge { from: string; to: string; path: string; arrow: string; label?: { x: number; y: number; text: string } }
export interface Layout {
  width: number;
  height: number;
  lanes: Array<Box & { id: string; title: string[]; header: Box }>;
  stages: Array<TextBox & { id: string }>;
  steps: Array<TextBox & { id: string; reading: boolean }>;
  edges: LaidEdge[];
}

/** What a step's provenance line says in the drawing: the sources it cites, or that it is our reading. */
export function provenanceLine(item: { cites: { source: { label: string } }[]; reading: boolean }): string {
  return item.reading ? '◇ our reading' : `§ ${[...new Set(item.cites.map((c) => c.source.label))].join(', ')}`;
}

const q = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`;
const inches = (px: number) => (px / 72).toFixed(3);

function textBox(label: string, prov: string, maxWidth: number): { lines: Line[]; prov: string[]; w: number; h: number } {
  const lines = wrap(label, maxWidth, TEXT.size);
  const provLines = wrap(prov, maxWidth, TEXT.small).map((l) => l.map((r) => r.text).join(''));
  const w = Math.max(...lines.map((l) => lineWidth(l, TEXT.size)), ...provLines.map((p) => textWidth(p, TEXT.small)));
  return { lines, prov: provLines, w: Math.ceil(w) + 2 * TEXT.pad, h: lines.length * TEXT.line + provLines.length * TEXT.smallLine + 2 * TEXT.pad };
}

/** The lane's title: its backend's name, and "read, not run" on a second line for a column that was not run. */
export const laneTitle = (lane: FigureModel['lanes'][number]): string[] => (lane.run ? [lane.name] : [lane.name, 'read, not run']);

export async function layoutFigure(figure: FigureModel, graphviz: Graphviz = runGraphviz): Promise<Layout> {
  const maxWidth = STEP_TEXT_WIDTH[figure.flow];
  const sized = new Map<string, ReturnType<typeof textBox>>();
  for (const item of [...figure.stages, ...figure.steps]) sized.set(item.id, textBox(item.label, provenanceLine(item), maxWidth));
  const header = new Map(figure.lanes.map((lane) => {
    const title = laneTitle(lane);
    const w = Math.ceil(Math.max(textWidth(title[0]!, TEXT.size) * BOLD, ...title.slice(1).map((t) => textWidth(t, TEXT.small)))) + 2 * TEXT.pad;
    return [lane.id, { title, w, h: TEXT.line + (title.length - 1) * TEXT.smallLine + TEXT.pad }];
  }));

  const node = (id: string, w: number, h: number) => `${q(id)} [width=${inches(w)}, height=${inches(h)}]`;
  const dot: string[] = [
    'digraph figure {',
    `graph [rankdir=${figure.flow === 'down' ? 'TB' : 'LR'}, newrank=true, nodesep=0.2, ranksep=0.3, splines=true, margin=0, fontname="Helvetica", fontsize=${TEXT.small}];`,
    'node [shape=box, fixedsize=true, label=""];',
    `edge [arrowsize=0.7, fontname="Helvetica", fontsize=${TEXT.small}];`,
  ];
  const heads: string[] = [];
  if (figure.stages.length > 0) {
    // The stages' titles: a band of their own before the lanes, one per rank.
    dot.push('subgraph cluster_stages { peripheries=0; margin=8;', node('corner', 1, 1));
    for (const s of figure.stages) dot.push(node(`stage:${s.id}`, sized.get(s.id)!.w, sized.get(s.id)!.h));
    dot.push('}');
    heads.push('corner');
    [ 'corner', ...figure.stages.map((s) => `stage:${s.id}`)].reduce((a, b) => (dot.push(`${q(a)} -> ${q(b)} [style=invis];`), b));
  }
  for (const lane of figure.lanes) {
    const h = header.get(lane.id)!;
    dot.push(`subgraph ${q(`cluster_lane:${lane.id}`)} { margin=8;`, node(`lane:${lane.id}`, h.w, h.h));
    for (const step of figure.steps.filter((s) => s.lane === lane.id)) dot.push(node(step.id, sized.get(step.id)!.w, sized.get(step.id)!.h));
    dot.push('}');
    heads.push(`lane:${lane.id}`);
    // The title first: an invisible edge to each step nothing else leads to.
    const targets = new Set(figure.edges.map((e) => e.to));
    for (const step of figure.steps.filter((s) => s.lane === lane.id && !targets.has(s.id))) dot.push(`${q(`lane:${lane.id}`)} -> ${q(step.id)} [style=invis];`);
  }
  // Titles share the first rank, in content order (flat invisible edges keep that order).
  dot.push(`{ rank=same; ${heads.map(q).join('; ')}; }`);
  heads.reduce((a, b) => (dot.push(`${q(a)} -> ${q(b)} [style=invis];`), b));
  for (const s of figure.stages)
    dot.push(`{ rank=same; ${[`stage:${s.id}`, ...figure.steps.filter((x) => x.stage === s.id).map((x) => x.id)].map(q).join('; ')}; }`);
  for (const e of figure.edges) dot.push(`${q(e.from)} -> ${q(e.to)}${e.label ? ` [label=${q(e.label)}]` : ''};`);
  dot.push('}');

  const json = (await graphviz(dot.join('\n'), figure.id)) as GvGraph;
  return fromGraphviz(json, figure, sized, header);
}

// ---- Graphviz's JSON output (the parts used) -------------------------------------------------
interface GvDraw { op: string; points?: [number, number][]; pt?: [number, number]; text?: string }
interface GvObject { name: string; bb?: string; pos?: string; width?: string; height?: string }
interface GvEdge { tail: number; head: number; style?: string; _draw_?: GvDraw[]; _hdraw_?: GvDraw[]; _ldraw_?: GvDraw[]; label?: string; lp?: string }
interface GvGraph { bb: string; objects: GvObject[]; edges?: GvEdge[] }

const r1 = (n: number) => Math.round(n * 10) / 10;

function fromGraphviz(g: GvGraph, figure: FigureModel, sized: Map<string, ReturnType<typeof textBox>>, header: Map<string, { title: string[]; w: number; h: number }>): Layout {
  const [, , W, H] = g.bb.split(',').map(Number) as [number, number, number, number];
  const P = 2; // room for the outermost strokes
  // Graphviz's y axis points up. Turned left to right (rankdir=LR), dot lists each rank bottom to
  // top, so there the y axis is kept as it is: content order then reads top to bottom.
  const down = figure.flow === 'down';
  const flip = (x: number, y: number): [number, number] => [r1(x + P), r1((down ? H - y : y) + P)];
  const boxOf = (o: GvObject): Box => {
    const [x, y] = o.pos!.split(',').map(Number) as [number, number];
    const w = Number(o.width) * 72, h = Number(o.height) * 72;
    const [cx, cy] = flip(x, y);
    return { x: r1(cx - w / 2), y: r1(cy - h / 2), w: r1(w), h: r1(h) };
  };
  const byName = new Map(g.objects.map((o) => [o.name, o]));
  const lanes = figure.lanes.map((lane) => {
    const [x1, y1, x2, y2] = byName.get(`cluster_lane:${lane.id}`)!.bb!.split(',').map(Number) as [number, number, number, number];
    const [x, y] = flip(x1, down ? y2 : y1);
    return { id: lane.id, title: header.get(lane.id)!.title, x, y, w: r1(x2 - x1), h: r1(y2 - y1), header: boxOf(byName.get(`lane:${lane.id}`)!) };
  });
  const stages = figure.stages.map((s) => ({ id: s.id, ...boxOf(byName.get(`stage:${s.id}`)!), lines: sized.get(s.id)!.lines, prov: sized.get(s.id)!.prov }));
  const steps = figure.steps.map((s) => ({ id: s.id, reading: s.reading, ...boxOf(byName.get(s.id)!), lines: sized.get(s.id)!.lines, prov: sized.get(s.id)!.prov }));
  const edges: LaidEdge[] = [];
  for (const e of g.edges ?? []) {
    if (e.style === 'invis') continue;
    const from = g.objects[e.tail]!.name, to = g.objects[e.head]!.name;
    const spline = e._draw_?.find((d) => d.op === 'b' || d.op === 'B')?.points ?? [];
    const pts = spline.map(([x, y]) => flip(x, y));
    const path = pts.length ? `M${pts[0]!.join(' ')}C${pts.slice(1).map((p) => p.join(' ')).join(' ')}` : '';
    const head = e._hdraw_?.find((d) => d.op === 'P' || d.op === 'p')?.points ?? [];
    const arrow = head.map(([x, y]) => flip(x, y).join(',')).join(' ');
    const lp = e.lp?.split(',').map(Number) as [number, number] | undefined;
    const [lx, ly] = lp ? flip(lp[0], lp[1]) : [0, 0];
    edges.push({ from, to, path, arrow, ...(e.label && lp && { label: { x: lx, y: ly, text: e.label } }) });
  }
  return { width: Math.ceil(W + 2 * P), height: Math.ceil(H + 2 * P), lanes, stages, steps, edges };
}
