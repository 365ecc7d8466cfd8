// Paper: Chromium's own PDF of the table page and the drain page at A4, with 10 mm and with 15 mm
// margins, read back with pdfjs (tests/support/pdf-text.ts). No printed text starts or ends outside
// the page's content box (the table's first letters were cut off when its narrow-screen layout
// pulled it into the margin), no link prints a site-relative address (useless on paper), and the
// table's notes print their links' absolute addresses. Each run's page count is in the test's
// annotations.
import { test, expect } from './fixtures.ts';
import { routes } from '../../src/lib/routes.ts';
import { pdfText } from '../support/pdf-text.ts';

const MM = 72 / 25.4; // PDF points per millimetre
/** Chromium places the content box on whole CSS pixels: a run may start up to a point off. */
const TOLERANCE = 1;
/** A path from the site's root as link text: "(/notes/…)", "</keps/…>", or a line starting with one. */
const SITE_RELATIVE = /(^|[\s(<])\/[\w.-]+\/[\w./#-]*/;

for (const path of [routes.home, routes.page('drain')]) {
  for (const margin of [10, 15]) {
    test(`/${path} on A4 with ${margin} mm margins: no text outside the page's content box, no site-relative link text`, async ({
      page,
      baseURL,
    }) => {
      await page.goto(`${baseURL}${path}`);
      const pdf = await page.pdf({
        format: 'A4',
        margin: { top: `${margin}mm`, bottom: `${margin}mm`, left: `${margin}mm`, right: `${margin}mm` },
      });
      const { pages, runs } = await pdfText(pdf);
      test.info().annotations.push({ type: 'pages', description: `/${path}, A4, ${margin} mm: ${pages.length} pages` });
      expect(runs.length, 'the PDF has text').toBeGreaterThan(100);
      const left = margin * MM - TOLERANCE;
      const outside = runs
        .filter((r) => r.x < left || r.x + r.width > pages[r.page - 1]!.width - left)
        .map((r) => `page ${r.page}, x ${r.x.toFixed(1)}-${(r.x + r.width).toFixed(1)} pt: ${r.text}`);
      expect(
        outside,
        `text outside ${(margin * MM).toFixed(1)}-${(pages[0]!.width - margin * MM).toFixed(1)} pt`,
      ).toEqual([]);
      expect(
        runs.filter((r) => SITE_RELATIVE.test(r.text)).map((r) => `page ${r.page}: ${r.text}`),
        'site-relative link text',
      ).toEqual([]);
      if (path === routes.home) {
        // The table's notes name their links' whole address: the site's origin (SITE_URL, as in the
        // page's canonical link), then the path.
        const origin = new URL((await page.locator('link[rel="canonical"]').getAttribute('href'))!).origin;
        expect(
          runs.some((r) => r.text.includes(`<${origin}/`)),
          `an address printed as ${origin}/…`,
        ).toBe(true);
      }
    });
  }
}
