// What a `:cite[...]` id points at. citeTargets(data): every citable id of validated content (pure;
// the checks use it too, so the ids the build accepts are exactly the ids the renderer can link; the
// Markdown pipeline gets them from the content reader, reader.ts citeIndex).
// Ids: "<source>/<excerpt>" (an excerpt), "row/<row>" (a row of the table), "evidence/<id>".
import type { SourceEntry, ExcerptEntry, AxisEntry, EvidenceEntry } from './entries.ts';
import { routes } from './routes.ts';
import { citeText } from './cite-text.ts';

export interface CiteTarget {
  id: string;
  kind: 'excerpt' | 'row' | 'evidence';
  /** Site path from the root ("/keps/kep-265/#x"); rehype-base-links adds the deploy base. */
  href: string;
  /** The source's label ("KEP-265"), "table" or "evidence". */
  label: string;
  /** What the link shows: the source and its lines ("KEP-265 L98–102"), the row ("drain row"), "evidence". */
  text: string;
  /** The rest of its accessible name, shown in print only: the file (", pkg/proxy/topology.go"), ": <question>". */
  detail: string;
  /** Read before the label, with its punctuation: "Source: " (or nothing). */
  prefix: string;
}

/** Looks an id up; undefined when it names nothing (the checks report it, located). */
export type CiteResolver = (id: string) => CiteTarget | undefined;

export const linesText = ([a, b]: readonly [number, number]): string => (a === b ? `line ${a}` : `lines ${a}–${b}`);

/** What the targets are made of: validated entries, their Markdown not rendered yet. */
interface Citable {
  sources: ReadonlyArray<Pick<SourceEntry, 'id' | 'label' | 'page'>>;
  excerpts: ReadonlyArray<Pick<ExcerptEntry, 'id' | 'source' | 'lines' | 'path'>>;
  axes: ReadonlyArray<Pick<AxisEntry, 'id' | 'question'>>;
  evidence: ReadonlyArray<Pick<EvidenceEntry, 'id' | 'captured'>>;
}

export function citeTargets(data: Citable): Map<string, CiteTarget> {
  const targets = new Map<string, CiteTarget>();
  const sources = new Map(data.sources.map((s) => [s.id, s]));
  for (const e of data.excerpts) {
    const source = sources.get(e.source);
    if (!source) continue;
    const id = `${e.source}/${e.id}`;
    targets.set(id, {
      id,
      kind: 'excerpt',
      href: `/${routes.excerpt(source.page, e.id)}`,
      label: source.label,
      text: citeText(source.label, e.lines),
      detail: e.path ? `, ${e.path}` : '',
      prefix: 'Source: ',
    });
  }
  for (const axis of data.axes)
    targets.set(`row/${axis.id}`, {
      id: `row/${axis.id}`,
      kind: 'row',
      href: `/${routes.rowAnchor(axis.id)}`,
      label: 'table',
      text: `${axis.id.replace(/-/g, ' ')} row`,
      detail: `: ${axis.question}`,
      prefix: '',
    });
  for (const ev of data.evidence)
    targets.set(`evidence/${ev.id}`, {
      id: `evidence/${ev.id}`,
      kind: 'evidence',
      href: `/${routes.evidence(ev.id)}`,
      label: 'evidence',
      text: 'evidence',
      detail: ` ${ev.id}, captured ${ev.captured}`,
      prefix: '',
    });
  return targets;
}
