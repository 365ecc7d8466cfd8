// Every page the site publishes, as its sitemap lists them (fetched through the test server),
// plus the built pages left out of the sitemap on purpose (search, 404): each one loads and logs
// no console error or warning, and is axe clean (WCAG 2.2 A/AA + best practice) in the light and
// in the dark scheme. The page list comes from the build, so a new page is covered the moment it
// is built (tests/dist/ checks that every built page is in the sitemap or says noindex).
// Axe runs once per page and scheme: in the run at base /. Under the sub-path the markup differs
// only in the base in front of URLs, which the link gate and tests/dist/ check; that run still
// loads every page (a stylesheet or script missing under the base shows in the console).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { test, expect, expectAxeClean } from './fixtures.ts';
import { sitemapPages, sitePathOfFile } from '../support/site-pages.ts';
import { normaliseBase } from '../../src/lib/base.ts';

const dist = join(import.meta.dirname, '../../dist');

const AXE = normaliseBase(process.env.SITE_BASE) === '/';

/** Rules switched off on every page, each with the reason. None today: keep it that way. */
const DISABLED_RULES: Record<string, string> = {};

/** The sitemap's pages as test-server URLs (the shared helper maps SITE_URL onto the base). */
async function listedPages(request: APIRequestContext, baseURL: string): Promise<string[]> {
  const pages = (await sitemapPages(request, baseURL)).map((p) => new URL(p.path, baseURL).href);
  expect(pages, 'the sitemap lists the home page').toContain(baseURL);
  return pages;
}

/** Every HTML page in dist/, as test-server URLs ("rows/drain/index.html" -> "<base>rows/drain/"). */
function builtPages(baseURL: string): string[] {
  const files = (readdirSync(dist, { recursive: true, encoding: 'utf8' }) as string[])
    .map((f) => f.split('\\').join('/'))
    .filter((f) => f.endsWith('.html') && !f.startsWith('pagefind/'));
  expect(files.length, 'dist/ holds built pages (build before e2e)').toBeGreaterThan(0);
  return files.map((f) => new URL(sitePathOfFile(f), baseURL).href).sort();
}

/** The sitemap's pages, then the built pages it leaves out (each checked for noindex below). */
async function pagesToScan(request: APIRequestContext, baseURL: string): Promise<{ listed: string[]; unlisted: string[] }> {
  const listed = await listedPages(request, baseURL);
  const unlisted = builtPages(baseURL).filter((u) => !listed.includes(u));
  return { listed, unlisted };
}

for (const colorScheme of AXE ? (['light', 'dark'] as const) : (['light'] as const)) {
  test(`every page: loads, quiet console${AXE ? ', axe clean' : ''} (${colorScheme})`, { tag: '@base' }, async ({ page, request, baseURL }) => {
    const { listed, unlisted } = await pagesToScan(request, baseURL!);
    const pages = [...listed, ...unlisted];
    test.setTimeout(60_000 + pages.length * 60_000); // generous: a loaded 2-core machine took ~25 s a page
    await page.emulateMedia({ colorScheme });

    // The fixture fails the test on any console message; this names the page it came from.
    const consoleByPage: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') consoleByPage.push(`${page.url()}: ${msg.type()}: ${msg.text()} [${msg.location().url}]`);
    });
    page.on('pageerror', (err) => consoleByPage.push(`${page.url()}: pageerror: ${err.message}`));

    for (const url of pages) {
      await test.step(url, async () => {
        const response = await page.goto(url);
        expect.soft(response?.status(), `${url} answers 200`).toBe(200);
        expect.soft(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), 'scheme emulated').toBe(colorScheme === 'dark');
        if (AXE) await expectAxeClean(page, { disable: DISABLED_RULES }).catch((e: Error) => expect.soft(e.message, `axe on ${url} (${colorScheme})`).toBe(''));
      });
    }
    expect(consoleByPage, 'console errors or warnings, by page').toEqual([]);
  });
}
