// The table as a screen reader hears it: the names Chromium computes for the table's headers,
// the order one cell of each provenance reads in (closed: its short answer, then its badge, which is
// the button of its details; opened from the keyboard: then its full answer and what it rests on), and
// the order Tab walks the row tools and each cell's badge, with each focused element in view. Everything
// expected comes from the built site's comparison.json, not from literals, so adding a row or a column
// needs no change here.
// Runs at desktop width, at 360 px (each row a stacked group: CSS changes the table's boxes, and the
// table must keep its roles) and with JavaScript off (no copy buttons).
import type { CDPSession, Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { plainInline } from '../../src/lib/claims/words.ts';

type Provenance = 'measured' | 'to-measure' | 'cited';
interface Cite {
  id: string;
  source: string;
  excerpt: string;
  upstream: string;
}
interface Cell {
  url: string;
  /** The cell's own page, where its one link goes. */
  share: string;
  provenance: Provenance;
  short: string;
  answer: string;
  exercise?: number;
  how?: string;
  evidence?: string;
  cites: Cite[];
}
interface Model {
  backends: { id: string; name: string; run: boolean }[];
  axes: { id: string; question: string; url: string; page: string; cells: Record<string, Cell> }[];
}

/** The model the site was built from, as the site publishes it. */
async function getModel(page: Page): Promise<Model> {
  const response = await page.request.get('comparison.json');
  expect(response.ok(), 'comparison.json').toBe(true);
  return response.json();
}

interface AXName {
  role: string;
  name: string;
  ignored: boolean;
  expanded?: boolean;
}

/** Chromium's computed role and name for each element matching `selector`, in document order. */
async function axNames(cdp: CDPSession, selector: string): Promise<AXName[]> {
  const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
  const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector });
  const out: AXName[] = [];
  for (const nodeId of nodeIds) {
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    const node = nodes[0]!;
    const expanded = node.properties?.find((p) => p.name === 'expanded')?.value.value as boolean | undefined;
    out.push({
      role: String(node.role?.value ?? ''),
      name: String(node.name?.value ?? ''),
      ignored: node.ignored,
      expanded,
    });
  }
  return out;
}

/** What a row's column headers and row headers should be called: the model's words only. */
const NOT_RUN = 'read, not run';
const columnName = (b: Model['backends'][number]) => (b.run ? b.name : `${b.name} ${NOT_RUN}`);

/**
 * Letters and digits only, lower case: compares reading order without caring about markup or spacing.
 * Markdown (links, the claims syntax's directives) reads as its text; the "Our reading" marker the site
 * puts before a :reading[...] is left out of both sides.
 */
const squash = (s: string) =>
  plainInline(s)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '')
    .replace(/ourreading/g, '');
const LABEL: Record<Provenance, string> = { measured: 'Measured', 'to-measure': 'To measure', cited: 'Cited' };

/** Cites as the cell shows them: grouped by source, sources in order of first appearance. */
function bySource(cites: Cite[]): [string, Cite[]][] {
  const groups = new Map<string, Cite[]>();
  for (const c of cites) groups.set(c.source, [...(groups.get(c.source) ?? []), c]);
  return [...groups];
}

/** What a cell's badge says after its kind: the sources' names (cited), or where it is measured. */
const badgeWords = (cell: Cell): string[] =>
  cell.provenance === 'cited' ? bySource(cell.cites).map(([source]) => source) : ['on a node'];

/**
 * The order a cell reads in at a glance: its short answer, then its badge, the button that opens its details and
 * sources.
 */
function glanceOrder(cell: Cell, backend: string, question: string): string[] {
  return [
    ...(cell.provenance === 'to-measure' ? ['Expected:'] : []),
    cell.short,
    LABEL[cell.provenance],
    ...badgeWords(cell),
    'details and sources',
    backend,
    question,
  ];
}

/** A citation link's text: its source and lines, from the pinned permalink's #L<a>-L<b>. */
function citeText(c: Cite): string {
  const [, a, b] = /#L(\d+)(?:-L(\d+))?$/.exec(c.upstream) ?? [];
  return `${c.source} L${a}${b && b !== a ? `–${b}` : ''}`;
}

/**
 * The order the full answer reads in once the details are open: the answer, then what it rests on, up to
 * its first source's first excerpt (Chromium cuts a very long name short; the Tab walk checks the rest).
 */
function readingOrder(cell: Cell): string[] {
  const citeFragments = (cites: Cite[]) => cites.slice(0, 1).map(citeText);
  if (cell.provenance === 'to-measure') {
    return [
      'Expected:',
      ...answerParts(cell.answer),
      'How to measure:',
      cell.how ?? '',
      `exercise ${cell.exercise}`,
      'The expectation rests on',
      ...citeFragments(cell.cites),
    ];
  }
  if (cell.provenance === 'measured') {
    return [...answerParts(cell.answer), 'Evidence, captured', 'Sources:', ...citeFragments(cell.cites)];
  }
  return [...answerParts(cell.answer), 'Sources:', ...citeFragments(cell.cites)];
}

const path = (u: string) => {
  const url = new URL(u);
  return url.pathname + url.hash;
};

/**
 * The model's stops for Tab through the table, details closed: per row its link and tools, then each cell's
 * badge (the disclosure's button).
 */
function expectedStops(model: Model, js: boolean): string[] {
  return model.axes.flatMap((row) => [
    `link ${path(row.url)}`,
    `link ${path(row.page)}`,
    ...(js ? [`copy button #${row.id}`] : []),
    ...model.backends.flatMap((b) => {
      const cell = row.cells[b.id]!;
      return [`details ${new URL(cell.url).hash}`];
    }),
  ]);
}

/** An answer's inline citations (`:cite[…]`, each id a link of its own), in order. */
const inlineIds = (md: string): string[] =>
  [...md.matchAll(/:cite\[([^\]]*)\]/g)].flatMap((m) => m[1]!.split(/\s+/).filter(Boolean));

/** An answer's own words, in order: without its inline citations (links of their own) and markers. */
const answerParts = (md: string): string[] =>
  md
    .split(/:cite\[[^\]]*\]/)
    .map((p) => p.replace(/:reading\[|\]/g, '').trim())
    .filter((p) => /\w/.test(p));

/** Where an inline citation links: an evidence page, or an excerpt (its link as any cell's cites give it). */
function inlineStop(model: Model, cell: Cell, id: string): string[] {
  if (id.startsWith('evidence/')) return [`link ${path(cell.share).replace(/rows\/.*$/, '')}${id}/`];
  const cite = model.axes.flatMap((a) => Object.values(a.cells).flatMap((c) => c.cites)).find((c) => c.id === id);
  return cite ? [`link ${path(cite.excerpt)}`] : [];
}

/**
 * The stops inside one cell's open details: its answer's inline citations, its evidence (measured), the
 * exercise (to measure), its citations, then its one link.
 */
const openStops = (model: Model, cell: Cell): string[] => [
  ...inlineIds(cell.answer).flatMap((id) => inlineStop(model, cell, id)),
  ...(cell.evidence ? [`link ${path(cell.evidence)}`] : []),
  ...(cell.provenance === 'to-measure' ? ['link /exercise/'] : []),
  ...bySource(cell.cites).flatMap(([, cites]) => cites.map((c) => `link ${path(c.excerpt)}`)),
  `link ${path(cell.share)}`,
];

interface Stop {
  stop: string;
  inTable: boolean;
  covered: string | null;
  clipped: string | null;
  inView: boolean;
}

/**
 * Describes the focused element and how much of it shows: `covered` if a sticky header (the row
 * header, the column headers, the site header) lies over any part of it; `clipped` if any part is
 * outside the table's box or the viewport; `inView` if any part shows at all.
 */
function describeFocus(): Stop {
  const el = document.activeElement as HTMLElement | null;
  if (!el || !el.closest('.table-scroll') || el.matches('.table-scroll')) {
    return {
      stop: el?.outerHTML.slice(0, 80) ?? 'nothing',
      inTable: false,
      covered: null,
      clipped: null,
      inView: false,
    };
  }
  const stop =
    el instanceof HTMLAnchorElement
      ? `link ${new URL(el.href).pathname}${new URL(el.href).hash}`
      : el.dataset.copyTarget
        ? `copy button #${el.dataset.copyTarget}`
        : el.tagName === 'SUMMARY'
          ? `details #${el.closest('td')?.id}`
          : el.outerHTML.slice(0, 80);
  let covered: string | null = null;
  let clipped: string | null = null;
  let inView = false;
  const name = (hit: Element | null) =>
    hit
      ? `${hit.tagName.toLowerCase()}${hit.className ? `.${String(hit.className).split(' ')[0]}` : ''}`
      : 'nothing (outside the viewport)';
  // Every line box of the element (a link may wrap): its left end, middle and right end.
  for (const r of [...el.getClientRects()].filter((box) => box.width >= 4)) {
    const y = r.top + r.height / 2;
    for (const x of [r.left + 2, r.left + r.width / 2, r.right - 2]) {
      const hit = document.elementFromPoint(x, y);
      const where = `point (${Math.round(x)}, ${Math.round(y)}) shows ${name(hit)}`;
      if (hit && (hit === el || el.contains(hit))) inView = true;
      else if (hit?.closest('th, .site-header')) covered ??= where;
      else clipped ??= where;
    }
  }
  return { stop, inTable: true, covered, clipped, inView };
}

const SETUPS = [
  { title: 'desktop', viewport: { width: 1280, height: 800 }, js: true },
  { title: '360 px', viewport: { width: 360, height: 740 }, js: true },
  { title: 'JavaScript off', viewport: { width: 1280, height: 800 }, js: false },
  { title: '360 px, JavaScript off', viewport: { width: 360, height: 740 }, js: false },
];

for (const setup of SETUPS) {
  test.describe(`table accessibility tree (${setup.title})`, () => {
    test.use({ viewport: setup.viewport, javaScriptEnabled: setup.js });

    // One page load, three checks: the names, the reading order, the Tab walk.
    test('headers named by what they head; each kind of cell reads short answer, then its badge, then opened its answer and sources; Tab reaches every tool in order, in view', async ({
      page,
    }) => {
      const model = await getModel(page);
      await page.goto('');
      const cdp = await page.context().newCDPSession(page);

      await test.step('each header is named by what it heads: row header = question, column header = backend', async () => {
        const problems: string[] = [];

        const rowIds = await page.locator('table.comparison tbody tr').evaluateAll((trs) => trs.map((tr) => tr.id));
        expect(rowIds, 'rows in the table, in model order').toEqual(model.axes.map((r) => r.id));
        const rowHeaders = await axNames(cdp, 'table.comparison tbody th');
        expect(rowHeaders, 'one row header per row').toHaveLength(model.axes.length);
        model.axes.forEach((row, i) => {
          const found = rowHeaders[i]!;
          if (found.role !== 'rowheader' || found.ignored || found.name !== row.question) {
            problems.push(
              `row header of row "${row.id}": expected rowheader "${row.question}", found ${found.ignored ? 'ignored ' : ''}${found.role} "${found.name}"`,
            );
          }
        });

        const expectedColumns = ['Axis', ...model.backends.map(columnName)];
        const columnHeaders = await axNames(cdp, 'table.comparison thead th');
        expect(columnHeaders, 'one column header per backend, after "Axis"').toHaveLength(expectedColumns.length);
        expectedColumns.forEach((name, i) => {
          const found = columnHeaders[i]!;
          if (found.role !== 'columnheader' || found.ignored || found.name !== name) {
            problems.push(
              `column header ${i + 1}: expected columnheader "${name}", found ${found.ignored ? 'ignored ' : ''}${found.role} "${found.name}"`,
            );
          }
        });
        expect.soft(problems, "header names in Chromium's accessibility tree").toEqual([]);

        // The same, as Playwright's ARIA snapshot shows it (attached to the report; the README quotes one row).
        const first = model.axes[0]!;
        await test.info().attach(`aria-snapshot-${first.id}.yml`, {
          body: await page.locator(`tr#${first.id}`).ariaSnapshot(),
          contentType: 'text/yaml',
        });
        await expect(page.getByRole('rowheader', { name: first.question, exact: true })).toHaveCount(1);
      });

      await test.step('one cell of each provenance reads: short answer, then the badge; opened from the keyboard, then its full answer and what it rests on', async () => {
        const problems: string[] = [];
        /** Finds each fragment in order in the name; reports the first one missing. */
        const inOrder = (name: string, fragments: string[], what: string) => {
          const squashed = squash(name);
          let at = 0;
          let previous = '(start)';
          for (const fragment of fragments) {
            const i = squashed.indexOf(squash(fragment), at);
            if (i < 0) {
              problems.push(`${what}: expected "${fragment}" after "${previous}"; it reads "${name}"`);
              return;
            }
            at = i + squash(fragment).length;
            previous = fragment;
          }
        };
        for (const provenance of ['cited', 'to-measure', 'measured'] as const) {
          const row = model.axes.find((r) => Object.values(r.cells).some((c) => c.provenance === provenance));
          if (!row) {
            test.info().annotations.push({ type: 'no cell', description: `no ${provenance} cell in the content yet` });
            continue;
          }
          const backend = model.backends.find((b) => row.cells[b.id]!.provenance === provenance)!;
          const cell = row.cells[backend.id]!;
          const where = `${provenance} cell ${row.id}/${backend.id}`;
          const selector = `tr#${row.id} > td[data-backend="${backend.id}"]`;

          // Closed: the short answer first (after "Expected:" while to measure), then the badge, and nothing
          // of the full answer.
          const [closed] = await axNames(cdp, selector);
          if (closed?.role !== 'cell') problems.push(`${where}: expected role cell, found ${closed?.role}`);
          inOrder(closed?.name ?? '', glanceOrder(cell, backend.name, row.question), `${where}, closed`);
          const lead = squash(cell.provenance === 'to-measure' ? `Expected: ${cell.short}` : cell.short);
          if (!squash(closed?.name ?? '').startsWith(lead))
            problems.push(`${where} does not open with its short answer; it reads "${closed?.name}"`);
          if (squash(closed?.name ?? '').includes(squash(cell.answer)))
            problems.push(`${where}: the full answer is announced while its details are closed`);
          const [summary] = await axNames(cdp, `${selector} summary`);
          const badgeName = `${LABEL[cell.provenance]} · ${badgeWords(cell).join(', ')} (details and sources: ${backend.name}, ${row.question})`;
          if (summary?.role !== 'DisclosureTriangle' || summary.expanded !== false || summary.name !== badgeName) {
            problems.push(
              `${where}: the badge should be a collapsed disclosure named "${badgeName}"; found ${JSON.stringify(summary)}`,
            );
          }

          // Opened from the keyboard: expanded, and the full answer follows the badge, then what it rests on.
          await page.locator(`${selector} summary`).focus();
          await page.keyboard.press('Enter');
          await expect(page.locator(`${selector} details`)).toHaveAttribute('open', '');
          const [open] = await axNames(cdp, selector);
          inOrder(open?.name ?? '', ['details and sources', ...readingOrder(cell)], `${where}, opened`);
          const [expanded] = await axNames(cdp, `${selector} summary`);
          if (expanded?.expanded !== true) problems.push(`${where}: the badge is not announced as expanded once open`);
          await page.keyboard.press('Enter');
          await expect(page.locator(`${selector} details`)).not.toHaveAttribute('open');
        }
        expect.soft(problems, "cell reading order in Chromium's accessibility tree").toEqual([]);
      });
      await cdp.detach();

      await test.step('Tab reaches every row tool and citation in order, each focused element in view', async () => {
        const expected = expectedStops(model, setup.js);
        await page.locator('.table-scroll').focus();
        const stops: Stop[] = [];
        for (let i = 0; i <= expected.length + 2; i++) {
          await page.keyboard.press('Tab');
          const stop = await page.evaluate(describeFocus);
          if (!stop.inTable) break;
          stops.push(stop);
        }
        expect(
          stops.map((s) => s.stop),
          'Tab order through the table, every "Details" closed',
        ).toEqual(expected);
        // Never wholly out of view or hidden (WCAG 2.2 AA, 2.4.11 Focus Not Obscured).
        const lost = stops.filter((s) => !s.inView).map((s) => `${s.stop}: ${s.clipped ?? s.covered ?? 'no box'}`);
        expect(lost, 'focused elements not in view at all').toEqual([]);
        // With JavaScript the table scrolls each focused element wholly into view, clear of the sticky
        // row header; without it Chromium leaves a partly visible one where it is (it does not scroll
        // what is partly in view), so there partial cover is only reported.
        const covered = stops.filter((s) => s.covered).map((s) => `${s.stop}: ${s.covered}`);
        const clipped = stops.filter((s) => s.clipped).map((s) => `${s.stop}: ${s.clipped}`);
        if (setup.js) {
          expect(covered, 'focused elements partly behind a sticky header').toEqual([]);
          expect(clipped, "focused elements partly outside the table's box or the viewport").toEqual([]);
        } else if (covered.length + clipped.length > 0) {
          test.info().annotations.push({
            type: 'partly in view without JavaScript',
            description: [...covered, ...clipped].join('; '),
          });
        }
      });

      await test.step('an open "Details" puts its citations, cell link and copy button next in Tab order', async () => {
        const row =
          model.axes.find((r) => Object.values(r.cells).some((c) => c.provenance === 'to-measure')) ?? model.axes[0]!;
        const backend = model.backends.find((b) => row.cells[b.id]!.provenance === 'to-measure') ?? model.backends[0]!;
        const cell = row.cells[backend.id]!;
        const summary = page.locator(`td#${new URL(cell.url).hash.slice(1)} summary`);
        await summary.focus();
        await page.keyboard.press('Space');
        const stops: string[] = [];
        for (const _ of openStops(model, cell)) {
          await page.keyboard.press('Tab');
          stops.push((await page.evaluate(describeFocus)).stop);
        }
        expect(stops, `Tab inside the open details of ${row.id}/${backend.id}`).toEqual(openStops(model, cell));
      });
    });
  });
}
