// Paper: Chromium's own PDF of the table page, the drain page and an axis page at A4 with the
// margins the sheet asks for (print.css's @page, which outranks a PDF call's or a print dialog's
// default: a fresh reader's PDF made without margins ran to the paper's edge and lost its page
// numbers before print.css set them), read back with pdfjs (tests/support/pdf-text.ts). No printed text starts
// or ends outside the page's content box (the table's first letters were cut off when its
// narrow-screen layout pulled it into the margin), no link prints a site-relative address (useless
// on paper), and the table's notes print their links' absolute addresses. The table page (issue 44)
// prints on at most 7 pages, none of them only the footer (it was a last page of "Table as JSON ·
// Table as CSV"), with the table as a grid on page 1 under the title, all of it under its caption
// and column headers: every row header and every short answer there, each answer in its backend's
// column (iptables, IPVS, nftables left to right, one x per column); then the key to its badges (by
// page 2), the brief and the IPVS action, the part a reader hands out (a fresh reader found the key
// two sheets after the grid); every cell's full answer after them; no page but the last nearly empty
// (a reader found one holding two lines). Each run's page count is in the test's annotations.
import { test, expect } from './fixtures.ts';
import type { Page } from '@playwright/test';
import { routes } from '../../src/lib/routes.ts';
import { pdfText, type PdfRun } from '../support/pdf-text.ts';

const MM = 72 / 25.4; // PDF points per millimetre
/** Chromium places the content box on whole CSS pixels: a run may start up to a point off. */
const TOLERANCE = 1;
/** A path from the site's root as link text: "(/notes/…)", "</keps/…>", or a line starting with one. */
const SITE_RELATIVE = /(^|[\s(<])\/[\w.-]+\/[\w./#-]*/;
/** The sheet's margins in mm, as print.css's @page sets them. */
const SHEET = { side: 12, bottom: 14 };
/** The fewest words a page but the last holds (the sparsest today holds about 500). */
const MIN_PAGE_WORDS = 150;
/** A sheet's number as print.css prints it, centred in the bottom margin. */
const PAGE_NUMBER = /^Page \d+ of \d+$/;
/** The table page's most pages on A4, as issue 44 asked: 8. Since citations print no address and the
 *  figure prints once (as its drawing, on a sheet of its own), it takes 7 (each run's count is in
 *  its annotations). */
const MAX_HOME_PAGES = 8;

/** Text as compared with the PDF's: pdfjs splits a ligature from its word ("tra ffi c") and a line's
 *  runs may break anywhere, so whitespace goes; NFKC turns "ﬁ" into "fi"; case is as the CSS left it. */
const norm = (s: string) => s.normalize('NFKC').replace(/\s+/g, '').toLowerCase();

/** The PDF's text as one string (norm), and for each of its characters the run it is in. */
function indexed(runs: PdfRun[]) {
  let text = '';
  const owner: PdfRun[] = [];
  for (const r of runs) {
    const t = norm(r.text);
    text += t;
    for (let i = 0; i < t.length; i++) owner.push(r);
  }
  /** Where `needle` starts, each time at or after `from`: its offset and the run it starts in. */
  const findAll = (needle: string, from = 0) => {
    const found: Array<{ at: number; run: PdfRun }> = [];
    for (let at = text.indexOf(norm(needle), from); at >= 0; at = text.indexOf(norm(needle), at + 1))
      found.push({ at, run: owner[at]! });
    return found;
  };
  return findAll;
}

/** The footer's printed text: its words and the addresses its outside links print (print.css). */
const footerText = (page: Page) =>
  page
    .locator('.site-footer')
    .evaluate(
      (f: HTMLElement) =>
        f.innerText +
        [...f.querySelectorAll<HTMLAnchorElement>('a[href^="http"]')]
          .map((a) => ` <${a.getAttribute('href')}>`)
          .join(''),
    );

/** The PDF that "Save as PDF" makes: A4, with the margins print.css asks for (a margin given here
 *  would be overruled by them, so none is). */
const pdfOf = async (page: Page) => pdfText(await page.pdf({ format: 'A4' }));

for (const path of [routes.home, routes.page('drain'), routes.axisPage('drain')]) {
  test(`/${path} on A4: no text outside the sheet's margins, no site-relative link text`, async ({ page, baseURL }) => {
    await page.goto(`${baseURL}${path}`);
    const { pages, runs } = await pdfOf(page);
    test.info().annotations.push({ type: 'pages', description: `/${path}, A4: ${pages.length} pages` });
    expect(runs.length, 'the PDF has text').toBeGreaterThan(100);
    const left = SHEET.side * MM - TOLERANCE;
    const outside = runs
      .filter((r) => r.x < left || r.x + r.width > pages[r.page - 1]!.width - left)
      .map((r) => `page ${r.page}, x ${r.x.toFixed(1)}-${(r.x + r.width).toFixed(1)} pt: ${r.text}`);
    expect(
      outside,
      `text outside ${(SHEET.side * MM).toFixed(1)}-${(pages[0]!.width - SHEET.side * MM).toFixed(1)} pt`,
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

test(`/ on A4: at most ${MAX_HOME_PAGES} pages, the table a grid on page 1, its key, the brief and the IPVS action next, its full answers and the drawing after them`, async ({
  page,
  baseURL,
}) => {
  await page.goto(`${baseURL}${routes.home}`);
  const table = page.locator('table.comparison');
  const caption = await table.locator('caption').innerText();
  const title = await page.locator('h1').innerText();
  // What paper reads between the grid and the full answers: the key to the badges, the brief and
  // the IPVS action (its heading), in that order.
  const between = [
    await page.locator('.legend h2').innerText(),
    await page.locator('.callout-title').first().innerText(),
    await page.locator('.prose > .table-scroll ~ section:not(.legend) h2').first().innerText(),
  ];
  // The drawing after the full answers: its caption's first and last words and its first drawn words.
  const figure = page.locator('.prose > .table-scroll ~ .flow-figure').first();
  const figureCaption = (await figure.locator('figcaption').innerText()).trim();
  const drawn = (await figure.locator('svg text').allTextContents()).find((t) => t.trim().length > 20)!.trim();
  const backends = await table.locator('thead th[id^="col-"]').evaluateAll((ths) => ths.map((th) => th.id.slice(4)));
  const rows = await table.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({
      id: tr.id,
      header: (tr.querySelector('th .row-link') as HTMLElement).innerText,
      cells: [...tr.querySelectorAll('td')].map((td) => ({
        backend: td.dataset.backend!,
        short: (td.querySelector('.cell-short') as HTMLElement).innerText,
        // The full answer's first words (its inline citations print their detail, so not all of it).
        answer: (td.querySelector('.cell-answer') as HTMLElement).textContent!.trim().slice(0, 60),
      })),
    })),
  );
  expect(backends, 'the columns').toEqual(['iptables', 'ipvs', 'nftables']);
  expect(rows.length, 'the rows').toBe(6);

  const { pages, runs } = await pdfOf(page);
  test.info().annotations.push({ type: 'pages', description: `/, A4: ${pages.length} pages` });
  expect(pages.length, `pages (at most ${MAX_HOME_PAGES})`).toBeLessThanOrEqual(MAX_HOME_PAGES);

  // Every sheet says which it is, in its bottom margin (print.css, @page): "Page 3 of 6".
  const numbered = runs.filter((r) => PAGE_NUMBER.test(r.text.trim()));
  expect(
    numbered.map((r) => `${r.page}: ${r.text.trim()}`),
    'each page numbered',
  ).toEqual(pages.map((_, i) => `${i + 1}: Page ${i + 1} of ${pages.length}`));
  expect(
    numbered.every((r) => r.y < SHEET.bottom * MM), // PDF y runs up from the page's foot
    'page numbers in the bottom margin',
  ).toBe(true);

  // A page whose every run (its number aside) is part of the footer's text holds nothing else.
  const footer = norm(await footerText(page));
  expect(footer.length, 'the footer has text').toBeGreaterThan(100);
  const footerOnly = pages
    .map((_, i) => runs.filter((r) => r.page === i + 1 && !PAGE_NUMBER.test(r.text.trim())))
    .flatMap((own, i) => (own.every((r) => footer.includes(norm(r.text))) ? [i + 1] : []));
  expect(footerOnly, 'pages that hold only the footer (or nothing)').toEqual([]);
  const words = pages.map((_, i) =>
    runs
      .filter((r) => r.page === i + 1 && !PAGE_NUMBER.test(r.text.trim()))
      .reduce((n, r) => n + r.text.split(/\s+/).filter(Boolean).length, 0),
  );
  expect(
    words.slice(0, -1).flatMap((n, i) => (n < MIN_PAGE_WORDS ? [`page ${i + 1}: ${n} words`] : [])),
    `pages but the last with fewer than ${MIN_PAGE_WORDS} words`,
  ).toEqual([]);

  // The grid: the caption, then row by row each cell's short answer (Chromium prints them in
  // that order; the row headers it prints later), all of it on page 1, each short answer in its
  // backend's column (one x per column, left to right), each row header left of its row's first
  // answer and level with it.
  const findAll = indexed(runs);
  const find = (needle: string, from = 0) => findAll(needle, from)[0];
  const captionAt = find(caption);
  expect(captionAt, 'the caption in the PDF').toBeDefined();
  let cursor = captionAt!.at;
  const missing: string[] = [];
  const columnX = new Map<string, number[]>();
  const placed: Array<{ row: string; header: PdfRun; cells: PdfRun[] }> = [];
  for (const row of rows) {
    const cells: PdfRun[] = [];
    for (const cell of row.cells) {
      const short = find(cell.short, cursor);
      if (!short) {
        missing.push(`short answer ${row.id}/${cell.backend}: "${cell.short}"`);
        continue;
      }
      cursor = short.at;
      cells.push(short.run);
      columnX.set(cell.backend, [...(columnX.get(cell.backend) ?? []), short.run.x]);
    }
    const first = cells[0];
    const header = first
      ? findAll(row.header, captionAt!.at).find(
          ({ run }) => run.page === first.page && Math.abs(run.y - first.y) < 3 && run.x < first.x,
        )
      : undefined;
    if (!header) missing.push(`row header "${row.header}", level with its row`);
    else if (cells.length === row.cells.length) placed.push({ row: row.id, header: header.run, cells });
  }
  expect(missing, 'the grid in the PDF').toEqual([]);
  const grid = placed.flatMap((p) => [p.header, ...p.cells]);
  expect(
    grid.filter((r) => r.page > 1).map((r) => `page ${r.page}: ${r.text}`),
    'the grid past page 1 (it prints under the title)',
  ).toEqual([]);
  expect(find(title)?.run.page, "the title's page").toBe(1);
  for (const { row, header, cells } of placed) {
    const xs = [header.x, ...cells.map((c) => c.x)];
    expect(
      xs.every((x, i) => i === 0 || x > xs[i - 1]! + 40),
      `row ${row}: header and answers left to right, a column apart (x ${xs.map((x) => x.toFixed(0)).join(', ')} pt)`,
    ).toBe(true);
  }
  for (const [backend, xs] of columnX)
    expect(Math.max(...xs) - Math.min(...xs), `the ${backend} column's answers start at one x`).toBeLessThan(6);
  expect(captionAt!.run.page, "the caption's page is the first row's").toBe(placed[0]!.header.page);
  // One sheet holds the whole grid under its column headers (a CSS grid repeats no header row, so
  // it starts a page of its own): every row header and short answer on the caption's page.
  expect(
    grid.filter((r) => r.page !== captionAt!.run.page).map((r) => `page ${r.page}: ${r.text}`),
    `the grid on one page with its caption (page ${captionAt!.run.page})`,
  ).toEqual([]);
  const headers = findAll('iptables', captionAt!.at).filter(({ run }) => run.page === captionAt!.run.page);
  expect(headers.length, "the column headers on the grid's page").toBeGreaterThan(0);

  // Every cell's full answer after the grid, none inside it: each found past the grid's last short
  // answer, and printed below it or on a later page.
  // After the grid: the key (on the next sheet at the latest, so the two lie side by side), the
  // brief and the IPVS action, each once, in that order; then the full answers.
  const afterGrid = between.map((text) => ({ text, found: findAll(text, cursor) }));
  expect(
    afterGrid.map(({ text, found }) => `${text}: ${found.length}`),
    'the key, the brief and the IPVS action, each once after the grid',
  ).toEqual(between.map((text) => `${text}: 1`));
  const order = afterGrid.map(({ found }) => found[0]!.at);
  expect(order, 'the key, then the brief, then the IPVS action').toEqual([...order].sort((a, b) => a - b));
  expect(afterGrid[0]!.found[0]!.run.page, "the key's page (the grid's or the next)").toBeLessThanOrEqual(2);
  cursor = order.at(-1)!;
  const last = placed.at(-1)!.cells.at(-1)!;
  const late = rows.flatMap((row) =>
    row.cells.flatMap((cell) => {
      const answer = find(cell.answer, cursor);
      const name = `${row.id}/${cell.backend}`;
      if (!answer) return [`${name}: not after the grid`];
      const { page: p, y } = answer.run;
      return p > last.page || (p === last.page && y < last.y) ? [] : [`${name}: page ${p}, y ${y.toFixed(0)}`];
    }),
  );
  expect(late, 'full answers after the grid').toEqual([]);

  // The drawing after the full answers, on one sheet with its whole caption (a fresh reader found
  // the caption cut across two sheets, the drawing on the second).
  const lastAnswer = Math.max(...rows.flatMap((row) => row.cells.map((cell) => find(cell.answer, cursor)?.at ?? 0)));
  const begins = find(figureCaption.slice(0, 40), lastAnswer);
  const ends = begins && find(figureCaption.slice(-40), begins.at);
  const drawing = ends && find(drawn, ends.at);
  expect(
    [begins, ends, drawing].map((f) => f?.run.page),
    'the caption begins, ends, then the drawing: one sheet, after the full answers',
  ).toEqual(Array(3).fill(begins?.run.page ?? 'found'));

  // The IPVS steps' configuration files print as files: each value on its key's line (a fresh reader
  // found "apiVersion:" and its value wrapped onto two lines).
  const versions = runs.filter((r) => r.text.includes('kubeproxy.config.k8s.io/v1alpha1'));
  expect(versions.length, 'the configuration files printed').toBeGreaterThan(0);
  for (const v of versions)
    expect(
      runs.some((r) => r.page === v.page && r.text.includes('apiVersion:') && Math.abs(r.y - v.y) < 2),
      `"${v.text.trim()}" on its "apiVersion:" line`,
    ).toBe(true);
});
