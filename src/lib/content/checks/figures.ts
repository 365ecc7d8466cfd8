// Figures (content/figures/<id>.yaml): every name a figure uses must exist, in the figure or in
// the rest of the content. A figure's problems name its step (or stage, or edge), the step's
// backend and the field's full path. Keys renamed (schemas.ts FIGURE_RENAMES) are still read, each
// with a located deprecation (printed; it does not fail the build).
import { PATHS } from '../collections.ts';
import { fieldName, type YamlPath } from '../../problems.ts';
import type { FigureEntry } from '../entries.ts';
import { excerptId } from '../../claims/syntax.ts';
import { inFigure, listOf, type Check, type Checks } from './shared.ts';

const figureLanesNameKnownBackends: Check = (data, problems) => {
  const backends = new Set(data.backends.map((b) => b.id));
  for (const f of data.figures) {
    const seen = new Set<string>();
    f.lanes.forEach((lane, i) => {
      const where = { ...inFigure(f, 'lanes', i, 'backend'), backend: lane.backend, field: `lanes[${i}].backend` };
      if (!backends.has(lane.backend))
        problems.add(
          where,
          `unknown backend "${lane.backend}" (backends: ${listOf(backends)}): a lane shows one backend of ${PATHS.backends}`,
        );
      else if (seen.has(lane.backend))
        problems.add(where, `backend "${lane.backend}" has a lane already: one lane per backend`);
      seen.add(lane.backend);
    });
  }
};

/** The key a figure wrote a renamed field under at `path`: the old one when it used that. */
const writtenKey = (f: FigureEntry, path: YamlPath, now: string): string =>
  f.renamed.find((r) => r.now === now && r.path.length === path.length + 1 && path.every((k, i) => r.path[i] === k))
    ?.old ?? now;

const figureAxesExist: Check = (data, problems) => {
  const axes = new Set(data.axes.map((a) => a.id));
  for (const f of data.figures) {
    const key = writtenKey(f, [], 'axes');
    f.axes.forEach((axis, i) => {
      if (!axes.has(axis))
        problems.add(
          { ...inFigure(f, key, i), field: `${key}[${i}]` },
          `unknown axis "${axis}" (axes: ${listOf(axes)}): name an axis id of ${PATHS.axes}`,
        );
    });
  }
};

/** Old keys still read (FIGURE_RENAMES): each one where it is written, with its new name. */
const figureOldKeysAreDeprecated: Check = (data, problems) => {
  for (const f of data.figures)
    for (const { path, old, now } of f.renamed) {
      const step = path[0] === 'steps' ? f.steps[path[1] as number] : undefined;
      problems.deprecated(
        { ...inFigure(f, ...path), ...(step && { item: { kind: 'step', id: step.id } }), field: fieldName(path) },
        `\`${old}\` is now \`${now}\` (deprecated, still read): rename the key`,
      );
    }
};

const figureStepsAreUnique: Check = (data, problems) => {
  for (const f of data.figures) {
    const seen = new Map<string, string>();
    const claim = (id: string, what: string, path: YamlPath, field: string) => {
      const first = seen.get(id);
      if (first)
        problems.add(
          { ...inFigure(f, ...path), item: { kind: path[0] === 'steps' ? 'step' : 'stage', id }, field },
          `id "${id}" is already the id of ${first} in this figure: ids must be unique; rename one`,
        );
      else seen.set(id, `${what} ${path[1] as number}`);
    };
    (f.stages ?? []).forEach((s, i) => claim(s.id, 'stage', ['stages', i, 'id'], `stages[${i}].id`));
    f.steps.forEach((s, i) => claim(s.id, 'step', ['steps', i, 'id'], `steps[${i}].id`));
  }
};

const figureStepsNameTheirBackendAndStage: Check = (data, problems) => {
  for (const f of data.figures) {
    const lanes = new Set(f.lanes.map((l) => l.backend));
    const stages = new Set((f.stages ?? []).map((s) => s.id));
    f.steps.forEach((step, i) => {
      const where = (key: string) => ({
        ...inFigure(f, 'steps', i, key),
        item: { kind: 'step', id: step.id } as const,
        backend: step.backend,
        field: `steps[${i}].${key}`,
      });
      const backendKey = writtenKey(f, ['steps', i], 'backend');
      if (!lanes.has(step.backend))
        problems.add(
          where(backendKey),
          `no lane for backend "${step.backend}" in this figure (lanes: ${listOf(lanes)}); add it under lanes: or fix the step's backend`,
        );
      if (f.stages && step.stage === undefined)
        problems.add(
          where('id'),
          `this figure has stages: say which one the step belongs to (stage: one of ${listOf(stages)})`,
        );
      if (step.stage !== undefined && !stages.has(step.stage))
        problems.add(where('stage'), `no stage "${step.stage}" in this figure (stages: ${listOf(stages)})`);
    });
  }
};

const figureEdgesJoinSteps: Check = (data, problems) => {
  for (const f of data.figures) {
    const steps = new Set(f.steps.map((s) => s.id));
    const lanes = new Map(f.steps.map((s) => [s.id, s.backend]));
    f.edges.forEach((edge, i) => {
      for (const end of ['from', 'to'] as const)
        if (!steps.has(edge[end]))
          problems.add(
            {
              ...inFigure(f, 'edges', i, end),
              item: { kind: 'edge', id: `${edge.from} -> ${edge.to}` },
              field: `edges[${i}].${end}`,
            },
            `no step "${edge[end]}" in this figure: an edge joins two step ids of this file`,
          );
      const from = lanes.get(edge.from),
        to = lanes.get(edge.to);
      if (from !== undefined && to !== undefined && from !== to)
        problems.add(
          {
            ...inFigure(f, 'edges', i, 'to'),
            item: { kind: 'edge', id: `${edge.from} -> ${edge.to}` },
            backend: from,
            field: `edges[${i}].to`,
          },
          `the edge goes from backend "${from}" to backend "${to}": an edge joins two steps of one lane (the lanes are drawn apart)`,
        );
    });
  }
};

const figureCitesResolve: Check = (data, problems) => {
  const ids = new Set(data.excerpts.map(excerptId));
  for (const f of data.figures) {
    const items: Array<{ list: 'stages' | 'steps'; i: number; id: string; backend?: string; cites?: string[] }> = [
      ...(f.stages ?? []).map((s, i) => ({ list: 'stages' as const, i, ...s })),
      ...f.steps.map((s, i) => ({ list: 'steps' as const, i, ...s })),
    ];
    for (const { list, i, id: item, backend, cites } of items)
      (cites ?? []).forEach((id, j) => {
        if (!ids.has(id))
          problems.add(
            {
              ...inFigure(f, list, i, 'cites', j),
              item: { kind: list === 'steps' ? 'step' : 'stage', id: item },
              backend,
              field: `${list}[${i}].cites[${j}]`,
            },
            `unknown excerpt id "${id}": cite "<source>/<excerpt>" with an id from content/excerpts/<source>.yaml`,
          );
      });
  }
};

export const checks = {
  figureLanesNameKnownBackends,
  figureAxesExist,
  figureOldKeysAreDeprecated,
  figureStepsAreUnique,
  figureStepsNameTheirBackendAndStage,
  figureEdgesJoinSteps,
  figureCitesResolve,
} satisfies Checks;
