// Every page the build wrote, each in its own test, loaded once and checked for everything that
// holds on every page: it answers 200 from its own HTML (the document, plus the favicon; search
// also loads Pagefind) under a Content-Security-Policy that allows nothing inline but by hash and
// reports no violation; no console error or warning and no request to another origin (the
// fixtures); and, in the run at base / (the markup under a sub-path differs only in the base in
// front of URLs, which tests/dist/ and the link gate check): axe clean (WCAG 2.2 A/AA + best
// practice) in the light and the dark scheme, no sideways scroll at 360 px, and with JavaScript
// off the same text and no button that could not work.
// The list comes from dist/ itself, so a new page is covered the moment it is built (tests/dist/
// checks that every built page is in the sitemap or says noindex).
import type { Page, Response } from '@playwright/test';
import { test, expect, expectAxeCleanInBothSchemes } from './fixtures.ts';
import { builtPages, recordCspViolations, atRoot } from '../../tools/lib/site-pages.ts';
import { routes } from '../../src/lib/routes.ts';

/** Rules switched off on every page, each with the reason. None today: keep it that way. */
const DISABLED_RULES: Record<string, string> = {};

/** The text a reader sees in <main>, leaving out buttons (script-only controls). */
const readableText = (page: Page) =>
  page.getByRole('main').evaluate((main) => {
    const parts: string[] = [];
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement!;
      if (!el.closest('button') && el.checkVisibility()) parts.push(node.textContent ?? '');
    }
    return parts.join('').replace(/\s+/g, ' ').trim();
  });

for (const path of builtPages()) {
  test(`every page: /${path}`, { tag: '@base' }, async ({ page, scriptlessPage: off, baseURL }) => {
    const violations = await recordCspViolations(page);
    const favicon = new URL('favicon.svg', baseURL).href;
    const requested: string[] = [];
    page.on('request', (req) => {
      if (!/^(data|blob):/.test(req.url())) requested.push(req.url());
    });

    const res = await page.goto(path);
    expect(res?.status(), 'status').toBe(200);

    await test.step('the Content-Security-Policy, in the header and in the page, holds with no violation', async () => {
      // The policy is really there (a missing one would make "no violations" meaningless), and
      // neither copy allows anything inline but by hash.
      const header = res?.headers()['content-security-policy'] ?? '';
      const meta = (await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content')) ?? '';
      for (const policy of [header, meta]) {
        expect.soft(policy).toMatch(/(^|; )script-src 'self' [^;]*'sha256-/);
        expect.soft(policy).toMatch(/(^|; )style-src 'self' 'sha256-/);
        expect.soft(policy).not.toContain('unsafe-inline');
      }
      expect.soft(await violations(), 'CSP violations').toEqual([]);
    });

    if (path !== routes.search) {
      // Every page renders from its own HTML: its screen CSS, scripts and figures' drawings are
      // inline; the one stylesheet it links is for print (media="print", never render-blocking).
      await test.step('rendered from its own HTML: nothing else is requested but the favicon and the print stylesheet', async () => {
        const print = await page
          .locator('link[rel=stylesheet]')
          .evaluateAll((links) => links.map((l) => [(l as HTMLLinkElement).href, (l as HTMLLinkElement).media]));
        expect
          .soft(
            print.map(([, media]) => media),
            'linked stylesheets are for print only',
          )
          .toEqual(['print']);
        expect
          .soft(
            requested.filter((u) => u !== favicon && !print.some(([href]) => href === u)),
            'requests at load',
          )
          .toEqual([res!.url()]);
      });
    }

    // What follows does not depend on the base: it runs once, in the pass at /.
    if (!atRoot(baseURL)) return;

    await test.step('axe clean in the light and in the dark scheme', async () => {
      await expectAxeCleanInBothSchemes(page, { disable: DISABLED_RULES });
      await page.emulateMedia({ colorScheme: null });
    });

    await test.step('at 360 px wide it does not scroll sideways', async () => {
      await page.setViewportSize({ width: 360, height: 740 });
      await expect
        .poll(() => page.evaluate(() => document.documentElement.scrollWidth), 'page width at 360 px')
        .toBeLessThanOrEqual(360);
    });

    await test.step('with JavaScript off it reads the same, and offers no button that cannot work', async () => {
      const failed: string[] = [];
      const onResponse = (r: Response) => {
        if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
      };
      off.on('response', onResponse);
      await off.goto(new URL(path, baseURL).href);
      await expect.soft(off.getByRole('heading', { level: 1 })).toBeVisible();
      await expect.soft(off.getByRole('button'), 'buttons need JavaScript, so none shows').toHaveCount(0);
      // The search page says instead that it needs JavaScript (reader.spec.ts).
      if (path !== routes.search) {
        await page.setViewportSize({ width: 1280, height: 720 });
        const text = await readableText(off);
        expect.soft(text.length, 'has text').toBeGreaterThan(0);
        expect.soft(text, 'reads the same with and without JavaScript').toBe(await readableText(page));
      }
      off.off('response', onResponse);
      expect.soft(failed, 'failed requests').toEqual([]);
    });
  });
}
