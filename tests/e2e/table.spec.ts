// The comparison table as a reader uses it: row links, badges, legend, row pages, exports, width.
import { test, expect, expectAxeCleanInBothSchemes } from './fixtures.ts';

const ROWS = ['dispatch', 'endpoint-change', 'endpoint-selection', 'iptables-rules', 'drain', 'status'];

test('cold load of a row URL scrolls to the row and highlights it, without JavaScript', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${baseURL}#drain`);
  const row = page.locator('tr#drain');
  await expect(row).toBeInViewport();
  await expect(page.locator(':target')).toHaveId('drain');
  expect(await page.evaluate(() => scrollY)).toBeGreaterThan(0);
  const bg = (id: string) => page.locator(`tr#${id} > td`).first().evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(await bg('drain')).not.toBe(await bg('dispatch'));
  await context.close();
});

test('clicking a row header link targets that row', async ({ page }) => {
  await page.goto('');
  await page.getByRole('link', { name: 'endpoint selection mechanism', exact: true }).click();
  await expect(page).toHaveURL(/#endpoint-selection$/);
  await expect(page.locator('tr#endpoint-selection')).toBeInViewport();
  await expect(page.locator('tr:target')).toHaveId('endpoint-selection');
});

test('copy link puts the row page URL (with the base), the link that previews the row, on the clipboard and announces it', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('');
  const button = page.getByRole('button', { name: 'Copy link to the row “how a ClusterIP is dispatched”' });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText(`Link copied: ${baseURL}rows/dispatch/`);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}rows/dispatch/`);
});

test('a cell\'s copy link puts its section on the row page on the clipboard', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('');
  await page.getByRole('button', { name: 'Copy link to the IPVS cell of “can an established connection outlive its endpoint\'s removal”' }).click();
  const link = `${baseURL}rows/drain/#drain--ipvs`;
  await expect(page.getByRole('status')).toHaveText(`Link copied: ${link}`);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
});

test('cold load of a cell anchor highlights that cell alone and scrolls it into view, without JavaScript', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 800, height: 600 } });
  const page = await context.newPage();
  await page.goto(`${baseURL}#drain--nftables`);
  const cell = page.locator('tr#drain > td[data-backend=nftables]');
  await expect(page.locator(':target')).toHaveId('drain--nftables');
  await expect(cell).toBeInViewport();
  const bg = (selector: string) => page.locator(selector).evaluate((el) => getComputedStyle(el).backgroundColor);
  const lit = await bg('tr#drain > td[data-backend=nftables]');
  expect(lit, 'the targeted cell is highlighted').not.toBe(await bg('tr#drain > td[data-backend=ipvs]'));
  expect(lit).not.toBe(await bg('tr#dispatch > td[data-backend=nftables]'));
  // The cell's own link is the anchor it was loaded with; on the row page the same anchor is its section.
  await expect(cell.getByRole('link', { name: /^Cell link: nftables, / })).toHaveAttribute('href', '#drain--nftables');
  await page.goto(`${baseURL}rows/drain/#drain--nftables`);
  await expect(page.locator('section.row-cell:target')).toHaveAttribute('data-backend', 'nftables');
  await expect(page.locator('section.row-cell:target')).toBeInViewport();
  expect(await bg('section.row-cell[data-backend=nftables]')).not.toBe(await bg('section.row-cell[data-backend=ipvs]'));
  await context.close();
});

test('copy buttons are not shown without JavaScript; row links still are', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(baseURL!);
  await expect(page.getByRole('button', { name: /Copy link/ })).toHaveCount(0);
  await expect(page.locator('th[scope=row] a.row-link')).toHaveCount(ROWS.length);
  await context.close();
});

test('table structure: caption, column headers, row headers in content order, not-run column marked', async ({ page }) => {
  await page.goto('');
  const table = page.getByRole('table', { name: /kube-proxy's backends on 6 axes/ });
  await expect(table).toBeVisible();
  await expect(table.locator('thead th[scope=col]')).toHaveText(['Axis', 'iptables', /^IPVS\s*read, not run$/, 'nftables']);
  expect(await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.id))).toEqual(ROWS);
  await expect(table.locator('tbody th[scope=row]')).toHaveCount(ROWS.length);
});

test('every cell has one badge that names its kind and reference; IPVS is only cited', async ({ page }) => {
  await page.goto('');
  const cells = page.locator('table.comparison tbody td');
  await expect(cells).toHaveCount(18);
  for (const cell of await cells.all()) {
    const kind = await cell.getAttribute('data-provenance');
    const badge = cell.locator('.badge');
    await expect(badge).toHaveCount(1);
    if (kind === 'cited') await expect(badge).toHaveText(/^§ Cited · \S.+\(.+\)/);
    else if (kind === 'to-measure') await expect(badge).toHaveText(/^◌ To measure · ex\. (16|17|18)$/);
    else await expect(badge).toHaveText(/^✓ Measured · ex\. \d+$/);
  }
  for (const cell of await page.locator('td[data-backend=ipvs]').all()) await expect(cell).toHaveAttribute('data-provenance', 'cited');
  const toMeasure = page.locator('td[data-provenance=to-measure]');
  expect(await toMeasure.evaluateAll((tds) => tds.map((td) => `${td.closest('tr')!.id}/${td.dataset.backend}`))).toEqual([
    'endpoint-change/iptables', 'endpoint-change/nftables', 'endpoint-selection/iptables', 'endpoint-selection/nftables',
  ]);
  // A to-measure cell shows its expected answer and how to measure it.
  await expect(toMeasure.first()).toContainText('Expected:');
  await expect(toMeasure.first()).toContainText('How to measure:');
});

test('badges are told apart without colour: each kind has its own border style', async ({ page }) => {
  await page.goto('');
  const style = (kind: string) => page.locator(`.legend .badge[data-provenance=${kind}]`).evaluate((el) => getComputedStyle(el).borderTopStyle);
  expect(new Set([await style('measured'), await style('to-measure'), await style('cited')]).size).toBe(3);
});

test('a cited badge links to the exact excerpt on its reading page', async ({ page }) => {
  await page.goto('');
  const link = page.locator('tr#drain td[data-backend=ipvs] .badge a').first();
  const href = (await link.getAttribute('href'))!;
  const id = href.split('#')[1]!;
  await link.click();
  // Another page: wait for it (a locator could still match the table page until it commits).
  await page.waitForURL(new URL(href, page.url()).href);
  await expect(page.locator(`[id="${id}"]`)).toBeInViewport();
  await expect(page.locator('figure:target')).toHaveId(id);
});

test('legend counts match the cells', async ({ page }) => {
  await page.goto('');
  for (const kind of ['measured', 'to-measure', 'cited']) {
    const n = await page.locator(`table.comparison td[data-provenance=${kind}]`).count();
    await expect(page.locator(`.legend [data-legend=${kind}] .legend-count`)).toHaveText(`${n} ${n === 1 ? 'cell' : 'cells'}`);
  }
});

test('each row has its own page with title, description and a link back to the row', async ({ page }) => {
  await page.goto('');
  const question = await page.locator('tr#status th a.row-link').textContent();
  await page.locator('tr#status').getByRole('link', { name: /Row page/ }).click();
  await expect(page).toHaveURL(/rows\/status\/$/);
  await expect(page).toHaveTitle(new RegExp(`^${question}`));
  const description = await page.locator('meta[name=description]').getAttribute('content');
  expect(description!.length).toBeGreaterThan(40);
  await expect(page.locator('meta[property="og:description"]')).toHaveAttribute('content', description!);
  await expect(page.locator('meta[name="twitter:description"]')).toHaveAttribute('content', description!);
  await expect(page.locator('section.row-cell')).toHaveCount(3);
  await page.getByRole('link', { name: 'See this row in the full table' }).click();
  await page.waitForURL(/#status$/); // the table page, loaded: axe scans the whole of it
  await expect(page.locator('tr#status')).toBeInViewport();
  await expectAxeCleanInBothSchemes(page);
});

test('the table as JSON and CSV, with provenance and links that carry the base', async ({ request, baseURL }) => {
  const json = await (await request.get('comparison.json')).json();
  expect(json.backends.map((b: { id: string }) => b.id)).toEqual(['iptables', 'ipvs', 'nftables']);
  expect(json.rows.map((r: { id: string }) => r.id)).toEqual(ROWS);
  const drain = json.rows.find((r: { id: string }) => r.id === 'drain');
  // Absolute URLs use SITE_URL's origin; the path must carry the deploy base.
  const basePath = new URL(baseURL!).pathname;
  const at = (u: string) => { const x = new URL(u); return x.pathname + x.hash; };
  expect(at(drain.url)).toBe(`${basePath}#drain`);
  expect(at(drain.page)).toBe(`${basePath}rows/drain/`);
  expect(at(drain.preview)).toBe(`${basePath}og/rows/drain.png`);
  // Each cell's permanent URLs: its anchor in the table and its section on the row page.
  expect(at(drain.cells.ipvs.url)).toBe(`${basePath}#drain--ipvs`);
  expect(at(drain.cells.ipvs.page)).toBe(`${basePath}rows/drain/#drain--ipvs`);
  expect(drain.cells.ipvs.provenance).toBe('cited');
  expect(new URL(drain.cells.ipvs.cites[0].excerpt).pathname.startsWith(`${basePath}notes/`)).toBe(true);
  expect(drain.cells.ipvs.cites[0].upstream).toMatch(/^https:\/\/github\.com\/kubernetes\/kubernetes\/blob\/[0-9a-f]{40}\/.+#L\d+-L\d+$/);
  const counts = { measured: 0, 'to-measure': 0, cited: 0 } as Record<string, number>;
  for (const row of json.rows) for (const cell of Object.values(row.cells) as { provenance: string }[]) counts[cell.provenance]! += 1;
  expect(json.counts).toEqual(counts);

  const csv = await request.get('comparison.csv');
  expect(csv.headers()['content-type']).toContain('text/csv');
  const lines = (await csv.text()).trimEnd().split('\r\n');
  expect(lines[0]).toBe('axis,question,backend,provenance,exercise,answer,cites,sources');
  expect(lines).toHaveLength(1 + 18);
  expect(lines.filter((l) => l.startsWith('drain,'))).toHaveLength(3);
});

test('at 360 px the page does not scroll sideways; the table scrolls in its region with the row header kept', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('#drain');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const region = page.getByRole('region', { name: /kube-proxy's backends/ });
  expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  const header = page.locator('tr#drain th[scope=row]');
  const before = (await header.boundingBox())!.x;
  await region.evaluate((el) => el.scrollBy({ left: 400 }));
  await expect.poll(() => region.evaluate((el) => el.scrollLeft), 'the region scrolled').toBeGreaterThan(0);
  await expect.poll(async () => (await header.boundingBox())!.x).toBe(before);
  await expect(page.locator('tr#drain td[data-backend=ipvs]')).toBeInViewport();
});

test('home page is axe clean in light and dark', async ({ page }) => {
  await page.goto('');
  await expectAxeCleanInBothSchemes(page);
});

test('print: the table loses its scroll box and badges stay labelled', async ({ page }) => {
  await page.goto('');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('banner')).toBeHidden();
  expect(await page.locator('.table-scroll').evaluate((el) => getComputedStyle(el).overflowX)).toBe('visible');
  await expect(page.locator('td .badge').first()).toBeVisible();
});
