// What a `:cite[...]` id points at. citeTargets(data): every citable id of validated content (pure;
// the checks use it too, so the ids the build accepts are exactly the ids the renderer can link; the
// table model carries them, model.ts, and components/Cite.astro renders each where a page renders).
// Ids: "<source>/<excerpt>" (an excerpt), "row/<axis>" (an axis of the table), "evidence/<id>".
import type { SourceEntry, ExcerptEntry, AxisEntry, EvidenceEntry, GrowthEntry } from './entries.ts';
import { routes } from '../routes.ts';
import { citeText } from '../claims/cite-text.ts';
import { excerptId, axisCiteId, evidenceCiteId, type CiteTarget } from '../claims/syntax.ts';

/** What the targets are made of: validated entries, their Markdown not rendered yet. */
interface Citable {
  sources: ReadonlyArray<Pick<SourceEntry, 'id' | 'label' | 'page'>>;
  excerpts: ReadonlyArray<Pick<ExcerptEntry, 'id' | 'source' | 'lines' | 'path'>>;
  axes: ReadonlyArray<Pick<AxisEntry, 'id' | 'question'>>;
  evidence: ReadonlyArray<Pick<EvidenceEntry, 'id' | 'captured' | 'backend'>>;
  /** Growth sweeps (content/growth/), cited as evidence/<id> like a capture. */
  growth?: ReadonlyArray<Pick<GrowthEntry, 'id' | 'captured'>>;
}

export function citeTargets(data: Citable): Map<string, CiteTarget> {
  const targets = new Map<string, CiteTarget>();
  const sources = new Map(data.sources.map((s) => [s.id, s]));
  for (const e of data.excerpts) {
    const source = sources.get(e.source);
    if (!source) continue;
    const id = excerptId(e);
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
    targets.set(axisCiteId(axis.id), {
      id: axisCiteId(axis.id),
      kind: 'axis',
      href: `/${routes.axisFragment(axis.id)}`,
      label: 'table',
      text: `${axis.id.replace(/-/g, ' ')} axis`,
      detail: `: ${axis.question}`,
      prefix: '',
    });
  // Captures (evidence/) and growth sweeps (growth/) alike: each has its evidence page. Its date is
  // said once: an id that carries it (drain-iptables-2026-12-02) is not followed by it again (a
  // fresh reader counted twelve "…-2026-12-02, captured 2026-12-02" on paper).
  // A capture's link names its backend ("iptables evidence"): two links side by side both reading
  // "evidence" told a reader nothing until they were followed.
  const evidence = [
    ...data.evidence.map((e) => ({
      id: e.id,
      text: `${e.backend} evidence`,
      when: e.id.includes(e.captured) ? '' : `, captured ${e.captured}`,
    })),
    ...(data.growth ?? []).map((g) => ({
      id: g.id,
      text: 'evidence',
      when: g.id.includes(g.captured) ? ', a sweep' : `, a sweep run ${g.captured}`,
    })),
  ];
  for (const ev of evidence)
    targets.set(evidenceCiteId(ev.id), {
      id: evidenceCiteId(ev.id),
      kind: 'evidence',
      href: `/${routes.evidence(ev.id)}`,
      label: 'evidence',
      text: ev.text,
      detail: ` ${ev.id}${ev.when}`,
      prefix: '',
    });
  return targets;
}
