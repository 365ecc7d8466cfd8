// The table (backends.yaml, axes.yaml) and the evidence its measured cells point at: ids and
// former ids, one cell per axis and backend, cells' citations, measures matching their capture.
import { PATHS } from '../collections.ts';
import type { Origin } from '../entries.ts';
import type { Problems } from '../../problems.ts';
import { excerptId } from '../../claims/syntax.ts';
import { at, duplicates, listOf, type Check, type Checks } from './shared.ts';

const uniqueBackendIds: Check = (data, problems) => duplicates(data.backends, 'backend', problems);
const uniqueAxisIds: Check = (data, problems) => duplicates(data.axes, 'axis', problems);

// Renames: an axis or a backend may list the ids it was published under (`formerly`). Each old id
// keeps its links alive (a redirect page, a fragment on the page), so it must point at one entry only.
type Renamable = Origin & { id: string; formerly?: string[] };

function formerIdsAreFree<T extends Renamable>(list: T[], kind: 'axis' | 'backend', problems: Problems) {
  const current = new Map(list.map((e) => [e.id, e]));
  for (const e of list)
    (e.formerly ?? []).forEach((old, i) => {
      const owner = current.get(old);
      if (owner)
        problems.add(
          { ...at(e, 'formerly', i), item: { kind, id: e.id }, field: `formerly[${i}]` },
          `old id "${old}" is the id of ${owner === e ? 'this same' : 'the current'} ${kind}${owner === e ? '' : ` at index ${owner.index}`}: ` +
            `a link to "${old}" cannot lead to both; remove it from formerly (or rename that ${kind} instead)`,
        );
    });
}

function formerIdsClaimedOnce<T extends Renamable>(list: T[], kind: 'axis' | 'backend', problems: Problems) {
  const claimed = new Map<string, T>();
  for (const e of list)
    (e.formerly ?? []).forEach((old, i) => {
      const first = claimed.get(old);
      if (first)
        problems.add(
          { ...at(e, 'formerly', i), item: { kind, id: e.id }, field: `formerly[${i}]` },
          `old id "${old}" is already claimed by ${first === e ? 'this' : `${kind} "${first.id}" (index ${first.index})`}: ` +
            `an old link can only lead to one ${kind}; keep it on the ${kind} that really had that id`,
        );
      else claimed.set(old, e);
    });
}

const formerAxisIdsAreFree: Check = (data, problems) => formerIdsAreFree(data.axes, 'axis', problems);
const formerAxisIdsClaimedOnce: Check = (data, problems) => formerIdsClaimedOnce(data.axes, 'axis', problems);
const formerBackendIdsAreFree: Check = (data, problems) => formerIdsAreFree(data.backends, 'backend', problems);
const formerBackendIdsClaimedOnce: Check = (data, problems) => formerIdsClaimedOnce(data.backends, 'backend', problems);
const cellsNameKnownBackends: Check = (data, problems) => {
  const backends = new Set(data.backends.map((b) => b.id));
  for (const axis of data.axes)
    for (const backend of Object.keys(axis.cells))
      if (!backends.has(backend))
        problems.add(
          { ...at(axis, 'cells', backend), item: { kind: 'axis' as const, id: axis.id }, backend, field: 'cells' },
          `unknown backend "${backend}" (backends: ${listOf(backends)}); fix the key or add the backend to ${PATHS.backends}`,
        );
};

const everyAxisHasEveryCell: Check = (data, problems) => {
  for (const axis of data.axes)
    for (const b of data.backends)
      if (!axis.cells[b.id])
        problems.add(
          { ...at(axis, 'cells'), item: { kind: 'axis' as const, id: axis.id }, backend: b.id, field: 'cells' },
          `missing cell: every axis needs one cell per backend; add "${b.id}:" with answer and cites`,
        );
};

const citesResolve: Check = (data, problems) => {
  const ids = new Set(data.excerpts.map(excerptId));
  for (const axis of data.axes)
    for (const [backend, cell] of Object.entries(axis.cells))
      cell.cites.forEach((id, i) => {
        if (!ids.has(id))
          problems.add(
            {
              ...at(axis, 'cells', backend, 'cites', i),
              item: { kind: 'axis' as const, id: axis.id },
              backend,
              field: `cites[${i}]`,
            },
            `unknown excerpt id "${id}": cite "<source>/<excerpt>" with an id from content/excerpts/<source>.yaml`,
          );
      });
};

const measuredOnlyInRunColumns: Check = (data, problems) => {
  const backends = new Map(data.backends.map((b) => [b.id, b]));
  for (const axis of data.axes)
    for (const [backend, cell] of Object.entries(axis.cells))
      if (cell.measure && backends.get(backend)?.run === false)
        problems.add(
          {
            ...at(axis, 'cells', backend, 'measure'),
            item: { kind: 'axis' as const, id: axis.id },
            backend,
            field: 'measure',
          },
          `measured cell of backend "${backend}", which was not run in this study (backends.yaml: run: false); remove measure and cite sources instead`,
        );
};

const evidenceMatchesItsCell: Check = (data, problems) => {
  const evidence = new Map(data.evidence.map((e) => [e.id, e]));
  for (const axis of data.axes)
    for (const [backend, cell] of Object.entries(axis.cells)) {
      const id = cell.measure?.evidence;
      if (id === undefined) continue;
      const where = {
        ...at(axis, 'cells', backend, 'measure', 'evidence'),
        item: { kind: 'axis' as const, id: axis.id },
        backend,
        field: 'measure.evidence',
      };
      const ev = evidence.get(id);
      if (!ev) {
        problems.add(
          where,
          `no evidence file "${id}" in content/evidence/; capture it (docs/evidence.md) or remove the line`,
        );
        continue;
      }
      const mismatch: string[] = [];
      if (ev.exercise !== cell.measure!.exercise)
        mismatch.push(`exercise ${ev.exercise} (cell: ${cell.measure!.exercise})`);
      if (ev.axis !== axis.id) mismatch.push(`axis "${ev.axis}" (cell: "${axis.id}")`);
      if (ev.backend !== backend) mismatch.push(`backend "${ev.backend}" (cell: "${backend}")`);
      if (mismatch.length > 0)
        problems.add(where, `evidence "${ev.id}" (${ev.file}) does not match its cell: ${mismatch.join('; ')}`);
    }
};

const evidenceIsClaimed: Check = (data, problems) => {
  const claimed = new Set(data.axes.flatMap((a) => Object.values(a.cells).map((c) => c.measure?.evidence)));
  // A drain run's evidence (kind: drain) backs no measure: the exercise asked for the drain row to be
  // cited, so its cell cites the run in its answer (:cite[evidence/<id>]) beside its excerpts.
  const citedBy = (ev: (typeof data.evidence)[number]) =>
    data.axes.find((a) => a.id === ev.axis)?.cells[ev.backend]?.answer.includes(`evidence/${ev.id}`) ?? false;
  for (const ev of data.evidence) {
    const problem =
      ev.kind === 'drain'
        ? citedBy(ev)
          ? undefined
          : `drain evidence "${ev.id}" is not cited by its cell: cite it in the answer of axis "${ev.axis}", backend "${ev.backend}" (:cite[evidence/${ev.id}])`
        : claimed.has(ev.id)
          ? undefined
          : `evidence "${ev.id}" is not referenced by its cell: add "evidence: ${ev.id}" under that cell's measure in ${PATHS.axes}`;
    if (problem)
      problems.add(
        {
          file: ev.file,
          at: ['axis'],
          item: { kind: 'axis' as const, id: ev.axis },
          backend: ev.backend,
          field: 'axis',
        },
        problem,
      );
  }
};

export const checks = {
  uniqueBackendIds,
  formerBackendIdsAreFree,
  formerBackendIdsClaimedOnce,
  uniqueAxisIds,
  formerAxisIdsAreFree,
  formerAxisIdsClaimedOnce,
  cellsNameKnownBackends,
  everyAxisHasEveryCell,
  citesResolve,
  measuredOnlyInRunColumns,
  evidenceMatchesItsCell,
  evidenceIsClaimed,
} satisfies Checks;
