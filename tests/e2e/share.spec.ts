// Shared links: every row's link-preview image (a 1200x630 PNG under 80 KB at SITE_URL + base),
// and links that survive a rename: a FIXTURE content folder (tests/fixtures/renamed/ over
// tests/fixtures/bad-content/valid/) renames a row and a column, is built with the same base into
// a temporary folder and served like dist/, and its old row page and old fragments must still land.
import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { sitemapPages, relativeToBase } from '../../tools/lib/site-pages.ts';

const MAX_BYTES = 80 * 1024;

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(body: Buffer): { width: number; height: number } {
  expect(body.subarray(0, 8).toString('hex'), 'PNG signature').toBe('89504e470d0a1a0a');
  expect(body.subarray(12, 16).toString('latin1'), 'IHDR first').toBe('IHDR');
  return { width: body.readUInt32BE(16), height: body.readUInt32BE(20) };
}

/** The og:image of a page, checked to be absolute at SITE_URL + base, fetched through the test server. */
async function previewOf(page: Page, request: APIRequestContext, baseURL: string, siteRoot: string, path: string) {
  await page.goto(path);
  const meta = (selector: string) => page.locator(selector).getAttribute('content');
  const image = await meta('meta[property="og:image"]');
  expect(image, `${path}: og:image`).toMatch(/^https?:\/\//);
  expect(image!.startsWith(siteRoot), `${path}: ${image} is at SITE_URL + base (${siteRoot})`).toBe(true);
  expect(await meta('meta[name="twitter:image"]')).toBe(image);
  expect(await meta('meta[name="twitter:card"]')).toBe('summary_large_image');
  expect(await meta('meta[property="og:image:width"]')).toBe('1200');
  expect(await meta('meta[property="og:image:height"]')).toBe('630');
  expect((await meta('meta[property="og:image:alt"]'))!.length, `${path}: alt text`).toBeGreaterThan(40);
  expect(await meta('meta[name="twitter:image:alt"]')).toBe(await meta('meta[property="og:image:alt"]'));
  const response = await request.get(relativeToBase(image!, baseURL));
  expect(response.status(), image!).toBe(200);
  expect(response.headers()['content-type']).toBe('image/png');
  const body = await response.body();
  expect(pngSize(body), image!).toEqual({ width: 1200, height: 630 });
  expect(body.length, `${image}: ${body.length} bytes`).toBeLessThanOrEqual(MAX_BYTES);
  return { image: image!, bytes: body.length, alt: (await meta('meta[property="og:image:alt"]'))! };
}

/** SITE_URL + base (from the sitemap's first page) and the table as JSON, as the build publishes them. */
async function published(request: APIRequestContext, baseURL: string) {
  const [home] = await sitemapPages(request, baseURL);
  const siteRoot = home!.loc.slice(0, home!.loc.length - home!.path.length);
  return { siteRoot, json: await (await request.get('comparison.json')).json() };
}

test(
  'every row page and the home page preview with their own 1200x630 PNG under 80 KB',
  { tag: '@base' },
  async ({ page, request, baseURL }) => {
    const { siteRoot, json } = await published(request, baseURL!);
    const sizes: string[] = [];
    const homePreview = await previewOf(page, request, baseURL!, siteRoot, '');
    sizes.push(`home ${homePreview.bytes}`);
    for (const row of json.rows as {
      id: string;
      question: string;
      preview: string;
      cells: Record<string, { provenance: string }>;
    }[]) {
      const preview = await previewOf(page, request, baseURL!, siteRoot, `rows/${row.id}/`);
      expect(preview.image, 'comparison.json names the same image').toBe(row.preview);
      // The alt text says what the card shows: the question and each cell's provenance in words.
      expect(preview.alt).toContain(row.question);
      const words = { measured: 'Measured', 'to-measure': 'To measure', cited: 'Cited' } as Record<string, string>;
      for (const cell of Object.values(row.cells)) expect(preview.alt).toContain(words[cell.provenance]);
      sizes.push(`${row.id} ${preview.bytes}`);
    }
    await test.info().attach('preview-sizes.txt', { body: sizes.join('\n'), contentType: 'text/plain' });
  },
);

test(
  "a cell's shared link previews as the cell: its backend and its axis in the title, its short answer, a card of its own",
  { tag: '@base' },
  async ({ page, request, baseURL }) => {
    const { siteRoot, json } = await published(request, baseURL!);
    const names = new Map((json.backends as { id: string; name: string }[]).map((b) => [b.id, b.name]));
    for (const row of json.axes as {
      id: string;
      question: string;
      preview: string;
      cells: Record<string, { share: string; short: string; preview: string }>;
    }[]) {
      for (const [backend, cell] of Object.entries(row.cells)) {
        const path = relativeToBase(cell.share, baseURL!);
        const preview = await previewOf(page, request, baseURL!, siteRoot, path);
        // Its own card, not its axis's (three equal columns did not say which cell was shared), whose
        // alt text names the backend and the question.
        expect(preview.image, `${path}: the cell's card, as comparison.json names it`).toBe(cell.preview);
        expect(preview.image, `${path}: not the axis's card`).not.toBe(row.preview);
        expect(preview.alt).toContain(`${names.get(backend)} (`);
        expect(preview.alt).toContain(row.question);
        const meta = (selector: string) => page.locator(selector).getAttribute('content');
        const title = await meta('meta[property="og:title"]');
        expect(title, `${path}: og:title`).toContain(`${names.get(backend)}: ${row.question}`);
        expect(await meta('meta[property="og:url"]')).toBe(cell.share);
        expect(await meta('meta[property="og:description"]'), `${path}: og:description`).toMatch(/\S{3}/);
      }
    }
  },
);

// ---------------------------------------------------------------------------------------------
// A renamed row and column, built from a fixture.

// The FIXTURE site is the worker fixture renamedSite (fixtures.ts): built once per worker at the
// project's base, and served; these tests browse it instead of the real build.
const renamed = test.extend({
  baseURL: async ({ renamedSite }, use) => use(renamedSite),
});

renamed.describe('a renamed row and column (FIXTURE)', { tag: '@base' }, () => {
  renamed.describe.configure({ mode: 'serial' });

  renamed(
    '/rows/<old-id>/ is a static redirect: meta refresh, canonical, a visible link, noindex',
    async ({ request, baseURL }) => {
      const html = await (await request.get('rows/fixture-old-axis/')).text();
      const target = new URL('rows/fixture-axis/', baseURL).pathname;
      expect(html).toContain(`<meta http-equiv="refresh" content="0; url=${target}">`);
      expect(html).toMatch(new RegExp(`<link rel="canonical" href="https?://[^"]+${target}">`));
      expect(html).toContain('<meta name="robots" content="noindex">');
      expect(html).toMatch(new RegExp(`<a href="${target}" data-moved-to>FIXTURE question</a>`));
      // A shared old link still previews as the row.
      expect(html).toMatch(/<meta property="og:image" content="[^"]+\/og\/rows\/fixture-axis\.png">/);
      // The old page is not in the sitemap; the row's page is.
      const listed = (await sitemapPages(request, baseURL!)).map((p) => p.path);
      expect(listed).toContain('rows/fixture-axis/');
      expect(listed).not.toContain('rows/fixture-old-axis/');
    },
  );

  for (const js of [true, false]) {
    renamed(
      `the old row page leads to the new one, ${js ? 'with' : 'without'} JavaScript`,
      async ({ browser, baseURL }) => {
        const context = await browser.newContext({ javaScriptEnabled: js, baseURL });
        const page = await context.newPage();
        await page.goto('rows/fixture-old-axis/');
        await page.waitForURL(/rows\/fixture-axis\/(#.*)?$/);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('FIXTURE question');
        if (js) {
          // With JavaScript the fragment comes along: an old cell link lands on the cell's section.
          await page.goto('about:blank');
          await page.goto('rows/fixture-old-axis/#fixture-old-axis--fixture-old-read');
          await page.waitForURL(/rows\/fixture-axis\/#fixture-old-axis--fixture-old-read$/);
          await expect(page.locator('section.row-cell:has(> .former-id:target)')).toHaveAttribute(
            'data-backend',
            'fixture-read',
          );
        }
        await context.close();
      },
    );

    renamed(
      `/#<old-id> lands on the renamed row and highlights it, ${js ? 'with' : 'without'} JavaScript`,
      async ({ browser, baseURL }) => {
        const context = await browser.newContext({
          javaScriptEnabled: js,
          baseURL,
          viewport: { width: 1000, height: 400 },
        });
        const page = await context.newPage();
        const bg = (selector: string) => page.locator(selector).evaluate((el) => getComputedStyle(el).backgroundColor);
        /** A cold load of the home page at `hash`. */
        const land = async (hash: string) => {
          await page.goto('about:blank');
          await page.goto(hash);
        };
        await land('');
        const plain = await bg('tr#fixture-axis > td >> nth=0');
        await land('#fixture-old-axis');
        await expect(page.locator(':target')).toHaveId('fixture-old-axis');
        await expect(page.locator('tr:has(:target)')).toHaveId('fixture-axis');
        await expect(page.locator('tr#fixture-axis')).toBeInViewport();
        expect(await bg('tr#fixture-axis > td >> nth=0'), 'the row is highlighted').not.toBe(plain);
        await expect(page.locator('tr#fixture-axis > td .cell-answer'), "the row's full answers are open").toHaveCount(
          2,
        );
        for (const answer of await page.locator('tr#fixture-axis > td .cell-answer').all())
          await expect(answer).toBeVisible();
        // Old cell links: the old row id, the old column id, and both.
        const cells: Record<string, string> = {
          'fixture-old-axis--fixture-ran': 'fixture-axis--fixture-ran',
          'fixture-axis--fixture-old-read': 'fixture-axis--fixture-read',
          'fixture-old-axis--fixture-old-read': 'fixture-axis--fixture-read',
        };
        for (const [old, now] of Object.entries(cells)) {
          await land(`#${old}`);
          await expect(page.locator('td:has(> .former-id:target)'), old).toHaveId(now);
          await expect(page.locator(`td#${now}`)).toBeInViewport();
          expect(await bg(`td#${now}`), `${old} highlights ${now}`).not.toBe(plain);
          await expect(page.locator(`td#${now} .cell-answer`), `${old} opens the full answer of ${now}`).toBeVisible();
        }
        await context.close();
      },
    );
  }
});

test('an axis page: the answers first, each full answer on demand, and open where a shared link lands (with and without JavaScript)', async ({
  page,
  scriptlessPage,
}) => {
  for (const p of [page, scriptlessPage]) {
    await p.goto('rows/drain/');
    await expect(p.locator('.axis-glance li')).toHaveCount(3);
    await expect(p.locator('#drain--iptables .cell-answer')).toBeHidden();
    await p.locator('#drain--iptables summary').click();
    await expect(p.locator('#drain--iptables .cell-answer')).toBeVisible();
    await p.goto('rows/drain/#drain--nftables');
    await expect(p.locator('#drain--nftables .cell-answer')).toBeVisible();
    await expect(p.locator('#drain--ipvs .cell-answer')).toBeHidden();
  }
});
