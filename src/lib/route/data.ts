// Everything a page shows besides its own body, computed once per route (the way Starlight's
// utils/routing/data.ts does): the page calls routeData() once, which also stores the result in
// Astro.locals.route, and the layout and every component read it from there. Components fetch
// nothing.
import type { AstroGlobal, MarkdownHeading } from 'astro';
import { getTable } from '../content/index.ts';
import {
  SEARCH_SECTION,
  TABLE_SECTION,
  type TableModel,
  type AxisModel,
  type CellModel,
  type EvidenceEntry,
  type NavItem,
  type PageModel,
} from '../view/model.ts';
import { routes } from '../routes.ts';
import { isReleaseTag } from '../upstream/pins.ts';
import { homeAlt, axisAlt, axisDescription, cellAlt, cellBadgeWords, shortWords } from '../preview-text.ts';
import { address, url } from '../url.ts';
import { contentDir } from '../content/dir.ts';
import { lastChanged, inRepository, repositoryLinks, type Repository } from '../history.ts';
import { getFigures, type FigureView } from '../figures/index.ts';
import { getGrowth, GROWTH_AXES, type GrowthView } from '../figures/growth-view.ts';

/** What a route is, as its page file knows it. */
export type RouteSpec =
  | { kind: 'page'; page: PageModel; headings: MarkdownHeading[] }
  | {
      kind: 'axis';
      axis: AxisModel;
      /** Set at an old id's path: the page redirects to the axis. */ movedFrom?: string;
    }
  | { kind: 'cell'; axis: AxisModel; cell: CellModel }
  | { kind: 'evidence'; evidence: EvidenceEntry }
  | { kind: 'growth'; growth: GrowthView }
  | { kind: 'search' }
  | { kind: 'not-found' };

export interface Link {
  href: string;
  title: string;
}

/** What a source is pinned to, on a source page: repository, file and commit, and the commit's date when recorded. */
export interface Pin {
  label: string;
  repo: string;
  path: string;
  commit: string;
  /** The commit's date (content: committed), only where a pinned copy records it. */
  committed?: string;
  /** Whether `commit` is a release tag (v1.37.2) rather than a commit id. */
  release: boolean;
  /** The file at that commit (or tag), upstream. */
  url: string;
}

export interface RouteData {
  /** The model: the table, its sources and excerpts, the pages. */
  model: TableModel;
  /** Site-relative path of this page ("" for home). */
  path: string;
  title: string;
  /** The <title>: the site's title on home, else "<title> · <short title>". */
  fullTitle: string;
  description: string;
  /**
   * This page's absolute address (or, for a moved axis, where it moved); only a build with SITE_URL
   * has one (a relative canonical link is no canonical link to a crawler: Lighthouse fails it).
   */
  canonical?: string;
  ogType: 'website' | 'article';
  noindex: boolean;
  /** The page moved to `path`: a static redirect there. */
  moved: boolean;
  /** Wider content column (the comparison table). */
  wide: boolean;
  /** Link-preview image, absolute URL, and its alt text. */
  image?: { url: string; alt: string };
  nav: Array<NavItem & { current: boolean }>;
  /** "On this page" headings (h2/h3), when the page shows a table of contents. */
  toc: MarkdownHeading[];
  prev?: Link;
  next?: Link;
  /**
   * The figures this route shows: on a page, every figure an MDX <Figure id="…" /> may embed; on a
   * axis's page, the figures that explain the axis (content: axes). Each is drawn inline.
   */
  figures: FigureView[];
  /** On a source page, each source it reads and its pin (content: sources.yaml, `page`). */
  pins: Pin[];
  /** When the content this page shows last changed (its files' newest commit), where the history says. */
  changed?: string;
  /** "Edit this page" and "Report a problem", when the build knows the repository (SITE_REPOSITORY). */
  repository?: Repository;
  /**
   * The growth figures (the newest sweep of content/growth/): on a page, for <GrowthFigures />; on
   * the pages of the axes it measures (growth-view.ts, GROWTH_AXES); on the sweep's own page.
   */
  growth?: GrowthView;
}

/**
 * The content files a route shows, relative to the content folder, and the one an author edits for
 * it (none for evidence: it is captured, never edited by hand).
 */
const TABLE_FILES = ['comparison', 'evidence', 'growth', 'excerpts'];
/** Where the table's words are edited. */
const TABLE_EDIT = 'comparison/axes.yaml';
function sources(spec: RouteSpec): { shows: string[]; edit?: string; editTable?: string } {
  switch (spec.kind) {
    case 'page': {
      const file = `pages/${spec.page.id}.mdx`;
      // The home page shows the whole table besides its own text, and says where each is edited.
      return spec.page.id === 'index'
        ? { shows: [file, ...TABLE_FILES], edit: file, editTable: TABLE_EDIT }
        : { shows: [file], edit: file };
    }
    case 'axis':
    case 'cell':
      return { shows: TABLE_FILES, edit: TABLE_EDIT };
    case 'evidence':
      return { shows: [`evidence/${spec.evidence.id}.yaml`] };
    case 'growth':
      return { shows: ['growth'] };
    default:
      return { shows: [] };
  }
}

type Place = Pick<RouteData, 'path' | 'title' | 'description'> &
  Partial<Pick<RouteData, 'ogType' | 'noindex' | 'moved' | 'wide' | 'toc' | 'prev' | 'next'>> & {
    section?: string;
    image?: { path: string; alt: string };
  };

function place(model: TableModel, spec: RouteSpec): Place {
  switch (spec.kind) {
    case 'page': {
      const { page, headings } = spec;
      const at = model.pages.findIndex((p) => p.id === page.id);
      const link = (p: PageModel | undefined) => p && { href: p.path, title: p.label };
      const home = page.id === 'index';
      return {
        path: page.path,
        title: page.title,
        description: page.description,
        section: page.section,
        ogType: home ? 'website' : 'article',
        wide: home,
        toc: page.toc ? headings.filter((h) => h.depth === 2 || h.depth === 3) : [],
        prev: link(model.pages[at - 1]),
        next: link(model.pages[at + 1]),
        // The home page previews as the whole table; the other pages keep a plain text card.
        ...(home && { image: { path: routes.homePreview, alt: homeAlt(model) } }),
      };
    }
    case 'axis': {
      const { axis, movedFrom } = spec;
      return {
        path: routes.axisPage(axis.id),
        title: axis.question,
        description: axisDescription(axis),
        section: TABLE_SECTION,
        image: { path: routes.axisPreview(axis.id), alt: axisAlt(axis) },
        ...(movedFrom !== undefined && { moved: true, noindex: true }),
      };
    }
    case 'cell': {
      const { axis, cell } = spec;
      return {
        path: routes.cellPage(axis.id, cell.backend.id),
        title: `${cell.backend.name}: ${axis.question}`,
        // A cited cell the lab also ran says so, as its badge does (a reader took a bare "Cited" beside
        // "Measured in this study's lab" for a contradiction).
        // ... and, as the cell's title does, that its backend was read and not run (a fresh reader's
        // preview of an IPVS cell lost it).
        description: `${shortWords(cell)} (${cellBadgeWords(cell)}${cell.backend.run ? '' : '; read, not run'})`,
        section: TABLE_SECTION,
        // Its own card: the axis's question over this backend's answer alone (a reader found the
        // axis's card, three equal columns, did not say which cell was shared).
        image: { path: routes.cellPreview(axis.id, cell.backend.id), alt: cellAlt(axis, cell) },
        // A page to share, not to find: its words are the axis page's, which search and crawlers index.
        noindex: true,
      };
    }
    case 'evidence': {
      const { evidence } = spec;
      const question = model.axes.find((r) => r.id === evidence.axis)?.question ?? evidence.axis;
      return {
        path: routes.evidence(evidence.id),
        title: `Evidence: ${evidence.backend}, ${evidence.kind === 'drain' ? 'the drain run' : `course exercise ${evidence.exercise}`}`,
        description: `Captured output behind the ${evidence.backend} cell of “${question}”.`,
        section: TABLE_SECTION,
      };
    }
    case 'growth':
      return {
        path: routes.evidence(spec.growth.id),
        title: `Evidence: how the cost grows, sweep of ${spec.growth.captured}`,
        description:
          'One endpoint change and one new connection, as the cluster grows: iptables and nftables on the lab’s kube-proxy, measured.',
        section: TABLE_SECTION,
      };
    case 'search':
      return {
        path: routes.search,
        title: 'Search',
        description: 'Search the text of every page on this site.',
        section: SEARCH_SECTION,
        ogType: 'website',
        noindex: true,
      };
    case 'not-found':
      return {
        path: routes.notFound,
        title: 'Page not found',
        description: 'There is no page at this address.',
        ogType: 'website',
        noindex: true,
      };
  }
}

async function placedFigures(spec: RouteSpec): Promise<FigureView[]> {
  if (spec.kind === 'page') return getFigures();
  if (spec.kind === 'axis' && spec.movedFrom === undefined)
    return (await getFigures()).filter((f) => f.axes.includes(spec.axis.id));
  return [];
}

/** Computes the route's data, stores it in Astro.locals.route for the layout and components, returns it. */
export async function routeData(astro: Pick<AstroGlobal, 'site' | 'locals'>, spec: RouteSpec): Promise<RouteData> {
  const model = await getTable();
  const { section, image, ...p } = place(model, spec);
  const data: RouteData = {
    model,
    ...p,
    fullTitle: p.path === routes.home ? model.site.title : `${p.title} · ${model.site.shortTitle}`,
    ...(astro.site && { canonical: address(p.path, astro.site) }),
    ogType: p.ogType ?? 'article',
    noindex: p.noindex ?? false,
    moved: p.moved ?? false,
    wide: p.wide ?? false,
    toc: p.toc ?? [],
    // A link preview needs an absolute address: without SITE_URL a page names no image.
    ...(image && astro.site && { image: { url: address(image.path, astro.site), alt: image.alt } }),
    nav: model.nav.map((item) => ({ ...item, current: item.section === section })),
    figures: [],
    pins:
      spec.kind === 'page'
        ? model.sources
            .filter((s) => s.page === spec.page.id)
            .map(({ label, repo, path, commit, committed }) => ({
              label,
              repo,
              path,
              commit,
              release: isReleaseTag(commit),
              ...(committed !== undefined && { committed }),
              url: `https://github.com/${repo}/blob/${commit}/${path}`,
            }))
        : [],
  };
  data.figures = await placedFigures(spec);
  const { shows, edit, editTable } = sources(spec);
  const changed = lastChanged(contentDir, shows);
  if (changed) data.changed = changed;
  const editFile = edit && inRepository(contentDir, edit);
  const repository = repositoryLinks(
    process.env.SITE_REPOSITORY,
    url(p.path),
    editFile,
    editTable && inRepository(contentDir, editTable),
  );
  if (repository) data.repository = repository;
  const growth =
    spec.kind === 'growth'
      ? spec.growth
      : spec.kind === 'page' ||
          (spec.kind === 'axis' && spec.movedFrom === undefined && GROWTH_AXES.includes(spec.axis.id))
        ? await getGrowth()
        : undefined;
  if (growth) data.growth = growth;
  astro.locals.route = data;
  return data;
}
