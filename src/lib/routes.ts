// Every site path the model and the pages link to, built here and nowhere else. Paths are
// site-relative (no leading slash, no base); src/lib/url.ts puts the deploy base in front.

const cellId = (row: string, backend: string) => `${row}--${backend}`;
const row = (id: string) => `rows/${id}/`;

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
  /** A row's anchor in the table on the home page. */
  rowAnchor: (row: string) => `#${row}`,
  /**
   * A cell's element id, the same in the table and on the row page: "<row>--<backend>". Ids are
   * kebab-case (single hyphens only), so "--" can never occur inside one and the pair is never
   * ambiguous; and unlike "<row>.<backend>" it needs no escaping in a CSS selector.
   */
  cellId,
  /** A cell's anchor in the table on the home page. */
  cellAnchor: (r: string, backend: string) => `#${cellId(r, backend)}`,
  /** A row's own page. */
  row,
  /** A cell's section on its row's page. */
  rowCell: (r: string, backend: string) => `${row(r)}#${cellId(r, backend)}`,
  /** Link-preview images (Open Graph / Twitter): one per row, one for the home page. */
  previews: 'og/',
  rowPreview: (r: string) => `og/rows/${r}.png`,
  homePreview: 'og/home.png',
  evidence: (id: string) => `evidence/${id}/`,
  /** A page of the pages collection: "index" is the home page. */
  page: (pageId: string) => (pageId === 'index' ? '' : `${pageId}/`),
  /** A figure's standalone SVG; the hash of its bytes is in the name, so it can be cached for good. */
  figureFile: (id: string, hash: string) => `figures/${id}.${hash}.svg`,
  /** A figure's place in a page, and one of its steps in the figure's text. */
  figureAnchor: (id: string) => `figure-${id}`,
  figureStepAnchor: (id: string, step: string) => `figure-${id}--${step}`,
  /** An excerpt on its source's reading page. */
  excerpt: (sourcePage: string, excerptId: string) => `${sourcePage}/#${excerptId}`,
} as const;
