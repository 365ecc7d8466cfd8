// The benchmark's pure parts: sizes, budgets, the synthetic table generator (checked against the
// real schema and model), and the Markdown it prints. Page figures below are FIXTURES made up here
// to sit on either side of a limit; they are not measurements.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  sizeOf,
  addSizes,
  throughTable,
  evaluateBudgets,
  formatBudgets,
  markdownTable,
  syntheticAxes,
  vocabulary,
  writeScaledContent,
  measureFigures,
  figureBudget,
  isSearchPage,
  childCpuMs,
  marginalGzip,
  summariseLighthouse,
  lighthouseRows,
  median,
  interquartileMean,
  floorFirst,
  BUDGET,
  GZIP_LEVEL,
  SYNTHETIC_PREFIX,
  type PageMeasure,
  type NoJsCheck,
  type LighthouseRun,
  type BuildPair,
} from '../../tools/lib/bench.ts';
import { axisSchema, type Axis } from '../../src/lib/content/schemas.ts';
import { wordCount } from '../../src/lib/claims/words.ts';
import { loadTable } from '../../src/lib/content/load.ts';

const size = (gzip: number) => ({ raw: gzip * 3, gzip });
const page = (path: string, over: Partial<PageMeasure> = {}): PageMeasure => ({
  path,
  html: size(5000),
  throughTable: size(4000),
  css: size(1500),
  otherMediaCss: size(0),
  js: size(0),
  inlineJs: size(0),
  requests: 1,
  urls: [`http://127.0.0.1/${path}`],
  foreign: [],
  ...over,
});
const allRows: NoJsCheck = { expected: ['fixture-a', 'fixture-b'], missing: [] };
const byName = (
  pages: PageMeasure[],
  noJs = allRows,
  lighthouse?: Parameters<typeof evaluateBudgets>[0]['lighthouse'],
  cleanBuilds?: BuildPair[],
) =>
  Object.fromEntries(evaluateBudgets({ pages, tablePath: '', noJs, lighthouse, cleanBuilds }).map((r) => [r.name, r]));
const JS_BUDGET = 'JavaScript on load, outside search (gzip, files + inline)';
const lhRun = (over: Partial<LighthouseRun> = {}): LighthouseRun => ({
  performance: 100,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
  lcpMs: 900,
  tbtMs: 0,
  cls: 0,
  benchmarkIndex: 1500,
  failing: [],
  ...over,
});
const realAxes = () => parse(readFileSync('content/comparison/axes.yaml', 'utf8')) as Axis[];

test('sizeOf counts UTF-8 bytes and gzips at the stated level', () => {
  const text = 'réseau '.repeat(200);
  const s = sizeOf(text);
  assert.equal(s.raw, Buffer.byteLength(text));
  assert.equal(s.gzip, gzipSync(text, { level: GZIP_LEVEL }).byteLength);
  assert.ok(s.gzip < s.raw, 'repetitive text must compress');
  assert.equal(gunzipSync(gzipSync(text, { level: GZIP_LEVEL })).toString(), text);
  assert.deepEqual(addSizes({ raw: 1, gzip: 2 }, { raw: 10, gzip: 20 }), { raw: 11, gzip: 22 });
});

test('every budget passes for a page set within its limits', () => {
  const lighthouse = [summariseLighthouse('/', 'mobile', [lhRun()]), summariseLighthouse('/', 'desktop', [lhRun()])];
  const results = evaluateBudgets({
    pages: [page(''), page('rows/fixture-a/', { js: size(900), requests: 2 })],
    tablePath: '',
    noJs: allRows,
    lighthouse,
  });
  assert.deepEqual(
    results.map((r) => r.pass),
    [true, true, true, true, true, true, true],
  );
  assert.doesNotMatch(formatBudgets(results), /FAIL/);
});

test('the applied-throttling preset is reported, not judged: its low score and layout shift pass', () => {
  const lighthouse = [
    summariseLighthouse('/', 'mobile', [lhRun()]),
    summariseLighthouse('/', 'mobile-applied', [lhRun({ performance: 99, cls: 0.00054 })]),
    summariseLighthouse('/', 'desktop', [lhRun()]),
  ];
  const results = evaluateBudgets({ pages: [page('')], tablePath: '', noJs: allRows, lighthouse });
  const lh = results.filter((r) => /Lighthouse/.test(r.name));
  assert.equal(lh.length, 2);
  assert.ok(lh.every((r) => r.pass && /on 2 page\/preset pairs/.test(r.limit)));
  assert.deepEqual(
    lighthouseRows(lighthouse).map((r) => r[1]),
    ['mobile', 'mobile-applied', 'desktop'],
  );
  // The same figures on a budgeted preset fail.
  const judged = evaluateBudgets({
    pages: [page('')],
    tablePath: '',
    noJs: allRows,
    lighthouse: [summariseLighthouse('/', 'mobile', [lhRun({ performance: 99, cls: 0.00054 })])],
  }).filter((r) => /Lighthouse/.test(r.name));
  assert.deepEqual(
    judged.map((r) => r.pass),
    [false, false],
  );
});

const FIRST = "table page, first render: HTML to the table's end + CSS (gzip)";
test('a table page whose first render is over 14 KB of HTML + CSS prints FAIL; the HTML after the table does not count', () => {
  const over = page('', { throughTable: size(BUDGET.tableFirstRenderGzip - 1000), css: size(1001) });
  const r = byName([over])[FIRST]!;
  assert.equal(r.pass, false);
  assert.match(
    formatBudgets(evaluateBudgets({ pages: [over], tablePath: '', noJs: allRows })),
    /first render.*\| FAIL \|/,
  );
  // exactly at the limit passes, however long the page goes on after the table
  const at = byName([
    page('', {
      html: size(3 * BUDGET.tableFirstRenderGzip),
      throughTable: size(BUDGET.tableFirstRenderGzip - 1000),
      css: size(1000),
    }),
  ])[FIRST]!;
  assert.equal(at.pass, true);
  assert.match(at.actual, /whole page HTML 42\.0 KB/);
});

test('a table page without the comparison table fails the first-render budget', () => {
  const r = byName([page('', { throughTable: undefined })])[FIRST]!;
  assert.equal(r.pass, false);
  assert.equal(r.actual, 'no comparison table in the page');
});

test('throughTable: the document up to the end of the comparison table, none without one', () => {
  const head = '<!DOCTYPE html><head><style>p{}</style></head><body><p>intro</p>';
  const table = '<table class="comparison"><tr><td>cell</td></tr></table>';
  const html = `${head}${table}<figure>${'after '.repeat(500)}</figure><table><tr><td>later</td></tr></table>`;
  assert.deepEqual(throughTable(html), sizeOf(head + table));
  assert.equal(throughTable('<table><tr><td>other</td></tr></table>'), undefined);
});

test('JavaScript over 1 KB, files and inline together, on any page but search fails; the search page is exempt', () => {
  const heavy = size(BUDGET.jsOnLoadGzip + 1);
  assert.equal(byName([page(''), page('exercise/', { js: heavy })])[JS_BUDGET]!.pass, false);
  assert.equal(
    byName([page(''), page('exercise/', { js: size(600), inlineJs: size(BUDGET.jsOnLoadGzip - 599) })])[JS_BUDGET]!
      .pass,
    false,
  );
  assert.equal(
    byName([page(''), page('exercise/', { js: size(600), inlineJs: size(BUDGET.jsOnLoadGzip - 600) })])[JS_BUDGET]!
      .pass,
    true,
  );
  assert.equal(byName([page(''), page('search/', { js: heavy })])[JS_BUDGET]!.pass, true);
  assert.ok(isSearchPage('search/') && !isSearchPage('rows/search-cost/') && !isSearchPage(''));
});

test('more requests at load than the budget on any page but search fails', () => {
  const over = BUDGET.requestsAtLoad + 1;
  const r = byName([page(''), page('exercise/', { requests: over }), page('search/', { requests: 9 })])[
    'requests at load, outside search'
  ]!;
  assert.equal(r.pass, false);
  assert.match(r.actual, new RegExp(`${over} at most \\(/exercise/\\)`));
  assert.equal(
    byName([page('', { requests: BUDGET.requestsAtLoad }), page('search/', { requests: 9 })])[
      'requests at load, outside search'
    ]!.pass,
    true,
  );
});

test('a stylesheet for another medium (print) is not part of the first render', () => {
  const under = BUDGET.tableFirstRenderGzip - 1000;
  const r = byName([page('', { throughTable: size(under), css: size(500), otherMediaCss: size(5000) })])[
    "table page, first render: HTML to the table's end + CSS (gzip)"
  ]!;
  assert.equal(r.pass, true, r.actual);
  assert.match(r.actual, /print stylesheet/);
});

test('Lighthouse: medians per figure; a category under 100 or any layout shift fails, naming the audits', () => {
  const s = summariseLighthouse('/rows/x/', 'mobile', [
    lhRun({ performance: 97, lcpMs: 1500, failing: ['a'] }),
    lhRun({ lcpMs: 1000 }),
    lhRun({ cls: 0.04, lcpMs: 1200, failing: ['b'] }),
  ]);
  assert.deepEqual(
    { performance: s.performance, lcpMs: s.lcpMs, cls: s.cls, runs: s.runs, failing: s.failing },
    { performance: 100, lcpMs: 1200, cls: 0, runs: 3, failing: ['a', 'b'] },
  );
  assert.deepEqual(lighthouseRows([s]), [['/rows/x/', 'mobile', 100, 100, 100, 100, 1200, 0, 0, 1500]]);
  const low = byName([page('')], allRows, [
    summariseLighthouse('/', 'desktop', [lhRun({ seo: 92, failing: ['meta-description'] })]),
  ]);
  assert.equal(low['Lighthouse, all four categories (median)']!.pass, false);
  assert.match(low['Lighthouse, all four categories (median)']!.actual, /\/ desktop SEO 92 \(meta-description\)/);
  const shift = byName([page('')], allRows, [summariseLighthouse('/', 'mobile', [lhRun({ cls: 0.000123 })])]);
  assert.equal(shift['cumulative layout shift (Lighthouse, median)']!.pass, false);
  assert.match(
    shift['cumulative layout shift (Lighthouse, median)']!.actual,
    /mobile 0\.00012$/,
    'a tiny shift is not printed as 0',
  );
  assert.equal(median([3, 1, 2, 4]), 2, 'the lower median: a value some run had');
  assert.throws(() => summariseLighthouse('/', 'mobile', []), /no Lighthouse runs/);
});

test('clean build: the interquartile mean of the ratios to the floor, wall and CPU, each fails over its limit; no builds measured fails', () => {
  const clean = (cleanBuilds: BuildPair[]) => byName([page('')], allRows, undefined, cleanBuilds);
  const WALL = 'clean build, wall time, against a bare Astro + MDX build (interquartile mean of 8 pairs)';
  const CPU = 'clean build, CPU time, against a bare Astro + MDX build (interquartile mean of 8 pairs)';
  const floor = { wall: 2000, cpu: 3000 };
  // Just under the limits (a log and back may not give the limit to the last bit).
  const at = {
    wall: floor.wall * BUDGET.cleanBuildVsFloor.wall * 0.999,
    cpu: floor.cpu * BUDGET.cleanBuildVsFloor.cpu * 0.999,
  };
  const pair = (site: { wall: number; cpu: number }, f = floor): BuildPair => ({ site, floor: f });
  const eight = (...odd: BuildPair[]) => [...odd, ...Array.from({ length: 8 - odd.length }, () => pair(at))];
  // A quarter at each end is left out: the slowest and the fastest two of eight weigh nothing.
  const within = clean(
    eight(
      pair({ wall: 1, cpu: 1 }),
      pair({ wall: 1, cpu: 1 }),
      pair({ wall: at.wall * 9, cpu: at.cpu * 9 }),
      pair({ wall: at.wall * 9, cpu: at.cpu * 9 }),
    ),
  );
  assert.equal(within[WALL]!.pass, true, 'two slow and two fast pairs do not move it');
  assert.equal(within[CPU]!.pass, true);
  assert.match(
    within[WALL]!.actual,
    new RegExp(`^${BUDGET.cleanBuildVsFloor.wall.toFixed(2)}x \\(pairs 0\\.00x, 0\\.00x, `),
    'the pairs listed in order',
  );
  // A machine twice as slow doubles both builds of a pair: the ratio, and so the verdict, stay.
  const slower = clean(
    eight().map(() => pair({ wall: at.wall * 2, cpu: at.cpu * 2 }, { wall: floor.wall * 2, cpu: floor.cpu * 2 })),
  );
  assert.equal(slower[WALL]!.pass, true);
  const slow = clean(eight().map(() => pair({ ...at, wall: at.wall * 1.01 })));
  assert.equal(slow[WALL]!.pass, false);
  assert.equal(slow[CPU]!.pass, true);
  // Three slow pairs of eight: one is inside the middle half, and it moves the mean over.
  const busy = clean(eight(...[1, 2, 3].map(() => pair({ ...at, cpu: at.cpu * 1.2 }))));
  assert.equal(busy[CPU]!.pass, false);
  assert.match(
    formatBudgets(
      evaluateBudgets({
        pages: [page('')],
        tablePath: '',
        noJs: allRows,
        cleanBuilds: [pair({ ...at, cpu: at.cpu + 10 })],
      }),
    ),
    /clean build, CPU time, against a bare Astro \+ MDX build \(interquartile mean of 1 pair\).*\| FAIL \|/,
  );
  const none = byName([page('')], allRows, undefined, []);
  assert.equal(
    none['clean build, wall time, against a bare Astro + MDX build (interquartile mean of 0 pairs)']!.pass,
    false,
    'no build measured proves nothing',
  );
  assert.equal(byName([page('')])[WALL], undefined, 'not asked for (--clean-runs 0): no row');
});

test('interquartile mean: geometric, a quarter left out at each end; the pairs alternate which build runs first', () => {
  assert.equal(interquartileMean([2, 8]), 4, 'geometric: 2 and 8 average to 4');
  assert.ok(Math.abs(interquartileMean([100, 2, 2, 0.01]) - 2) < 1e-9, 'the extreme two of four left out');
  assert.ok(Math.abs(interquartileMean([1, 2, 2, 2, 2, 2, 2, 50]) - 2) < 1e-9, 'two of eight left out');
  assert.ok(Number.isNaN(interquartileMean([])));
  assert.deepEqual([0, 1, 2, 3].map(floorFirst), [true, false, true, false]);
});

test('a row missing from the script-free HTML fails the no-JavaScript budget', () => {
  const r = byName([page('')], { expected: ['fixture-a', 'fixture-b'], missing: ['fixture-b'] })[
    'no JavaScript needed to read the table'
  ]!;
  assert.equal(r.pass, false);
  assert.match(r.actual, /fixture-b/);
  assert.equal(
    byName([page('')], { expected: [], missing: [] })['no JavaScript needed to read the table']!.pass,
    false,
    'a check that looked for no rows proves nothing',
  );
});

test('any request to another origin fails', () => {
  const r = byName([page(''), page('exercise/', { foreign: ['https://fonts.example/fixture.css'] })])[
    'requests to other origins'
  ]!;
  assert.equal(r.pass, false);
  assert.match(r.actual, /fonts\.example/);
});

test('the budget needs the table page among the measured pages', () => {
  assert.throws(() => evaluateBudgets({ pages: [page('exercise/')], tablePath: '', noJs: allRows }), /table page/);
});

test('childCpuMs adds user and system time of the children (second line of bash times)', () => {
  assert.equal(childCpuMs('0m0.014s 0m0.002s\n1m2.500s 0m0.250s\n'), 62_750);
  assert.throws(() => childCpuMs('0m0.014s 0m0.002s\n'), /unexpected output/);
});

test('markdownTable right-aligns numeric columns and escapes pipes', () => {
  assert.equal(
    markdownTable(
      ['page', 'bytes'],
      [
        ['a|b', 12],
        ['c', 3],
      ],
    ),
    '| page | bytes |\n|---|---:|\n| a\\|b | 12 |\n| c | 3 |',
  );
});

test('syntheticAxes yields N schema-valid, clearly synthetic axes shaped like their templates', () => {
  const templates = realAxes();
  const axes = syntheticAxes(25, templates);
  assert.equal(axes.length, 25);
  assert.equal(new Set(axes.map((a) => a.id)).size, 25);
  axes.forEach((a, i) => {
    assert.equal(axisSchema.safeParse(a).success, true, a.id);
    assert.equal(a.id, `${SYNTHETIC_PREFIX}${String(i + 1).padStart(4, '0')}`);
    assert.match(a.question, /synthetic/);
    const t = templates[i % templates.length]!;
    assert.deepEqual(Object.keys(a.cells), Object.keys(t.cells));
    for (const [b, cell] of Object.entries(a.cells)) {
      assert.deepEqual(cell.cites, t.cells[b]!.cites);
      assert.equal(cell.measure?.exercise, t.cells[b]!.measure?.exercise);
      assert.equal(cell.measure?.evidence, undefined, 'synthetic cells never claim evidence');
      assert.ok(cell.answer.length >= t.cells[b]!.answer.length && /^Synthetic/.test(cell.answer));
      assert.ok(
        /^Synthetic/.test(cell.short) && wordCount(cell.short) === Math.max(wordCount(t.cells[b]!.short), 3),
        `${a.id}/${b} short: ${cell.short}`,
      );
    }
  });
  assert.deepEqual(syntheticAxes(25, templates), axes, 'the same seed gives the same table');
});

test('the filler is plain words only: no number, version or identifier for the token rule to check (a 600-axis scale once gave "146 minute")', () => {
  const words = vocabulary(realAxes());
  assert.ok(words.length > 100, `${words.length} words`);
  assert.deepEqual(
    words.filter((w) => !/^[a-z]+$/.test(w)),
    [],
  );
});

test('writeScaledContent grows a copy of content/ to N axes that the real loader and model accept', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const real = realAxes().length;
  const ids = writeScaledContent('content', join(dir, 'content'), 60);
  assert.equal(ids.length, 60);
  const model = await loadTable(join(dir, 'content'));
  assert.deepEqual(
    model.axes.map((r) => r.id),
    ids,
  );
  assert.equal(model.axes.filter((r) => r.id.startsWith(SYNTHETIC_PREFIX)).length, 60 - real);
  assert.equal(realAxes().length, real, 'the real content folder is untouched');
  assert.throws(() => writeScaledContent('content', join(dir, 'small'), real - 1), /cannot scale/);
});

test('marginalGzip charges a part what the page saves without it', () => {
  const part = Array.from({ length: 300 }, (_, i) => `<p class="fixture">row ${(i * 7919) % 1000}</p>`).join('');
  const full = `<html><body><h1>fixture</h1>${part}</body></html>`;
  const [cost] = marginalGzip(full, [
    { name: 'fixture rows', count: 300, without: '<html><body><h1>fixture</h1></body></html>' },
  ]);
  assert.equal(cost!.gzip, sizeOf(full).gzip - sizeOf('<html><body><h1>fixture</h1></body></html>').gzip);
  assert.ok(cost!.gzip > 500, 'three hundred distinct rows cost something');
  assert.deepEqual({ name: cost!.name, count: cost!.count }, { name: 'fixture rows', count: 300 });
});

test('figures: each sized as its standalone file and its largest inline copy; over 8 KB gzip fails, naming it', () => {
  const small = '<svg class="fig"><text>FIXTURE</text></svg>';
  const files = new Map([
    ['fixture-a.0123456789.svg', small],
    ['fixture-b.abcdef0123.svg', small],
  ]);
  const pages = [
    {
      path: '',
      html: '<figure class="flow-figure" data-figure="fixture-a"><img src="/figures/fixture-a.0123456789.svg"></figure>',
    },
    {
      path: 'rows/x/',
      html: `<p>x</p><figure class="flow-figure" data-figure="fixture-a" data-mode="inline"><div>${small}${small}</div></figure>`,
    },
  ];
  const figures = measureFigures(pages, files);
  assert.deepEqual(
    figures.map((f) => [f.id, f.inlineOn, f.imageOn]),
    [
      ['fixture-a', ['rows/x/'], ['']],
      ['fixture-b', [], []],
    ],
  );
  assert.deepEqual(figures[0]!.inline, sizeOf(small + small), "inline, every lane's <svg> together");
  assert.deepEqual(figures[0]!.file, sizeOf(small));
  assert.equal(figureBudget(figures).pass, true);
  // Random text barely compresses: 9 KB of it is over the budget.
  const big = randomBytes(12 * 1024).toString('base64');
  const over = measureFigures([], new Map([['fixture-big.0123456789.svg', `<svg>${big}</svg>`]]));
  const result = figureBudget(over);
  assert.equal(result.pass, false, result.actual);
  assert.match(result.actual, /fixture-big/);
  assert.equal(figureBudget([]).pass, false, 'no figure measured is no pass');
  assert.throws(
    () => measureFigures([{ path: 'p/', html: '<figure data-figure="nope"></figure>' }], files),
    /no file in figures/,
  );
});
