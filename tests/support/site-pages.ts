// Helpers for e2e tests that cover "every page": the list comes from the built sitemap, fetched
// through the test server, so pages added later are covered without editing the tests.
import type { APIRequestContext, Page } from '@playwright/test';

export interface SitePage {
  /** The URL as the sitemap lists it (SITE_URL + base + path). */
  loc: string;
  /** Path relative to the base, for page.goto(): '' for home, 'rows/drain/'. */
  path: string;
}

const locs = (xml: string): string[] =>
  [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replaceAll('&amp;', '&').trim());

/** A built file as the site path a reader sees: "rows/drain/index.html" -> "rows/drain/", "index.html" -> "". */
export const sitePathOfFile = (rel: string): string => rel.replace(/(^|\/)index\.html$/, '$1');

/** Maps a URL the sitemap gives (at SITE_URL) onto a path relative to the served base. */
export function relativeToBase(loc: string, baseURL: string): string {
  const base = new URL(baseURL).pathname;
  const { pathname } = new URL(loc);
  if (!pathname.startsWith(base)) throw new Error(`sitemap URL ${loc} is not under the base path ${base}`);
  return pathname.slice(base.length);
}

async function getText(request: APIRequestContext, url: string): Promise<string> {
  const res = await request.get(url);
  if (!res.ok()) throw new Error(`GET ${url}: ${res.status()}`);
  return res.text();
}

/** Every page listed by sitemap-index.xml and the sitemaps it points to. */
export async function sitemapPages(request: APIRequestContext, baseURL: string): Promise<SitePage[]> {
  const pages: SitePage[] = [];
  for (const sitemap of locs(await getText(request, new URL('sitemap-index.xml', baseURL).href))) {
    const xml = await getText(request, new URL(relativeToBase(sitemap, baseURL), baseURL).href);
    for (const loc of locs(xml)) pages.push({ loc, path: relativeToBase(loc, baseURL) });
  }
  if (pages.length === 0) throw new Error('the sitemap lists no pages');
  return pages;
}

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/** Records Content-Security-Policy violations in every document the page loads from now on. */
export async function recordCspViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations!.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} in ${e.sourceFile || e.documentURI}:${e.lineNumber}`);
    });
  });
  return () => page.evaluate(() => window.__cspViolations ?? ['(listener missing)']);
}
