// The table model: content the cross-file rules accepted (checks/), joined into the comparison.
// The content layer's ways in build it (index.ts for Astro, load.ts for scripts and tests);
// components see it through src/lib/view/.
import type { CellEntry, ExcerptEntry, EvidenceEntry, SourceEntry, BackendEntry, SiteEntry } from './entries.ts';
import type { ContentData } from './collections.ts';
import { excerptId, type CiteTarget } from '../claims/syntax.ts';
import { citeTargets } from './citations.ts';
import { upstreamUrl } from '../upstream/upstream.ts';
import { routes } from '../routes.ts';
import { pageModels, navigation, type PageModel, type NavItem } from './pages.ts';
import { cellSchema, type PageData } from './schemas.ts';

export type Provenance = 'measured' | 'to-measure' | 'cited';
export const PROVENANCES: readonly Provenance[] = ['measured', 'to-measure', 'cited'];

/**
 * A citation target that is an excerpt, with its entries: what a cell's and a figure step's `cites`
 * resolve to. The claim syntax's CiteTarget is how any citation target renders as a link.
 */
export interface ExcerptTarget {
  /** Full id, "<source>/<excerpt>". */
  id: string;
  excerpt: ExcerptEntry;
  source: SourceEntry;
  /** Site-relative link to the excerpt on its page, e.g. "keps/kep-3866/#data-plane". */
  href: string;
  /** Pinned upstream permalink to the exact lines. */
  upstream: string;
  /** The same to the lines of its verbatim code, for a code note that shows some. */
  codeUpstream?: string;
}

/** The fields of a cell the model resolves into something else: its citations and its measurement. */
type Resolved = 'cites' | 'measure';
/** A cell's own fields as written (its schema's, in the schema's order), carried through unchanged. */
export type CellFields = Omit<CellEntry, Resolved | 'html'>;
/** Where each field comes in a cell: its schema's order (a field not in it, last). */
const SCHEMA_ORDER = Object.keys(cellSchema.shape);
const rank = (name: string) => (SCHEMA_ORDER.includes(name) ? SCHEMA_ORDER.indexOf(name) : SCHEMA_ORDER.length);

/** Every field of a cell as written but the ones the model resolves, in the schema's order. */
function ownFields(cell: CellEntry): CellFields {
  const names = Object.keys(cell)
    .filter((name) => name !== 'cites' && name !== 'measure' && name !== 'html')
    .sort((a, b) => rank(a) - rank(b));
  return Object.fromEntries(names.map((name) => [name, cell[name as keyof CellEntry]])) as CellFields;
}

interface CellBase extends CellFields {
  backend: BackendEntry;
  /** The cell's own fields, by name, in the schema's order (`short`, `answer`, then any added). */
  fields: CellFields;
  /** Each inline Markdown field rendered by the site's Markdown pipeline (`short`, `answer`, `how`). */
  html: CellEntry['html'];
  /** The short answer the table shows beside the badge, rendered. */
  shortHtml: string;
  /** The answer, rendered. */
  answerHtml: string;
  cites: ExcerptTarget[];
  /**
   * Runs in this study's lab beyond what the exercise asked to measure (evidence of kind drain for
   * this axis and backend): the cell cites them in its answer, and its badge names them beside its cites.
   */
  runs?: EvidenceEntry[];
}
interface Measurable {
  /** The exercise that measures it, and how (Markdown and rendered). */
  exercise: number;
  how: string;
  howHtml: string;
}
export interface CitedCell extends CellBase {
  provenance: 'cited';
}
export interface ToMeasureCell extends CellBase, Measurable {
  provenance: 'to-measure';
}
export interface MeasuredCell extends CellBase, Measurable {
  provenance: 'measured';
  evidence: EvidenceEntry;
}
/** One per provenance: a measured cell cannot exist without its evidence. */
export type CellModel = CitedCell | ToMeasureCell | MeasuredCell;

export interface AxisModel {
  id: string;
  /** Ids this axis was published under before (content: formerly); their links lead here. */
  formerly: string[];
  question: string;
  summary: string;
  summaryHtml: string;
  cells: CellModel[];
}

export interface TableModel {
  site: SiteEntry;
  backends: BackendEntry[];
  axes: AxisModel[];
  counts: Record<Provenance, number>;
  excerpts: Map<string, ExcerptTarget>;
  /** What every `:cite[...]` id links to, resolved where a page renders (components/Cite.astro). */
  cites: ReadonlyMap<string, CiteTarget>;
  sources: SourceEntry[];
  evidence: EvidenceEntry[];
  /** The prose pages in page order, and the primary navigation their frontmatter declares. */
  pages: PageModel[];
  nav: NavItem[];
}

/** What the model needs of the content: every collection, pages by id and frontmatter only. */
export type ModelInput = Omit<ContentData, 'pages' | 'figures' | 'growth'> & {
  /** Growth sweeps (content/growth/): citable as evidence/<id>. */
  growth?: ContentData['growth'];
  pages: ReadonlyArray<{ id: string; data: PageData }>;
};

/** The join itself, on content the checks accepted (the content layer ran them). */
export function assembleTable(data: ModelInput): TableModel {
  const sources = new Map(data.sources.map((s) => [s.id, s]));
  const excerpts = new Map<string, ExcerptTarget>();
  for (const e of data.excerpts) {
    const source = sources.get(e.source)!;
    const id = excerptId(e);
    excerpts.set(id, {
      id,
      excerpt: e,
      source,
      href: routes.excerpt(source.page, e.id),
      upstream: upstreamUrl(source, e),
      ...(e.code && { codeUpstream: upstreamUrl(source, { ...e, lines: e.code.lines }) }),
    });
  }
  const evidence = new Map(data.evidence.map((e) => [e.id, e]));
  const counts: Record<Provenance, number> = { measured: 0, 'to-measure': 0, cited: 0 };

  const axes = data.axes.map((axis): AxisModel => ({
    id: axis.id,
    formerly: axis.formerly ?? [],
    question: axis.question,
    summary: axis.summary,
    summaryHtml: axis.html.summary,
    cells: data.backends.map((backend): CellModel => {
      const cell = axis.cells[backend.id]!;
      const html = cell.html;
      const fields = ownFields(cell);
      const runs = data.evidence.filter((e) => e.kind === 'drain' && e.axis === axis.id && e.backend === backend.id);
      const base: CellBase = {
        ...fields,
        fields,
        backend,
        html,
        shortHtml: html.short,
        answerHtml: html.answer,
        cites: cell.cites.map((id) => excerpts.get(id)!),
        ...(runs.length > 0 && { runs }),
      };
      let out: CellModel;
      if (!cell.measure) out = { ...base, provenance: 'cited' };
      else {
        const m = { exercise: cell.measure.exercise, how: cell.measure.how, howHtml: html.how ?? '' };
        const ev = cell.measure.evidence === undefined ? undefined : evidence.get(cell.measure.evidence);
        out = ev
          ? { ...base, ...m, provenance: 'measured', evidence: ev }
          : { ...base, ...m, provenance: 'to-measure' };
      }
      counts[out.provenance] += 1;
      return out;
    }),
  }));

  const pages = pageModels(data.pages);
  return {
    site: data.site,
    backends: data.backends,
    axes,
    counts,
    excerpts,
    cites: citeTargets(data),
    sources: data.sources,
    evidence: data.evidence,
    pages,
    nav: navigation(pages),
  };
}
