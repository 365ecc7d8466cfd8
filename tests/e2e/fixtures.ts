// Shared e2e fixtures: every test fails on a browser console error or warning, on a request
// to another origin, and can run an axe scan (WCAG 2.2 A/AA + best practices) in either scheme.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import axe from 'axe-core';
import { serve } from '../../tools/lib/serve.ts';
import { astroBuild } from '../support/astro-build.ts';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

export interface AxeOptions {
  /** Rules to switch off for this scan; every entry needs a written reason. */
  disable?: Record<string, string>;
  include?: string;
}

/**
 * Test time each axe scan adds: a scan of a long page took over a minute on a 2-core machine
 * at load average 25 (npm run test:stress), so a test's budget grows with the scans it makes.
 */
export const AXE_SCAN_BUDGET = 60_000;

interface Found {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}
declare global {
  interface Window {
    axe?: typeof axe;
  }
}

/**
 * Runs axe-core in the page as it is now and fails with a readable list of violations.
 * axe-core's own API, used directly: its source is put into the document once (page.evaluate
 * is not subject to the page's CSP) and axe.run() scans it, so two scans of one page (light,
 * then dark) compile axe once. Through @axe-core/playwright, which injects axe into every frame
 * for every scan, the same two scans took three times as long (the site has no frames).
 */
export async function expectAxeClean(page: Page, options: AxeOptions = {}): Promise<void> {
  base.info().setTimeout(base.info().timeout + AXE_SCAN_BUDGET);
  if (!(await page.evaluate(() => typeof window.axe?.run === 'function'))) await page.evaluate(axe.source);
  const found = await page.evaluate(
    async ({ tags, include, disabled }): Promise<Found[]> => {
      const results = await window.axe!.run(include ? { include: [include] } : document, {
        runOnly: { type: 'tag', values: tags },
        rules: Object.fromEntries(disabled.map((id) => [id, { enabled: false }])),
      });
      return results.violations.map((v) => ({
        id: v.id,
        impact: String(v.impact),
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
      }));
    },
    { tags: AXE_TAGS, include: options.include, disabled: Object.keys(options.disable ?? {}) },
  );
  const report = found.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.targets.join('\n    ')}`);
  expect(report, `axe violations on ${page.url()}`).toEqual([]);
}

/** Scans in light, then in dark (the scheme the site follows by default). */
export async function expectAxeCleanInBothSchemes(page: Page, options: AxeOptions = {}): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectAxeClean(page, options);
  }
}

interface Fixtures {
  /** Console errors/warnings and CSP violations seen so far; asserted empty after each test. */
  consoleProblems: string[];
  /** Requests to any origin other than the site's; asserted empty after each test. */
  foreignRequests: string[];
}

interface WorkerFixtures {
  /**
   * The URL of a FIXTURE site (tests/fixtures/renamed/ over tests/fixtures/bad-content/valid/: a
   * row and a column renamed), built at the base of the worker's project and served like dist/.
   * Declared here, with every other fixture, so that all tests share one set of worker fixtures:
   * Playwright starts a separate worker for tests whose worker fixtures differ, and those ran last,
   * after every other test, with the other workers idle.
   */
  renamedSite: string;
  /**
   * A page with JavaScript off, one per worker: tests that only load pages in it and read them
   * share it rather than open a browser context each (a script-free page keeps no state).
   */
  scriptlessPage: Page;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  renamedSite: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use, workerInfo) => {
      // Built with the base of the project this worker runs (root or subpath).
      const base = new URL(workerInfo.project.use.baseURL!).pathname;
      const work = mkdtempSync(join(tmpdir(), 'renamed-site-'));
      const content = join(work, 'content');
      cpSync('tests/fixtures/bad-content/valid', content, { recursive: true });
      cpSync('tests/fixtures/renamed', content, { recursive: true });
      const build = astroBuild(content, work, base);
      if (build.status !== 0) throw new Error(`fixture build failed:\n${build.output}`);
      const server = await serve(build.out, base);
      await use(server.siteUrl);
      await server.stop();
      rmSync(work, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 300_000 },
  ],
  scriptlessPage: [
    async ({ browser }, use) => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      await use(await context.newPage());
      await context.close();
    },
    { scope: 'worker' },
  ],
  consoleProblems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`${msg.type()}: ${msg.text()}`);
      });
      page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
      await use(problems);
      expect(problems, 'browser console errors or warnings').toEqual([]);
    },
    { auto: true },
  ],
  foreignRequests: [
    async ({ page, baseURL }, use) => {
      const origin = new URL(baseURL!).origin;
      const foreign: string[] = [];
      page.on('request', (req) => {
        const u = new URL(req.url());
        if (!['data:', 'blob:', 'about:'].includes(u.protocol) && u.origin !== origin) foreign.push(req.url());
      });
      await use(foreign);
      expect(foreign, 'requests to other origins').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
