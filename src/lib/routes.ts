// Every site path the model and the pages link to, built here and nowhere else. Paths are
// site-relative (no leading slash, no base); src/lib/url.ts puts the deploy base in front.

const cellId = (axis: string, backend: string) => `${axis}--${backend}`;
/** The URL keeps its published word, rows/. */
const axisPage = (id: string) => `rows/${id}/`;

export const routes = {
  home: '',
  search: 'search/',
  /** Served by static hosts for any missing path. */
  notFound: '404.html',
  favicon: 'favicon.svg',
  sitemap: 'sitemap-index.xml',
  /** The table as data. */
  json: 'comparison.json',
  csv: 'comparison.csv',
  /** Pagefind's bundle, written by the build (src/integrations/pagefind.ts), and its Component UI. */
  searchBundle: 'pagefind/',
  searchScript: 'pagefind/pagefind-component-ui.js',
  searchStyles: 'pagefind/pagefind-component-ui.css',
  /** An axis's fragment in the table on the home page (its row of the table). */
  axisFragment: (axis: string) => `#${axis}`,
  /**
   * A cell's element id, the same in the table and on the axis page: "<axis>--<backend>". Ids are
   * kebab-case (single hyphens only), so "--" can never occur inside one and the pair is never
   * ambiguous; and unlike "<axis>.<backend>" it needs no escaping in a CSS selector.
   */
  cellId,
  /** A cell's fragment in the table on the home page. */
  cellFragment: (axis: string, backend: string) => `#${cellId(axis, backend)}`,
  /** An axis's own page. */
  axisPage,
  /** A cell's section on its axis's page. */
  axisPageCell: (axis: string, backend: string) => `${axisPage(axis)}#${cellId(axis, backend)}`,
  /** A cell's own page: the address "Link to this cell" shares, whose preview names axis and backend. */
  cellPage: (axis: string, backend: string) => `${axisPage(axis)}${backend}/`,
  /** Link-preview images (Open Graph / Twitter): one per axis, one per cell, one for the home page. */
  previews: 'og/',
  axisPreview: (axis: string) => `og/rows/${axis}.png`,
  cellPreview: (axis: string, backend: string) => `og/rows/${axis}/${backend}.png`,
  homePreview: 'og/home.png',
  evidence: (id: string) => `evidence/${id}/`,
  /** A page of the pages collection: "index" is the home page. */
  page: (pageId: string) => (pageId === 'index' ? '' : `${pageId}/`),
  /** A figure's standalone SVG; the hash of its bytes is in the name, so it can be cached for good. */
  figureFile: (id: string, hash: string) => `figures/${id}.${hash}.svg`,
  /** A figure's fragment in a page, and one of its steps' in the figure's text. */
  figureFragment: (id: string) => `figure-${id}`,
  figureStepFragment: (id: string, step: string) => `figure-${id}--${step}`,
  /** An excerpt on its source page. */
  excerpt: (sourcePage: string, excerptId: string) => `${sourcePage}/#${excerptId}`,
} as const;
