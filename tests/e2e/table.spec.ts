// The comparison table as a reader uses it in a browser: row links and :target, the full answers
// behind "Details" (opened by a cell's or row's link, with and without JavaScript, and in print),
// its size at a glance (desktop height, narrow widths), copy link, badges told apart without colour,
// citations and row pages one click away, print (360 px: reader.spec.ts). What the built
// HTML alone shows (structure, badges, legend, exports) is checked in tests/dist/. Rows come from
// the model, so a new row changes nothing here.
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { loadTable } from '../../src/lib/content/load.ts';
import { routes } from '../../src/lib/routes.ts';

const table = await loadTable('content');
const [first, second] = table.axes;
const last = table.axes.at(-1)!;

test(
  'cold load of a row URL scrolls to the row and highlights it, without JavaScript',
  { tag: '@base' },
  async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseURL}${routes.axisFragment(last.id)}`);
    const row = page.locator(`tr#${last.id}`);
    await expect(row).toBeInViewport();
    await expect(page.locator(':target')).toHaveId(last.id);
    expect(await page.evaluate(() => scrollY)).toBeGreaterThan(0);
    const bg = (id: string) =>
      page
        .locator(`tr#${id} > td`)
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await bg(last.id)).not.toBe(await bg(first!.id));
    await context.close();
  },
);

test('clicking a row header link targets that row', async ({ page }) => {
  await page.goto('');
  const row = second ?? first!;
  await page.getByRole('link', { name: row.question, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${routes.axisFragment(row.id)}$`));
  await expect(page.locator(`tr#${row.id}`)).toBeInViewport();
  await expect(page.locator('tr:target')).toHaveId(row.id);
});

test(
  'copy link puts the axis page URL (with the base), the link that previews the axis, on the clipboard and announces it',
  { tag: '@base' },
  async ({ page, context, baseURL }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('');
    const button = page.getByRole('button', { name: `Copy link to the axis “${first!.question}”` });
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status')).toHaveText(`Link copied: ${baseURL}${routes.axisPage(first!.id)}`);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}${routes.axisPage(first!.id)}`);
  },
);

test(
  "a cell has one link, to the cell's own page: following it copies exactly the link it shows, and stays",
  { tag: '@base' },
  async ({ page, context, baseURL }) => {
    const row = last;
    const backend = table.backends.at(-1)!;
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('');
    const cell = page.locator(`td#${routes.cellId(row.id, backend.id)}`);
    // The cell's own link is part of its details, which its badge opens.
    await cell.locator('summary').click();
    await expect(cell.getByRole('link', { name: /Link to this cell/ })).toHaveCount(1);
    await expect(cell.getByRole('button'), 'no second copy control in a cell').toHaveCount(0);
    const link = cell.getByRole('link', { name: `Link to this cell: ${backend.name}, ${row.question}` });
    const shown = new URL((await link.getAttribute('href'))!, page.url()).href;
    expect(shown).toBe(`${baseURL}${routes.cellPage(row.id, backend.id)}`);
    const before = page.url();
    await link.click();
    await expect(page.getByRole('status')).toHaveText(`Link copied: ${shown}`);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
    expect(page.url(), 'copying does not leave the table').toBe(before);
    // Without a clipboard (JavaScript off, or an old browser) the link leads to the page itself.
    await page.goto(shown);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${backend.name}: ${row.question}`);
  },
);

test("a cell's badge opens its sources", { tag: '@base' }, async ({ page }) => {
  await page.goto('');
  // Every kind of cell the table has today (the content decides: once every measurable cell has its
  // evidence, no cell is To measure).
  const kinds: string[] = [];
  for (const kind of ['cited', 'to-measure', 'measured'])
    if ((await page.locator(`td[data-provenance=${kind}]`).count()) > 0) kinds.push(kind);
  expect(kinds.length, `kinds present: ${kinds.join(', ')}`).toBeGreaterThanOrEqual(2);
  for (const kind of kinds) {
    const cell = page.locator(`td[data-provenance=${kind}]`).first();
    await expect(cell.locator('.cite-list a').first()).toBeHidden();
    await cell.locator('.badge').click();
    await expect(
      cell.locator('.cite-list a').first(),
      `${kind}: a citation shows once the badge is pressed`,
    ).toBeVisible();
    // Each source is named once, then its excerpts by their lines.
    await expect(cell.locator('.cite-list a').first()).toHaveText(/^L\d+(–\d+)?$/);
    await expect(cell.locator('.cite-list')).toHaveText(/^\S+ L\d+/);
  }
});

for (const js of [true, false]) {
  test(
    `a cold cell link on a phone shows the row's question with the cell (JavaScript ${js ? 'on' : 'off'})`,
    { tag: '@base' },
    async ({ browser, baseURL }) => {
      const context = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const row = second ?? first!;
      const backend = table.backends.at(-1)!;
      await page.goto(`${baseURL}${routes.cellFragment(row.id, backend.id)}`);
      const cell = page.locator(`td#${routes.cellId(row.id, backend.id)}`);
      await expect(cell.locator('.cell-question')).toBeVisible();
      await expect(cell.locator('.cell-question')).toHaveText(`${row.question}: `);
      await expect(cell.locator('.cell-question')).toBeInViewport();
      // Only the target shows it: another cell of the row does not repeat the question.
      await expect(page.locator(`tr#${row.id} > td:not(:target) .cell-question`).first()).toBeHidden();
      await context.close();
    },
  );
}

test(
  "a cold cell link on a wide screen names the cell's backend in the cell, its column's header being out of view",
  { tag: '@base' },
  async ({ browser, baseURL }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const row = last;
    const backend = table.backends.find((b) => !b.run) ?? table.backends[1]!;
    await page.goto(`${baseURL}${routes.cellFragment(row.id, backend.id)}`);
    const cell = page.locator(`td#${routes.cellId(row.id, backend.id)}`);
    await expect(cell).toBeInViewport();
    await expect(page.locator(`thead th#col-${backend.id}`), 'the header scrolled away').not.toBeInViewport();
    const name = cell.locator('.cell-column');
    await expect(name).toBeInViewport();
    await expect(name).toContainText(backend.name);
    if (!backend.run) await expect(name).toContainText('read, not run');
    // The row's question stays for the phone; and only the target names its column.
    await expect(name.locator('.cell-question')).toBeHidden();
    await expect(page.locator(`tr#${row.id} > td:not(:target) .cell-column`).first()).toBeHidden();
    await context.close();
  },
);

test(
  'cold load of a cell fragment highlights that cell alone and scrolls it into view, without JavaScript',
  { tag: '@base' },
  async ({ browser, baseURL }) => {
    const row = last;
    const [one, other] = [table.backends.at(-1)!, table.backends[0]!];
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 800, height: 600 } });
    const page = await context.newPage();
    await page.goto(`${baseURL}${routes.cellFragment(row.id, one.id)}`);
    const cell = page.locator(`tr#${row.id} > td[data-backend="${one.id}"]`);
    await expect(page.locator(':target')).toHaveId(routes.cellId(row.id, one.id));
    await expect(cell).toBeInViewport();
    const bg = (selector: string) => page.locator(selector).evaluate((el) => getComputedStyle(el).backgroundColor);
    const lit = await bg(`tr#${row.id} > td[data-backend="${one.id}"]`);
    expect(lit, 'the targeted cell is highlighted').not.toBe(await bg(`tr#${row.id} > td[data-backend="${other.id}"]`));
    expect(lit).not.toBe(await bg(`tr#${first!.id} > td[data-backend="${one.id}"]`));
    // The cell's own link is its page; on the row page the fragment it was loaded with is its section.
    await expect(cell.getByRole('link', { name: new RegExp(`^Link to this cell: ${one.name}, `) })).toHaveAttribute(
      'href',
      new URL(baseURL!).pathname + routes.cellPage(row.id, one.id),
    );
    await page.goto(`${baseURL}${routes.axisPageCell(row.id, one.id)}`);
    await expect(page.locator('section.row-cell:target')).toHaveAttribute('data-backend', one.id);
    await expect(page.locator('section.row-cell:target')).toBeInViewport();
    expect(await bg(`section.row-cell[data-backend="${one.id}"]`)).not.toBe(
      await bg(`section.row-cell[data-backend="${other.id}"]`),
    );
    await context.close();
  },
);

test('copy buttons are not shown without JavaScript; row links still are', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(baseURL!);
  await expect(page.getByRole('button', { name: /Copy link/ })).toHaveCount(0);
  await expect(page.locator('th[scope=row] a.row-link')).toHaveCount(table.axes.length);
  await context.close();
});

test('badges are told apart without colour: each kind has its own border style', async ({ page }) => {
  await page.goto('');
  const style = (kind: string) =>
    page.locator(`.legend .badge[data-provenance=${kind}]`).evaluate((el) => getComputedStyle(el).borderTopStyle);
  expect(new Set([await style('measured'), await style('to-measure'), await style('cited')]).size).toBe(3);
});

test(
  'a cited cell links to the exact excerpt on its source page, one press of its badge away',
  { tag: '@base' },
  async ({ page }) => {
    await page.goto('');
    const cell = page.locator('td[data-provenance=cited]').first();
    await expect(
      cell.locator('.cite-list a').first(),
      'the compact badge names sources; the links are in the full answer',
    ).toBeHidden();
    await cell.locator('summary').click();
    const link = cell.locator('.cite-list a').first();
    const href = (await link.getAttribute('href'))!;
    const id = href.split('#')[1]!;
    await link.click();
    // Another page: wait for it (a locator could still match the table page until it commits).
    await page.waitForURL(new URL(href, page.url()).href);
    await expect(page.locator(`[id="${id}"]`)).toBeInViewport();
    await expect(page.locator('figure:target')).toHaveId(id);
  },
);

test('an axis page is one click from its row, and links back to the row', { tag: '@base' }, async ({ page }) => {
  const row = table.axes.at(-1)!;
  await page.goto('');
  await page
    .locator(`tr#${row.id}`)
    .getByRole('link', { name: /Axis page/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`${routes.axisPage(row.id)}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(row.question);
  await page.getByRole('link', { name: 'See this axis in the full table' }).click();
  await page.waitForURL(new RegExp(`${routes.axisFragment(row.id)}$`));
  await expect(page.locator(`tr#${row.id}`)).toBeInViewport();
});

test('print: the table loses its scroll box, badges stay labelled, every full answer is shown', async ({ page }) => {
  await page.goto('');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('banner')).toBeHidden();
  expect(await page.locator('.table-scroll').evaluate((el) => getComputedStyle(el).overflowX)).toBe('visible');
  await expect(page.locator('td .badge').first()).toBeVisible();
  for (const row of table.axes)
    for (const cell of row.cells) {
      const td = page.locator(`tr#${row.id} > td[data-backend="${cell.backend.id}"]`);
      await expect(td.locator('.cell-answer'), `${row.id}/${cell.backend.id}: full answer on paper`).toBeVisible();
      await expect(td.locator('.cell-answer')).not.toBeEmpty();
      await expect(td.locator('summary .badge'), 'the badge stays on paper').toBeVisible();
      expect(
        await td.locator('summary').evaluate((el) => getComputedStyle(el, '::before').content),
        'no disclosure marker on paper',
      ).toBe('none');
    }
});

// A shared link to a cell or a row lands on the whole answer: the target's disclosures are open on
// a cold load, by CSS without JavaScript (::details-content) and by the table's script with it.
for (const js of [true, false]) {
  test(
    `cold load of a cell or a row fragment shows its full answers, the rest stay closed (JavaScript ${js ? 'on' : 'off'})`,
    { tag: '@base' },
    async ({ browser, baseURL }) => {
      const context = await browser.newContext({ javaScriptEnabled: js });
      const row = last;
      const other = first!;
      const td = (page: Page, r: string, b: string) => page.locator(`tr#${r} > td[data-backend="${b}"]`);
      const expectOpen = async (page: Page, r: (typeof table.axes)[number], b: string, where: string) => {
        await expect(td(page, r.id, b).locator('.cell-answer'), where).toBeVisible();
        await expect(td(page, r.id, b).locator('.cell-answer'), where).not.toBeEmpty();
        // With JavaScript the disclosure itself is open (the reader can close it); without, CSS shows its content.
        if (js) await expect(td(page, r.id, b).locator('details'), where).toHaveAttribute('open', '');
      };

      await test.step('#<row>--<column>: that cell alone', async () => {
        const [one, next] = [table.backends.at(-1)!, table.backends[0]!];
        const page = await context.newPage();
        await page.goto(`${baseURL}${routes.cellFragment(row.id, one.id)}`);
        await expect(page.locator(':target')).toHaveId(routes.cellId(row.id, one.id));
        await expectOpen(page, row, one.id, 'the targeted cell');
        await expect(td(page, row.id, one.id).locator('.cell-answer')).toBeInViewport();
        await expect(td(page, row.id, next.id).locator('.cell-answer'), 'another cell of the row').toBeHidden();
        await expect(td(page, other.id, one.id).locator('.cell-answer'), 'the same column in another row').toBeHidden();
        await page.close();
      });

      await test.step('#<row>: every cell of the row', async () => {
        const page = await context.newPage();
        await page.goto(`${baseURL}${routes.axisFragment(row.id)}`);
        await expect(page.locator(':target')).toHaveId(row.id);
        for (const b of table.backends) await expectOpen(page, row, b.id, `${row.id}/${b.id}`);
        for (const b of table.backends)
          await expect(td(page, other.id, b.id).locator('.cell-answer'), `${other.id}/${b.id}`).toBeHidden();
        await page.close();
      });
      await context.close();
    },
  );
}

test('at a glance: at 1280x800 the whole table, details closed, is at most 900 px tall, light and dark; at 390 px no wider than the screen', async ({
  browser,
  baseURL,
}) => {
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme });
    const page = await context.newPage();
    await page.goto(baseURL!);
    const height = await page.locator('table.comparison').evaluate((t) => {
      const top = t.querySelector('thead')!.getBoundingClientRect().top;
      return [...t.querySelectorAll('tbody tr')].at(-1)!.getBoundingClientRect().bottom - top;
    });
    expect(height, `${colorScheme}: header to last row, in px`).toBeLessThanOrEqual(900);
    await context.close();
  }
  // 360 px: reader.spec.ts; the widest phone width the issue names, too.
  const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
  const page = await context.newPage();
  await page.goto(baseURL!);
  const widths = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.querySelector('table.comparison')!.getBoundingClientRect().width,
    document.querySelector('.table-scroll')!.scrollWidth,
  ]);
  for (const w of widths) expect(w, 'page, table, table region at 390 px').toBeLessThanOrEqual(390);
  await context.close();
});
