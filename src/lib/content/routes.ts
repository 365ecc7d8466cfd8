// Every site path the model and the pages link to, built here and nowhere else. Paths are
// site-relative (no leading slash, no base); src/lib/url.ts puts the deploy base in front.

export const routes = {
  home: '',
  search: 'search/',
  /** A row's anchor in the table on the home page. */
  rowAnchor: (row: string) => `#${row}`,
  /** A row's own page. */
  row: (row: string) => `rows/${row}/`,
  evidence: (id: string) => `evidence/${id}/`,
  /** A page of the pages collection: "index" is the home page. */
  page: (pageId: string) => (pageId === 'index' ? '' : `${pageId}/`),
  /** An excerpt on its source's reading page. */
  excerpt: (sourcePage: string, excerptId: string) => `${sourcePage}/#${excerptId}`,
} as const;
