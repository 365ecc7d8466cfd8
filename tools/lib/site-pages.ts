// Helpers for e2e tests that cover "every page": the list comes from the build (dist/, or the
// built sitemap fetched through the test server), so pages added later are covered without
// editing the tests.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
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

/** The build the e2e suite lists pages from (the pass at / serves it; the sub-path build has the same pages). */
const dist = join(import.meta.dirname, '../../dist');

/** Every HTML file of a build folder (Pagefind's own left out), relative, with "/", sorted. */
export const builtHtmlFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(sep).join('/'))
    .filter((f) => f.endsWith('.html') && !f.startsWith('pagefind/'))
    .sort();

/** Every page of a build folder as the site path a reader sees, sorted: '' (home), '404.html', 'rows/drain/'. */
export const builtPagesIn = (dir: string): string[] => builtHtmlFiles(dir).map(sitePathOfFile).sort();

/** Every page in dist/ (builtPagesIn), failing with what to do when there is no build. */
export function builtPages(): string[] {
  const pages = existsSync(dist) ? builtPagesIn(dist) : [];
  if (pages.length === 0)
    throw new Error(`${dist} holds no pages: build before the e2e suite (npm run test:e2e builds both bases)`);
  return pages;
}

/** The HTML of a built page, by the path builtPages() gives. */
export const readBuiltPage = (path: string): string =>
  readFileSync(join(dist, path === '' || path.endsWith('/') ? `${path}index.html` : path), 'utf8');

/** True in the pass at base / (baseURL's path is "/"): what does not depend on the base runs only there. */
export const atRoot = (baseURL: string | undefined): boolean => new URL(baseURL!).pathname === '/';

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
      window.__cspViolations!.push(
        `${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} in ${e.sourceFile || e.documentURI}:${e.lineNumber}`,
      );
    });
  });
  return () => page.evaluate(() => window.__cspViolations ?? ['(listener missing)']);
}
