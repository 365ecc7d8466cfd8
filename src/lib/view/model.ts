// What components, layouts and pages see of the content: the table's view model, as the content
// layer builds it (content/model.ts, through content/index.ts getTable), and how it is shown:
// provenance words and icons, the ids a cell answers to. Components import this, never
// src/lib/content/ (.dependency-cruiser.cjs), so the content layer can change under them.
import type { BackendEntry } from '../content/entries.ts';
import type { Provenance, AxisModel } from '../content/model.ts';
import { routes } from '../routes.ts';

export {
  PROVENANCES,
  type CellFields,
  type Provenance,
  type TableModel,
  type AxisModel,
  type CellModel,
  type ExcerptTarget,
} from '../content/model.ts';
export type { BackendEntry, EvidenceEntry, GrowthEntry, SourceEntry } from '../content/entries.ts';
export type { CiteTarget } from '../claims/syntax.ts';
export { SEARCH_SECTION, TABLE_SECTION, type PageModel, type NavItem } from '../content/pages.ts';

/**
 * Every element id a cell answers to besides its own: each pairing of the axis's and the backend's
 * current and former ids, so a cell link shared before a rename still lands on the cell.
 */
export function formerCellIds(
  axis: Pick<AxisModel, 'id' | 'formerly'>,
  backend: Pick<BackendEntry, 'id' | 'formerly'>,
): string[] {
  const axes = [axis.id, ...axis.formerly];
  const backends = [backend.id, ...(backend.formerly ?? [])];
  return axes.flatMap((a) => backends.map((b) => routes.cellId(a, b))).slice(1);
}

export const PROVENANCE_LABEL: Record<Provenance, string> = {
  measured: 'Measured',
  'to-measure': 'To measure',
  cited: 'Cited',
};

/** What a cited cell's badge adds when the lab also ran it (cell.runs), and its page's description. */
export const LAB_RUNS_LABEL = 'also run in the lab';

/** Each kind's icon, so badges differ in shape as well as in words (never colour alone). */
export const PROVENANCE_ICON: Record<Provenance, string> = { measured: '✓', 'to-measure': '◌', cited: '§' };

/**
 * Citations grouped by their source, each source once, in the order its first citation came, its
 * citations in theirs: how a cell's or a figure step's sources read ("iptables/proxier.go L374–375,
 * L55–68; KEP-3866 L120–124"). An excerpt of another file than its source's own (a KEP's kep.yaml
 * beside its README) is a group of its own that names the file ("KEP-5343 L187–189; KEP-5343
 * kep.yaml L7"): a fresh reader took "KEP-5343 L7" for a line of the README.
 */
export function bySource<T extends { source: { label: string }; excerpt?: { path?: string | undefined } }>(
  cites: readonly T[],
): Array<{ label: string; cites: T[] }> {
  const groups = new Map<string, T[]>();
  for (const c of cites) {
    const label = c.excerpt?.path ? `${c.source.label} ${c.excerpt.path}` : c.source.label;
    groups.set(label, [...(groups.get(label) ?? []), c]);
  }
  return [...groups].map(([label, list]) => ({ label, cites: list }));
}
