// The table model: one pure function that joins the validated content into the comparison and
// rejects everything the schemas alone cannot see (cross-file rules), naming file/row/column/field.
import { posix } from 'node:path';
import type { ContentData, ExcerptEntry, EvidenceEntry } from './load.ts';
import type { Backend, Source, Site } from './schemas.ts';
import { Problems } from './errors.ts';

export type Provenance = 'measured' | 'to-measure' | 'cited';
export const PROVENANCES: readonly Provenance[] = ['measured', 'to-measure', 'cited'];

export interface ExcerptRef {
  /** Full id, "<source>/<excerpt>". */
  id: string;
  excerpt: ExcerptEntry;
  source: Source;
  /** Site-relative link to the excerpt on its page, e.g. "keps/kep-3866/#data-plane". */
  href: string;
  /** Pinned upstream permalink to the exact lines. */
  upstream: string;
}

export interface CellModel {
  backend: Backend;
  answer: string;
  cites: ExcerptRef[];
  provenance: Provenance;
  /** Measured and to-measure cells: the exercise that measures it. */
  exercise?: number;
  how?: string;
  evidence?: EvidenceEntry;
}

export interface RowModel {
  id: string;
  question: string;
  summary: string;
  cells: CellModel[];
}

export interface TableModel {
  site: Site;
  backends: Backend[];
  rows: RowModel[];
  counts: Record<Provenance, number>;
  excerpts: Map<string, ExcerptRef>;
  sources: Source[];
  evidence: EvidenceEntry[];
}

export function upstreamUrl(source: Source, excerpt: Pick<ExcerptEntry, 'lines' | 'path'>): string {
  const file = excerpt.path ? posix.join(posix.dirname(source.path), excerpt.path) : source.path;
  const [a, b] = excerpt.lines;
  return `https://github.com/${source.repo}/blob/${source.commit}/${file}#L${a}${b !== a ? `-L${b}` : ''}`;
}

export interface Files { sources: string; backends: string; axes: string }

/** Builds the comparison table from validated content; throws ContentError listing every problem. */
export function buildComparison(data: ContentData, files: Files): TableModel {
  const problems = new Problems();

  // Sources and excerpts: unique ids, known sources, quotes only from pinned copies, one anchor per page.
  const sources = new Map<string, Source>();
  for (const s of data.sources) {
    if (sources.has(s.id)) problems.add({ file: files.sources, row: s.id, field: 'id' }, `duplicate source id "${s.id}"`);
    sources.set(s.id, s);
  }
  const excerpts = new Map<string, ExcerptRef>();
  const anchors = new Map<string, string>();
  for (const e of data.excerpts) {
    const source = sources.get(e.source);
    const where = { file: e.file, row: e.id };
    if (!source) {
      problems.add({ file: e.file }, `no source "${e.source}" in ${files.sources} (an excerpt file is named after its source)`);
      continue;
    }
    const id = `${e.source}/${e.id}`;
    if (excerpts.has(id)) problems.add({ ...where, field: 'id' }, `duplicate excerpt id "${id}"`);
    if (e.quote !== undefined && !source.quotable)
      problems.add({ ...where, field: 'quote' }, `source "${source.id}" has no pinned copy to verify quotes against; use note (own words)`);
    const anchorKey = `${source.page}#${e.id}`;
    const other = anchors.get(anchorKey);
    if (other && other !== id) problems.add({ ...where, field: 'id' }, `anchor "#${e.id}" on page ${source.page} is already used by "${other}"`);
    anchors.set(anchorKey, id);
    excerpts.set(id, { id, excerpt: e, source, href: `${source.page}/#${e.id}`, upstream: upstreamUrl(source, e) });
  }

  // Columns.
  const backends = new Map<string, Backend>();
  for (const b of data.backends) {
    if (backends.has(b.id)) problems.add({ file: files.backends, column: b.id, field: 'id' }, `duplicate backend id "${b.id}"`);
    backends.set(b.id, b);
  }

  // Evidence, by id; each must be claimed by exactly the cell it describes.
  const evidence = new Map(data.evidence.map((e) => [e.id, e]));
  const claimed = new Set<string>();

  // Rows.
  const seenAxes = new Set<string>();
  const rows: RowModel[] = [];
  for (const axis of data.axes) {
    if (seenAxes.has(axis.id)) problems.add({ file: files.axes, row: axis.id, field: 'id' }, `duplicate axis id "${axis.id}"`);
    seenAxes.add(axis.id);

    for (const column of Object.keys(axis.cells)) {
      if (!backends.has(column))
        problems.add({ file: files.axes, row: axis.id, column, field: 'cells' },
          `unknown backend "${column}" (backends: ${[...backends.keys()].join(', ')})`);
    }

    const cells: CellModel[] = [];
    for (const backend of backends.values()) {
      const where = { file: files.axes, row: axis.id, column: backend.id };
      const cell = axis.cells[backend.id];
      if (!cell) {
        problems.add({ ...where, field: 'cells' }, `missing cell: every row needs one cell per backend`);
        continue;
      }
      const cites: ExcerptRef[] = [];
      cell.cites.forEach((id, i) => {
        const ref = excerpts.get(id);
        if (ref) cites.push(ref);
        else problems.add({ ...where, field: `cites[${i}]` }, `unknown excerpt id "${id}" (expected "<source>/<excerpt>" from content/excerpts/)`);
      });

      let provenance: Provenance = 'cited';
      let ev: EvidenceEntry | undefined;
      if (cell.measure) {
        provenance = 'to-measure';
        if (!backend.run)
          problems.add({ ...where, field: 'measure' }, `measured cell in column "${backend.id}", which was not run in this phase (backends.yaml: run: false)`);
        const evId = cell.measure.evidence;
        if (evId !== undefined) {
          ev = evidence.get(evId);
          if (!ev) problems.add({ ...where, field: 'measure.evidence' }, `no evidence file "${evId}" in content/evidence/`);
          else {
            claimed.add(ev.id);
            const mismatch: string[] = [];
            if (ev.exercise !== cell.measure.exercise) mismatch.push(`exercise ${ev.exercise} (cell: ${cell.measure.exercise})`);
            if (ev.axis !== axis.id) mismatch.push(`axis "${ev.axis}" (cell: "${axis.id}")`);
            if (ev.backend !== backend.id) mismatch.push(`backend "${ev.backend}" (cell: "${backend.id}")`);
            if (mismatch.length > 0)
              problems.add({ ...where, field: 'measure.evidence' }, `evidence "${ev.id}" (${ev.file}) does not match its cell: ${mismatch.join('; ')}`);
            else if (backend.run) provenance = 'measured';
          }
        }
      }
      cells.push({
        backend, answer: cell.answer, cites, provenance, evidence: provenance === 'measured' ? ev : undefined,
        exercise: cell.measure?.exercise, how: cell.measure?.how,
      });
    }
    rows.push({ id: axis.id, question: axis.question, summary: axis.summary, cells });
  }

  for (const ev of data.evidence) {
    if (!claimed.has(ev.id))
      problems.add({ file: ev.file, row: ev.axis, column: ev.backend, field: 'axis' },
        `evidence "${ev.id}" is not referenced by its cell (add measure.evidence: ${ev.id} to that cell in ${files.axes})`);
  }

  problems.throwIfAny();

  const counts: Record<Provenance, number> = { measured: 0, 'to-measure': 0, cited: 0 };
  for (const row of rows) for (const cell of row.cells) counts[cell.provenance] += 1;

  return { site: data.site, backends: [...backends.values()], rows, counts, excerpts, sources: [...sources.values()], evidence: data.evidence };
}

/** The short reference a badge names: "ex. 18" for measurements, the first cited source otherwise. */
export function badgeReference(cell: CellModel): string {
  if (cell.provenance !== 'cited') return `ex. ${cell.exercise}`;
  const labels = [...new Set(cell.cites.map((c) => c.source.label))];
  return labels.join(', ');
}

export const PROVENANCE_LABEL: Record<Provenance, string> = {
  measured: 'Measured',
  'to-measure': 'To measure',
  cited: 'Cited',
};

/** Each kind's icon, so badges differ in shape as well as in words (never colour alone). */
export const PROVENANCE_ICON: Record<Provenance, string> = { measured: '✓', 'to-measure': '◌', cited: '§' };
