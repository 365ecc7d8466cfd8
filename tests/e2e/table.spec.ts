// The comparison table as a reader uses it in a browser: row links and :target, copy link, badges
// told apart without colour, citations and row pages one click away, print (360 px: reader.spec.ts). What the built
// HTML alone shows (structure, badges, legend, exports) is checked in tests/dist/. Rows come from
// the model, so a new row changes nothing here.
import { test, expect } from './fixtures.ts';
import { loadTable } from '../../src/lib/content/load.ts';
import { routes } from '../../src/lib/content/routes.ts';

const table = await loadTable('content');
const [first, second] = table.rows;
const last = table.rows.at(-1)!;

test('cold load of a row URL scrolls to the row and highlights it, without JavaScript', { tag: '@base' }, async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${baseURL}${routes.rowAnchor(last.id)}`);
  const row = page.locator(`tr#${last.id}`);
  await expect(row).toBeInViewport();
  await expect(page.locator(':target')).toHaveId(last.id);
  expect(await page.evaluate(() => scrollY)).toBeGreaterThan(0);
  const bg = (id: string) => page.locator(`tr#${id} > td`).first().evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(await bg(last.id)).not.toBe(await bg(first!.id));
  await context.close();
});

test('clicking a row header link targets that row', async ({ page }) => {
  await page.goto('');
  const row = second ?? first!;
  await page.getByRole('link', { name: row.question, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${routes.rowAnchor(row.id)}$`));
  await expect(page.locator(`tr#${row.id}`)).toBeInViewport();
  await expect(page.locator('tr:target')).toHaveId(row.id);
});

test('copy link puts the row page URL (with the base), the link that previews the row, on the clipboard and announces it', { tag: '@base' }, async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('');
  const button = page.getByRole('button', { name: `Copy link to the row “${first!.question}”` });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText(`Link copied: ${baseURL}${routes.row(first!.id)}`);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}${routes.row(first!.id)}`);
});

test('a cell\'s copy link puts its section on the row page on the clipboard', { tag: '@base' }, async ({ page, context, baseURL }) => {
  const row = last;
  const backend = table.backends.at(-1)!;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('');
  await page.getByRole('button', { name: `Copy link to the ${backend.name} cell of “${row.question}”` }).click();
  const link = `${baseURL}${routes.rowCell(row.id, backend.id)}`;
  await expect(page.getByRole('status')).toHaveText(`Link copied: ${link}`);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
});

test('cold load of a cell anchor highlights that cell alone and scrolls it into view, without JavaScript', { tag: '@base' }, async ({ browser, baseURL }) => {
  const row = last;
  const [one, other] = [table.backends.at(-1)!, table.backends[0]!];
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 800, height: 600 } });
  const page = await context.newPage();
  await page.goto(`${baseURL}${routes.cellAnchor(row.id, one.id)}`);
  const cell = page.locator(`tr#${row.id} > td[data-backend="${one.id}"]`);
  await expect(page.locator(':target')).toHaveId(routes.cellId(row.id, one.id));
  await expect(cell).toBeInViewport();
  const bg = (selector: string) => page.locator(selector).evaluate((el) => getComputedStyle(el).backgroundColor);
  const lit = await bg(`tr#${row.id} > td[data-backend="${one.id}"]`);
  expect(lit, 'the targeted cell is highlighted').not.toBe(await bg(`tr#${row.id} > td[data-backend="${other.id}"]`));
  expect(lit).not.toBe(await bg(`tr#${first!.id} > td[data-backend="${one.id}"]`));
  // The cell's own link is the anchor it was loaded with; on the row page the same anchor is its section.
  await expect(cell.getByRole('link', { name: new RegExp(`^Cell link: ${one.name}, `) })).toHaveAttribute('href', routes.cellAnchor(row.id, one.id));
  await page.goto(`${baseURL}${routes.rowCell(row.id, one.id)}`);
  await expect(page.locator('section.row-cell:target')).toHaveAttribute('data-backend', one.id);
  await expect(page.locator('section.row-cell:target')).toBeInViewport();
  expect(await bg(`section.row-cell[data-backend="${one.id}"]`)).not.toBe(await bg(`section.row-cell[data-backend="${other.id}"]`));
  await context.close();
});

test('copy buttons are not shown without JavaScript; row links still are', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(baseURL!);
  await expect(page.getByRole('button', { name: /Copy link/ })).toHaveCount(0);
  await expect(page.locator('th[scope=row] a.row-link')).toHaveCount(table.rows.length);
  await context.close();
});

test('badges are told apart without colour: each kind has its own border style', async ({ page }) => {
  await page.goto('');
  const style = (kind: string) => page.locator(`.legend .badge[data-provenance=${kind}]`).evaluate((el) => getComputedStyle(el).borderTopStyle);
  expect(new Set([await style('measured'), await style('to-measure'), await style('cited')]).size).toBe(3);
});

test('a cited badge links to the exact excerpt on its reading page', { tag: '@base' }, async ({ page }) => {
  await page.goto('');
  const link = page.locator('td[data-provenance=cited] .badge a[data-cite]').first();
  const href = (await link.getAttribute('href'))!;
  const id = href.split('#')[1]!;
  await link.click();
  // Another page: wait for it (a locator could still match the table page until it commits).
  await page.waitForURL(new URL(href, page.url()).href);
  await expect(page.locator(`[id="${id}"]`)).toBeInViewport();
  await expect(page.locator('figure:target')).toHaveId(id);
});

test('a row page is one click from its row, and links back to the row', { tag: '@base' }, async ({ page }) => {
  const row = table.rows.at(-1)!;
  await page.goto('');
  await page.locator(`tr#${row.id}`).getByRole('link', { name: /Row page/ }).click();
  await expect(page).toHaveURL(new RegExp(`${routes.row(row.id)}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(row.question);
  await page.getByRole('link', { name: 'See this row in the full table' }).click();
  await page.waitForURL(new RegExp(`${routes.rowAnchor(row.id)}$`));
  await expect(page.locator(`tr#${row.id}`)).toBeInViewport();
});

test('print: the table loses its scroll box and badges stay labelled', async ({ page }) => {
  await page.goto('');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('banner')).toBeHidden();
  expect(await page.locator('.table-scroll').evaluate((el) => getComputedStyle(el).overflowX)).toBe('visible');
  await expect(page.locator('td .badge').first()).toBeVisible();
});
