// The table as data: JSON (with provenance and source links) and CSV. Pure; `siteRoot` is the
// address of the deployed site root (base included): absolute, "https://x.dev/kube-proxy-backends/",
// when the build knows its address (SITE_URL), else from the host's root, "/kube-proxy-backends/".
import type { TableModel, CellModel } from './model.ts';
import { plainText } from '../markdown.ts';
import { routes } from '../routes.ts';

/** `path` (relative to the site root, or from the host's root) at `siteRoot`, absolute only when it is. */
function at(path: string, siteRoot: string): string {
  const u = new URL(path, new URL(siteRoot, 'http://site.invalid'));
  return URL.canParse(siteRoot) ? u.href : u.pathname + u.search + u.hash;
}

const cite = (siteRoot: string) => (c: CellModel['cites'][number]) => ({
  id: c.id,
  source: c.source.label,
  section: c.excerpt.section,
  excerpt: at(c.href, siteRoot),
  upstream: c.upstream,
});

/**
 * The JSON export's format version: 2 names the table's questions `axes`; `rows`, version 1's
 * name, is the same list, kept so that readers of version 1 keep working (docs/names.md).
 */
export const JSON_VERSION = 2;

export function toJSON(model: TableModel, siteRoot: string) {
  const axes = model.axes.map((axis) => ({
    id: axis.id,
    ...(axis.formerly.length > 0 && { formerly: axis.formerly }),
    question: axis.question,
    // Permanent URLs: the axis in the table, its own page, and its link-preview image.
    url: at(routes.axisFragment(axis.id), siteRoot),
    page: at(routes.axisPage(axis.id), siteRoot),
    preview: at(routes.axisPreview(axis.id), siteRoot),
    cells: Object.fromEntries(
      axis.cells.map((cell) => [
        cell.backend.id,
        {
          url: at(routes.cellFragment(axis.id, cell.backend.id), siteRoot),
          page: at(routes.axisPageCell(axis.id, cell.backend.id), siteRoot),
          // The cell's own page: the address "Link to this cell" shares (its preview names the cell).
          share: at(routes.cellPage(axis.id, cell.backend.id), siteRoot),
          // ... and the link-preview image that page shows: the axis's question over this cell alone.
          preview: at(routes.cellPreview(axis.id, cell.backend.id), siteRoot),
          provenance: cell.provenance,
          // Every field the cell's schema gives it, as written (short, answer, then any added).
          ...cell.fields,
          ...(cell.provenance !== 'cited' && { exercise: cell.exercise, how: cell.how }),
          ...(cell.provenance === 'measured' && {
            evidence: at(routes.evidence(cell.evidence.id), siteRoot),
          }),
          cites: cell.cites.map(cite(siteRoot)),
        },
      ]),
    ),
  }));
  return {
    version: JSON_VERSION,
    title: model.site.title,
    asOf: model.site.asOf,
    backends: model.backends.map((b) => ({
      id: b.id,
      ...(b.formerly && { formerly: b.formerly }),
      name: b.name,
      run: b.run,
      status: b.status,
    })),
    counts: model.counts,
    axes,
    /** Deprecated: the same list as `axes`, under version 1's name. */
    rows: axes,
    deprecated: { rows: 'the same list as axes, kept for readers of version 1; read axes' },
  };
}

/** A cell's field as plain text: its rendered Markdown read as text, or the value as written. */
function fieldText(cell: CellModel, name: string): string {
  const html = (cell.html as Record<string, string | undefined>)[name];
  return html !== undefined ? plainText(html) : String((cell.fields as Record<string, unknown>)[name] ?? '');
}

/** The names of the cells' own fields, in the order the model gives them (its schema's). */
const cellFieldNames = (model: TableModel): string[] => [
  ...new Set(model.axes.flatMap((axis) => axis.cells.flatMap((cell) => Object.keys(cell.fields)))),
];

const csvField = (v: string | number) => {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** One line per cell (axis × backend), RFC 4180 quoting, CRLF line ends. */
export function toCSV(model: TableModel, siteRoot: string): string {
  // The cell's own fields by its schema (short, answer, then any added), between what identifies the
  // cell and what it cites.
  const fields = cellFieldNames(model);
  const header = ['axis', 'question', 'backend', 'provenance', 'exercise', ...fields, 'cites', 'sources'];
  const lines = [header];
  for (const axis of model.axes) {
    for (const cell of axis.cells) {
      lines.push(
        [
          axis.id,
          axis.question,
          cell.backend.id,
          cell.provenance,
          cell.provenance === 'cited' ? '' : cell.exercise,
          ...fields.map((name) => fieldText(cell, name)),
          cell.cites.map((c) => c.id).join(' '),
          cell.cites.map((c) => at(c.href, siteRoot)).join(' '),
        ].map(String),
      );
    }
  }
  return lines.map((l) => l.map(csvField).join(',')).join('\r\n') + '\r\n';
}
