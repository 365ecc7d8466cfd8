// Shared e2e fixtures: every test fails on a browser console error or warning, on a request
// to another origin, and can run an axe scan (WCAG 2.2 A/AA + best practices) in either scheme.
import { test as base, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

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

/** Scans the page as it is now and fails with a readable list of violations. */
export async function expectAxeClean(page: Page, options: AxeOptions = {}): Promise<void> {
  base.info().setTimeout(base.info().timeout + AXE_SCAN_BUDGET);
  let builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
  if (options.include) builder = builder.include(options.include);
  const disabled = Object.keys(options.disable ?? {});
  if (disabled.length > 0) builder = builder.disableRules(disabled);
  const { violations } = await builder.analyze();
  const report = violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`);
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

export const test = base.extend<Fixtures>({
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
