// A figure, joined with the rest of the content: each lane shows a backend (its name and whether it
// was run), each step's cites are the same citation targets a table cell carries.
// Pure (no Astro): the site, the bench and the unit tests build figures with it.
import type { BackendEntry, FigureEntry } from '../content/entries.ts';
import type { ExcerptTarget } from '../content/model.ts';

export interface FigureLane {
  id: string;
  name: string;
  run: boolean;
}

export interface FigureItem {
  id: string;
  /** The label as written (text and `code`), and rendered for the text equivalent. */
  label: string;
  labelHtml: string;
  cites: ExcerptTarget[];
  /** Our own inference, not something a source says. */
  reading: boolean;
}
export type FigureStage = FigureItem;
/** A step as placed in the drawing: in its backend's lane, in order (the content's step is FigureStep). */
export interface PlacedStep extends FigureItem {
  /** The backend whose lane holds it. */
  backend: string;
  stage?: string;
}
export interface FigureEdge {
  from: string;
  to: string;
  label?: string;
}

export interface FigureModel {
  id: string;
  title: string;
  captionHtml: string;
  /** Axis ids whose pages show the figure. */
  axes: string[];
  stages: FigureStage[];
  lanes: FigureLane[];
  /** In the figure's order: lane by lane, as the content lists them, then (with stages) stage by stage. */
  steps: PlacedStep[];
  edges: FigureEdge[];
}

/** The accessible name of the drawing: the steps follow it as text. */
export const drawingName = (f: Pick<FigureModel, 'title'>): string =>
  `Diagram: ${f.title}. The same steps follow as text.`;

/** The join, on content the checks accepted (every lane, stage, step and cite exists). */
export function assembleFigure(
  f: FigureEntry,
  backends: BackendEntry[],
  excerpts: Map<string, ExcerptTarget>,
): FigureModel {
  const byId = new Map(backends.map((b) => [b.id, b]));
  const item = (x: { id: string; label: string; cites?: string[]; reading?: true }): FigureItem => ({
    id: x.id,
    label: x.label,
    labelHtml: f.html.labels[x.id] ?? x.label,
    cites: (x.cites ?? []).map((id) => excerpts.get(id)!),
    reading: x.reading === true,
  });
  const lanes = f.lanes.map((l): FigureLane => ({
    id: l.backend,
    name: byId.get(l.backend)!.name,
    run: byId.get(l.backend)!.run,
  }));
  const stageOrder = new Map((f.stages ?? []).map((s, i) => [s.id, i]));
  const laneOrder = new Map(lanes.map((l, i) => [l.id, i]));
  const steps = f.steps
    .map((s, i) => ({ s, i }))
    .sort(
      (a, b) =>
        laneOrder.get(a.s.backend)! - laneOrder.get(b.s.backend)! ||
        (stageOrder.get(a.s.stage ?? '') ?? 0) - (stageOrder.get(b.s.stage ?? '') ?? 0) ||
        a.i - b.i,
    )
    .map(({ s }): PlacedStep => ({ ...item(s), backend: s.backend, ...(s.stage !== undefined && { stage: s.stage }) }));
  return {
    id: f.id,
    title: f.title,
    captionHtml: f.html.caption,
    axes: f.axes,
    stages: (f.stages ?? []).map(item),
    lanes,
    steps,
    edges: f.edges,
  };
}
