// npm run bench [-- --sizes 60,600 --runs 1 --lighthouse-runs 3 --clean-runs 8]
// Times --clean-runs clean builds of the site (no build cache, no output folder: how CI and a host's
// deploy build start), each paired with one of a bare Astro project, after one pair not counted,
// against their budget; then builds the site into .bench/ (never dist/), loads
// every page cold in Chromium and reports what it
// downloads, runs Lighthouse on the table page and an axis page (mobile, mobile-applied and desktop presets, medians
// of --lighthouse-runs; 0 skips it), checks the budgets, then rebuilds with the table grown to
// synthetic sizes to show how build time and the table page's weight grow. Progress goes to stderr; the
// Markdown report to
// stdout, and every figure to .bench/results.json.
import { spawn } from 'node:child_process';
import { openSync, closeSync, readFileSync, readdirSync, existsSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import os from 'node:os';
import { chromium, type Browser } from '@playwright/test';
import { normaliseBase } from '../src/lib/base.ts';
import { serve } from './lib/serve.ts';
import { readerBrowserLaunchOptions } from './lib/chromium.ts';
import { builtPagesIn } from './lib/site-pages.ts';
import { loadContent } from '../src/lib/content/load.ts';
import { routes } from '../src/lib/routes.ts';
import {
  sizeOf,
  addSizes,
  throughTable,
  firstRenderGzip,
  childCpuMs,
  marginalGzip,
  TABLE_PAGE_PARTS,
  evaluateBudgets,
  formatBudgets,
  markdownTable,
  formatBytes,
  writeScaledContent,
  median,
  floorFirst,
  lighthouseRows,
  LIGHTHOUSE_HEADER,
  BUDGET,
  GZIP_LEVEL,
  ZERO,
  measureFigures,
  type PageMeasure,
  type NoJsCheck,
  type Size,
  type LighthouseSummary,
  type BuildPair,
  FLOOR_PROJECT,
} from './lib/bench.ts';

const root = resolve(import.meta.dirname, '..');
// Lighthouse is a package of its own (tools/lighthouse/), installed by tools/task.sh on the bench's first
// run, so the project's own install (npm ci, npm start, npm test) never downloads it.
const lighthouseVersion = () =>
  (
    JSON.parse(readFileSync(join(root, 'tools/lighthouse/node_modules/lighthouse/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
const benchDir = join(root, '.bench');
const realContent = join(root, 'content');
const bin = (name: string) => join(root, 'node_modules/.bin', name);
const base = normaliseBase(process.env.SITE_BASE);
// Built as a deploy builds it (an address of its own, as the test builds: tools/task.sh TEST_SITE_URL).
const deployUrl = process.env.SITE_URL || process.env.TEST_SITE_URL || 'https://kube-proxy-study.example';
const TABLE_PATH = ''; // the comparison table is the home page

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '60,600' },
    runs: { type: 'string', default: '1' },
    'lighthouse-runs': { type: 'string', default: '3' },
    'clean-runs': { type: 'string', default: '8' },
  },
});
const sizes = args.sizes.split(',').filter(Boolean).map(Number);
const runs = Number(args.runs);
const lighthouseRuns = Number(args['lighthouse-runs']);
const cleanRuns = Number(args['clean-runs']);
if (
  sizes.some((n) => !Number.isInteger(n) || n < 1) ||
  !Number.isInteger(runs) ||
  runs < 1 ||
  !Number.isInteger(lighthouseRuns) ||
  lighthouseRuns < 0 ||
  !Number.isInteger(cleanRuns) ||
  cleanRuns < 0
)
  throw new Error('usage: npm run bench -- [--sizes 60,600] [--runs 1] [--lighthouse-runs 3] [--clean-runs 8]');

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Runs a command to completion, its output appended to `logFile`; returns wall and CPU milliseconds. */
function timed(
  cmd: string,
  argv: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
): Promise<{ wall: number; cpu: number }> {
  const fd = openSync(logFile, 'a');
  const start = performance.now();
  return new Promise((done, fail) => {
    // bash's `times` reports the command's CPU time (it and every child it waited for) on fd 3.
    const child = spawn('bash', ['-c', '"$@"; s=$?; times >&3; exit $s', 'bench', cmd, ...argv], {
      cwd: root,
      env,
      stdio: ['ignore', fd, fd, 'pipe'],
    });
    let times = '';
    child.stdio[3]!.on('data', (d: Buffer) => (times += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      closeSync(fd);
      const wall = performance.now() - start;
      if (code === 0) done({ wall, cpu: childCpuMs(times) });
      else
        fail(
          new Error(
            `${relative(root, cmd)} ${argv.join(' ')} exited ${code}; see ${relative(root, logFile)}:\n` +
              readFileSync(logFile, 'utf8').split('\n').slice(-25).join('\n'),
          ),
        );
    });
  });
}

/** Wall and CPU milliseconds of the build, and the 1-minute load average at the start. */
interface BuildTime {
  astro: number;
  cpu: number;
  load: number;
}

/**
 * `npm run build` (astro build, which runs Pagefind in its astro:build:done hook) into .bench/out-<label>,
 * with a build cache of its own, emptied first: every bench run times the same work (the synthetic
 * axes' preview images and figure layouts made afresh; the real ones read from the repository). With
 * the shared cache, a second run found the first run's images and timed the 600-axis build at a sixth.
 */
async function build(label: string, contentDir: string): Promise<{ outDir: string; times: BuildTime }> {
  const outDir = join(benchDir, `out-${label}`);
  const cache = join(benchDir, `cache-${label}`);
  const logFile = join(benchDir, `build-${label}.log`);
  for (const dir of [outDir, cache]) rmSync(dir, { recursive: true, force: true });
  writeFileSync(logFile, '');
  const load = os.loadavg()[0]!;
  const env = {
    ...process.env,
    ASTRO_TELEMETRY_DISABLED: '1',
    OUT_DIR: outDir,
    CACHE_DIR: cache,
    CONTENT_DIR: contentDir,
    SITE_BASE: base,
    SITE_URL: deployUrl,
  };
  const astro = await timed(bin('astro'), ['build'], env, logFile);
  return { outDir, times: { astro: astro.wall, cpu: astro.cpu, load } };
}

/**
 * `astro build` of the real content from a clean state: a build cache of its own, emptied first, and
 * no output folder. What it costs is what CI and every host's deploy build pay. Each is paired with a
 * clean build of the floor (FLOOR_PROJECT), whose time it is measured against: the floor first in
 * one pair, the site first in the next (floorFirst), so a machine that drifts over the run weighs on
 * both alike. A first pair, not counted, warms the file cache and Node's compile cache for both.
 */
async function cleanBuilds(count: number): Promise<BuildPair[]> {
  const floorDir = join(benchDir, 'floor');
  rmSync(floorDir, { recursive: true, force: true });
  for (const [file, text] of Object.entries(FLOOR_PROJECT)) {
    mkdirSync(dirname(join(floorDir, file)), { recursive: true });
    writeFileSync(join(floorDir, file), text);
  }
  const pairs: BuildPair[] = [];
  for (let i = -1; i < count; i++) {
    const cache = join(benchDir, 'cache-clean');
    const outDir = join(benchDir, 'out-clean');
    for (const dir of [cache, outDir, join(floorDir, 'dist'), join(floorDir, '.astro'), join(floorDir, 'node_modules')])
      rmSync(dir, { recursive: true, force: true });
    const logFile = join(benchDir, 'build-clean.log');
    writeFileSync(logFile, '');
    const floorBuild = () =>
      timed(bin('astro'), ['build', '--root', floorDir], { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' }, logFile);
    const env = {
      ...process.env,
      ASTRO_TELEMETRY_DISABLED: '1',
      OUT_DIR: outDir,
      CACHE_DIR: cache,
      CONTENT_DIR: realContent,
      SITE_BASE: base,
      SITE_URL: deployUrl,
    };
    const siteBuild = () => timed(bin('astro'), ['build'], env, logFile);
    let site, floor;
    if (floorFirst(i)) {
      floor = await floorBuild();
      site = await siteBuild();
    } else {
      site = await siteBuild();
      floor = await floorBuild();
    }
    if (i >= 0) pairs.push({ site, floor });
    log(
      `clean build ${i < 0 ? 'warm-up (not counted)' : `${i + 1}/${count}`}: ${seconds(site.wall)}, CPU ${seconds(site.cpu)}; floor ${seconds(floor.wall)}, CPU ${seconds(floor.cpu)}` +
        ` (load average ${os.loadavg()[0]!.toFixed(1)})`,
    );
  }
  return pairs;
}

async function buildRuns(label: string, contentDir: string) {
  const times: BuildTime[] = [];
  let outDir = '';
  for (let i = 1; i <= runs; i++) {
    log(`building ${label}${runs > 1 ? ` (run ${i}/${runs})` : ''}`);
    const b = await build(label, contentDir);
    outDir = b.outDir;
    times.push(b.times);
    log(
      `  astro build ${seconds(b.times.astro)}, CPU ${seconds(b.times.cpu)} (load average ${b.times.load.toFixed(1)})`,
    );
  }
  return { outDir, times };
}

const isNetwork = (url: string) => /^https?:/.test(url);

/** One cold load (fresh context, empty cache) until the network is idle. */
export async function measurePage(browser: Browser, siteUrl: string, path: string): Promise<PageMeasure> {
  const origin = new URL(siteUrl).origin;
  const context = await browser.newContext();
  const foreign: string[] = [];
  const urls: string[] = [];
  const bodies: Promise<void>[] = [];
  const by: Record<'document' | 'script', Size[]> = { document: [], script: [] };
  const stylesheets = new Map<string, Size>();
  let documentText = '';
  // Other origins are counted, then refused, so a slip never makes the bench depend on the network.
  await context.route(
    (url) => isNetwork(url.href) && url.origin !== origin,
    (route) => route.abort('blockedbyclient'),
  );
  context.on('request', (req) => {
    if (!isNetwork(req.url())) return;
    urls.push(req.url());
    if (new URL(req.url()).origin !== origin) foreign.push(req.url());
  });
  context.on('response', (res) => {
    const type = res.request().resourceType();
    if (type === 'document' || type === 'stylesheet' || type === 'script')
      bodies.push(
        res.body().then((b) => {
          if (type === 'stylesheet') stylesheets.set(res.url(), sizeOf(b));
          else by[type].push(sizeOf(b));
          if (type === 'document') documentText = b.toString('utf8');
        }),
      );
  });
  const page = await context.newPage();
  const response = await page.goto(siteUrl + path, { waitUntil: 'networkidle' });
  if (!response?.ok() && path !== '404.html') throw new Error(`${siteUrl + path}: HTTP ${response?.status()}`);
  await Promise.all(bodies);
  const inline = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLScriptElement>('script:not([src])')]
      .filter((s) => s.type === '' || s.type === 'module' || /javascript/.test(s.type))
      .map((s) => s.textContent ?? '')
      .join('\n'),
  );
  // Stylesheets linked for a medium the screen does not match (print): not render-blocking.
  const otherMedia = new Set(
    await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet]')]
        .filter((l) => l.media !== '' && !matchMedia(l.media).matches)
        .map((l) => l.href),
    ),
  );
  await context.close();
  return {
    path,
    html: addSizes(...by.document),
    throughTable: throughTable(documentText),
    css: addSizes(...[...stylesheets].filter(([u]) => !otherMedia.has(u)).map(([, size]) => size)),
    otherMediaCss: addSizes(...[...stylesheets].filter(([u]) => otherMedia.has(u)).map(([, size]) => size)),
    js: addSizes(...by.script),
    inlineJs: inline === '' ? ZERO : sizeOf(inline),
    requests: urls.length,
    urls,
    foreign,
  };
}

/**
 * The table page with scripts disabled: is every row there, with content? And what does each
 * part of the page cost (the serialised page with and without it)?
 */
export async function inspectTablePage(browser: Browser, siteUrl: string, expected: string[]) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(siteUrl + TABLE_PATH);
  const missing = await page.evaluate(
    (ids) =>
      ids.filter((id) => {
        const row = document.getElementById(id);
        return !row || row.tagName !== 'TR' || (row.textContent ?? '').trim() === '';
      }),
    expected,
  );
  const { full, cuts } = await page.evaluate(
    (parts) => {
      const html = (root: Element) => `<!DOCTYPE html>${root.outerHTML}`;
      return {
        full: html(document.documentElement),
        cuts: parts.map(({ name, selector }) => {
          const copy = document.documentElement.cloneNode(true) as Element;
          const found = copy.querySelectorAll(selector);
          found.forEach((el) => el.remove());
          return { name, count: found.length, without: html(copy) };
        }),
      };
    },
    [...TABLE_PAGE_PARTS],
  );
  await context.close();
  const noJs: NoJsCheck = { expected, missing };
  return { noJs, parts: marginalGzip(full, cuts), serialisedGzip: sizeOf(full).gzip };
}

const axisIds = async (contentDir: string) => (await loadContent(contentDir)).axes.map((a) => a.id);

/**
 * Builds one content folder and measures it: every page, or only the table page; with
 * `lighthouse` runs, Lighthouse on the table page and the first axis's page too.
 */
async function benchSite(browser: Browser, label: string, contentDir: string, allPages: boolean, lighthouse = 0) {
  const { outDir, times } = await buildRuns(label, contentDir);
  const paths = builtPagesIn(outDir).sort((a, b) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)));
  const server = await serve(outDir, base);
  try {
    log(`measuring ${allPages ? `${paths.length} pages` : 'the table page'} of ${label} in Chromium`);
    const pages: PageMeasure[] = [];
    for (const path of allPages ? paths : [TABLE_PATH]) pages.push(await measurePage(browser, server.siteUrl, path));
    const ids = await axisIds(contentDir);
    const table = await inspectTablePage(browser, server.siteUrl, ids);
    let lh: LighthouseSummary[] | undefined;
    let lighthouseLoad: number | undefined;
    if (lighthouse > 0) {
      lighthouseLoad = os.loadavg()[0]!;
      const targets = [TABLE_PATH, routes.axisPage(ids[0]!)].map((path) => ({
        label: `/${path}`,
        url: server.siteUrl + path,
      }));
      const { runLighthouse } = await import('./lighthouse/lighthouse.ts');
      lh = await runLighthouse(targets, lighthouse, log);
    }
    // The figures' drawings, from the built files: each standalone SVG, and each inline copy.
    const figureDir = join(outDir, 'figures');
    const figureFiles = new Map(
      existsSync(figureDir)
        ? readdirSync(figureDir).map((f) => [f, readFileSync(join(figureDir, f), 'utf8')] as const)
        : [],
    );
    const figures = measureFigures(
      paths.map((path) => ({
        path,
        html: readFileSync(join(outDir, path.endsWith('.html') ? path : join(path, 'index.html')), 'utf8'),
      })),
      figureFiles,
    );
    return {
      label,
      axes: table.noJs.expected.length,
      pageCount: paths.length,
      times,
      pages,
      lighthouse: lh,
      lighthouseLoad,
      figures,
      ...table,
    };
  } finally {
    await server.stop();
  }
}

const timeCell = (xs: number[]) =>
  xs.length === 1
    ? seconds(xs[0]!)
    : `${seconds(median(xs))} (${seconds(Math.min(...xs))}–${seconds(Math.max(...xs))})`;

async function main() {
  mkdirSync(benchDir, { recursive: true });
  const cleanLoad = os.loadavg()[0]!;
  const clean = cleanRuns > 0 ? await cleanBuilds(cleanRuns) : undefined;
  const browser = await chromium.launch(readerBrowserLaunchOptions);
  try {
    const real = await benchSite(browser, 'site', realContent, true, lighthouseRuns);
    const scaled = [];
    for (const total of sizes) {
      const dir = join(benchDir, `content-${total}`);
      writeScaledContent(realContent, dir, total);
      scaled.push(await benchSite(browser, `${total}-axes`, dir, false));
    }
    const machine = {
      cpus: os.availableParallelism(),
      cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
      ramGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      chromium: browser.version(),
      os: `${os.type()} ${os.release()}`,
    };
    writeFileSync(
      join(benchDir, 'results.json'),
      JSON.stringify(
        { base, gzipLevel: GZIP_LEVEL, runs, lighthouseRuns, machine, cleanBuilds: clean, real, scaled },
        null,
        2,
      ),
    );

    const budgets = evaluateBudgets({
      pages: real.pages,
      tablePath: TABLE_PATH,
      noJs: real.noJs,
      lighthouse: real.lighthouse,
      figures: real.figures,
      cleanBuilds: clean,
    });
    const figureRows = real.figures.map((f) => [
      f.id,
      f.file.raw,
      f.file.gzip,
      f.inline.raw,
      f.inline.gzip,
      f.inlineOn.map((p) => `/${p}`).join(', ') || '-',
      f.imageOn.map((p) => `/${p}`).join(', ') || '-',
    ]);
    const pageRows = real.pages.map((p) => [
      `/${p.path}`,
      p.html.raw,
      p.html.gzip,
      p.css.raw,
      p.css.gzip,
      p.js.raw,
      p.js.gzip,
      p.inlineJs.gzip,
      p.requests,
    ]);
    const scaleRows = [real, ...scaled].map((s) => {
      const t = s.pages.find((p) => p.path === TABLE_PATH)!;
      const first = firstRenderGzip(t);
      return [
        s.axes,
        s.pageCount,
        timeCell(s.times.map((x) => x.astro)),
        timeCell(s.times.map((x) => x.cpu)),
        t.html.raw,
        t.html.gzip,
        first ?? '-',
        first === undefined
          ? 'FAIL (no table)'
          : first <= BUDGET.tableFirstRenderGzip
            ? 'PASS'
            : `FAIL (+${formatBytes(first - BUDGET.tableFirstRenderGzip)})`,
        s.noJs.missing.length === 0 ? 'PASS' : `FAIL (${s.noJs.missing.length} missing)`,
      ];
    });

    const loads = [real, ...scaled].flatMap((s) => s.times.map((t) => t.load));
    const sites = [real, ...scaled];
    const partRows = [
      ...TABLE_PAGE_PARTS.map(({ name }, i) => [name, ...sites.map((x) => x.parts[i]!.gzip)]),
      ['whole page (as parsed and serialised)', ...sites.map((x) => x.serialisedGzip)],
    ];
    const out = [
      '## Performance',
      '',
      `Measured with \`npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\`` +
        ` (SITE_BASE=${base}) on ${machine.cpus} CPUs (${machine.cpu}), ${machine.ramGiB} GiB RAM, ${machine.os},` +
        ` Node ${machine.node}, Chromium ${machine.chromium}.`,
      `Sizes are bytes; "gzip" is each file compressed on its own at level ${GZIP_LEVEL}. Each page was loaded cold` +
        ' (fresh browser context) until the network was idle; requests count everything the browser fetched, the' +
        ' document included. Build time is the wall time of `astro build`, Pagefind indexing included; build CPU is' +
        ' the user + system time of its processes, which a busy machine disturbs less than wall time. ' +
        (runs > 1 ? `Both are the median of ${runs} builds (min–max).` : 'Both are from one build.') +
        ` The 1-minute load average when the builds started ranged from ${Math.min(...loads).toFixed(1)} to` +
        ` ${Math.max(...loads).toFixed(1)} on these ${machine.cpus} CPUs.`,
      '',
      '### Budgets',
      '',
      ...(clean
        ? [
            `Clean build: \`astro build\` with an empty build cache and no output folder, as CI and a host's deploy build start,` +
              ` ${cleanRuns} time${cleanRuns === 1 ? '' : 's'}, each paired with a clean build of a bare Astro + MDX project of one page` +
              ' (the floor every Astro build pays), the floor first in one pair and the site first in the next, after one pair not counted;' +
              " the budget is the interquartile mean of the pairs' ratios (the quarter at each end left out, the rest averaged on a log" +
              ' scale), wall and CPU (user + system of the processes), so it holds on a faster or slower machine and one disturbed pair' +
              ` does not decide it. The 1-minute load average when they started was ${cleanLoad.toFixed(1)}.`,
            '',
          ]
        : []),
      formatBudgets(budgets),
      '',
      ...(real.lighthouse
        ? [
            '### Lighthouse',
            '',
            `Lighthouse ${lighthouseVersion()} (npm) in the same Chromium, against the same server; each figure is the median of` +
              ` ${lighthouseRuns} run${lighthouseRuns === 1 ? '' : 's'}. Presets: Lighthouse's default (mobile: simulated slow 4G, 4x CPU` +
              ' slowdown), the same phone with the slowdown applied while the page loads (mobile-applied: Chromium throttles' +
              " CPU and network, TBT counts the tasks that ran after the first paint) and its desktop config. The default's LCP" +
              " and TBT are simulated from the trace of this machine's main thread: the 4x" +
              " slowdown multiplies tasks that a busy machine already runs slowly, so the benchmark index (Lighthouse's own measure" +
              ` of this machine's speed during the run; a typical desktop scores 1000 or more) says how far to trust them.` +
              ` The 1-minute load average when Lighthouse started was ${real.lighthouseLoad!.toFixed(1)}.`,
            '',
            markdownTable(LIGHTHOUSE_HEADER, lighthouseRows(real.lighthouse)),
            '',
          ]
        : []),
      '### Figures',
      '',
      "Each figure's drawing (content/figures/), built to SVG: the standalone file (its own light and dark colours),",
      `and the largest copy placed inline in a page (colours from the page). Budget: ${formatBytes(BUDGET.figureGzip)} gzip each.`,
      '',
      markdownTable(
        ['figure', 'file', 'file gzip', 'inline', 'inline gzip', 'inline on', 'as an image on'],
        figureRows,
      ),
      '',
      '### Pages',
      '',
      markdownTable(
        ['page', 'HTML', 'HTML gzip', 'CSS', 'CSS gzip', 'JS files', 'JS gzip', 'inline JS gzip', 'requests'],
        pageRows,
      ),
      '',
      '### Build time and table size as the table grows',
      '',
      'Axes beyond the real six are synthetic (`bench-axis-NNNN`, filler text the length of the real cells, real',
      'cites), generated into `.bench/` and never committed.',
      '',
      markdownTable(
        [
          'axes',
          'pages',
          'build',
          'build CPU',
          'table HTML',
          'HTML gzip',
          "to the table's end + CSS, gzip",
          `<= ${formatBytes(BUDGET.tableFirstRenderGzip)}`,
          'rows without JS',
        ],
        scaleRows,
      ),
      '',
      "### Where the table page's bytes go",
      '',
      "Marginal gzip bytes of each part: the page's gzip size minus that of the page without the part (parts",
      'overlap, so they do not add up).',
      '',
      markdownTable(['part', ...sites.map((x) => `${x.axes} axes`)], partRows),
      '',
    ].join('\n');
    process.stdout.write(out);
    log(`figures in ${relative(root, join(benchDir, 'results.json'))}`);
    const failed = budgets.filter((b) => !b.pass);
    if (failed.length > 0) {
      log(`over budget: ${failed.map((b) => `${b.name} (${b.actual}; limit ${b.limit})`).join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    await browser.close();
  }
}

if (import.meta.main) await main();
