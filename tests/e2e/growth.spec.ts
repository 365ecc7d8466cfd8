// The growth figures (src/components/figures/GrowthFigures.astro) where the site shows them: the
// endpoint-change and dispatch axis pages, KEP-3866's page and the sweep's evidence page. At every
// width from 360 to 1440 px each panel is whole inside the window, no text in it renders under
// 12 px, the page does not scroll sideways, and the numbers' table is there; axe finds nothing.
import { test, expect, expectAxeCleanInBothSchemes } from './fixtures.ts';
import { loadContent } from '../../src/lib/content/load.ts';
import { routes } from '../../src/lib/routes.ts';

const WIDTHS = [360, 390, 768, 1024, 1280, 1440];
const sweep = (await loadContent(process.env.CONTENT_DIR ?? 'content')).growth
  .filter((g) => g.points)
  .sort((a, b) => b.startedAt.localeCompare(a.startedAt))[0];
const PLACES = sweep
  ? [
      routes.axisPage('endpoint-change'),
      routes.axisPage('dispatch'),
      routes.page('keps/kep-3866'),
      routes.evidence(sweep.id),
    ]
  : [];

for (const path of PLACES)
  test(`/${path}: both growth figures whole at every width, no text under 12 px, their table`, async ({ page }) => {
    await page.goto(path);
    await expect(page.locator('#figure-growth-writes .fig-chart')).toHaveCount(2);
    await expect(page.locator('#figure-growth-connect .fig-chart')).toHaveCount(2);
    // One row per size and mode.
    await expect(page.locator('.growth-table tbody tr')).toHaveCount(sweep!.points!.length * 2);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const d = await page.evaluate(() => ({
        window: document.documentElement.clientWidth,
        scroll: document.documentElement.scrollWidth,
        panels: [...document.querySelectorAll<SVGSVGElement>('.growth-figures .fig-chart')].map((svg) => {
          const r = svg.getBoundingClientRect();
          const scale = r.width / svg.viewBox.baseVal.width;
          const fonts = [...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
          return { left: r.left, right: r.right, smallest: Math.min(...fonts) };
        }),
      }));
      expect(d.scroll, `${width} px: the page does not scroll sideways`).toBeLessThanOrEqual(d.window);
      for (const [i, p] of d.panels.entries()) {
        expect(p.left, `${width} px, panel ${i + 1}: inside the window`).toBeGreaterThanOrEqual(0);
        expect(p.right, `${width} px, panel ${i + 1}: inside the window`).toBeLessThanOrEqual(d.window);
        expect(p.smallest, `${width} px, panel ${i + 1}: smallest text, rendered px`).toBeGreaterThanOrEqual(12);
      }
    }
  });

test('axe: the growth figures and their table, clean in light and dark', async ({ page }) => {
  test.skip(!sweep, 'no growth sweep in the content');
  await page.goto(routes.axisPage('endpoint-change'));
  await expectAxeCleanInBothSchemes(page, { include: '.growth-figures' });
});
