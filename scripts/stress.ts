// npm run test:stress [-- --runs 5 --bases /,/kube-proxy-backends/ --load 2]
// A load test of the e2e tests: for each base, builds the site, then runs the whole e2e suite
// --runs times in a row while --load busy loops (default: one per CPU) keep every core busy, and
// prints the failures per test. A test that depends on timing fails here sooner or later; a
// suite that passes every loaded run is one CI can trust. Not part of `npm test`: run it before
// closing work on the e2e tests, and whenever you add one. Exit 1 when any run has a failure.
//
// The load is bounded: each busy loop is a separate process that exits by itself after
// --slice seconds (default 60) and is replaced while a run lasts, so the load stops within a
// slice of the suite finishing, even if this script is killed with SIGKILL.
//
// Per run it keeps, under test-results/stress/: the list reporter's output (<base>-run-N.log),
// the JSON report (<base>-run-N.json) and the traces of failed tests (<base>-run-N/).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { normaliseBase } from '../src/lib/base.ts';

const root = resolve(import.meta.dirname, '..');
const outRoot = join(root, 'test-results/stress');

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    bases: { type: 'string', default: '/,/kube-proxy-backends/' },
    load: { type: 'string', default: String(os.availableParallelism()) },
    slice: { type: 'string', default: '60' },
  },
});
const runs = Number(args.runs);
const bases = args.bases.split(',').filter(Boolean).map(normaliseBase);
const loops = Number(args.load);
const sliceMs = Number(args.slice) * 1000;
if (!(runs >= 1 && loops >= 0 && sliceMs >= 1000)) {
  console.error('usage: node scripts/stress.ts [--runs N>=1] [--bases /,/sub/] [--load N>=0] [--slice seconds>=1]');
  process.exit(2);
}

const log = (line: string) => console.log(`stress: ${line}`);
const minutes = (ms: number) => `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`;
const loadAverage = () => os.loadavg()[0]!.toFixed(1);
const slug = (base: string) => (base === '/' ? 'root' : base.replace(/^\/|\/$/g, '').replaceAll('/', '-'));

// ---- the load generator -------------------------------------------------------------------

/** Keeps `count` busy loops running until stopped; each loop exits by itself after one slice. */
function startLoad(count: number): () => void {
  let running = true;
  const children = new Set<ChildProcess>();
  const spawnLoop = () => {
    const child = spawn(process.execPath, ['-e', `const end = Date.now() + ${sliceMs}; while (Date.now() < end);`], { stdio: 'ignore' });
    children.add(child);
    child.once('exit', () => {
      children.delete(child);
      if (running) spawnLoop();
    });
  };
  for (let i = 0; i < count; i++) spawnLoop();
  return () => {
    running = false;
    for (const child of children) child.kill();
  };
}

// ---- one e2e run --------------------------------------------------------------------------

interface JsonTest { status: 'expected' | 'unexpected' | 'flaky' | 'skipped'; results: { error?: { message?: string } }[] }
interface JsonSpec { title: string; file: string; tests: JsonTest[] }
interface JsonSuite { title: string; specs?: JsonSpec[]; suites?: JsonSuite[] }
interface JsonReport { suites?: JsonSuite[]; errors?: { message?: string }[] }

interface RunResult {
  base: string;
  run: number;
  ms: number;
  exit: number | null;
  passed: number;
  failed: string[];
  skipped: number;
  /** First lines of each failure's error, by test. */
  errors: Map<string, string>;
  load: [string, string];
}

/** Every test in a file's suite: "file › describe › title" and its outcome. */
function* testsOf(suite: JsonSuite, describes: string[] = []): Generator<{ name: string; test: JsonTest }> {
  for (const spec of suite.specs ?? []) for (const test of spec.tests) yield { name: [spec.file, ...describes, spec.title].join(' › '), test };
  for (const child of suite.suites ?? []) yield* testsOf(child, [...describes, child.title]);
}

let current: ChildProcess | undefined;
let stopLoad = () => {};

async function e2eRun(base: string, run: number): Promise<RunResult> {
  const name = `${slug(base)}-run-${run}`;
  const json = join(outRoot, `${name}.json`);
  const logFile = join(outRoot, `${name}.log`);
  rmSync(json, { force: true });
  const started = Date.now();
  const loadBefore = loadAverage();
  stopLoad = startLoad(loops);
  const out = createWriteStream(logFile);
  const exit = await new Promise<number | null>((done) => {
    current = spawn(join(root, 'node_modules/.bin/playwright'), ['test', '--reporter=list,json', `--output=${join(outRoot, name)}`], {
      cwd: root, env: { ...process.env, SITE_BASE: base, PLAYWRIGHT_JSON_OUTPUT_FILE: json, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    current.stdout!.pipe(out, { end: false });
    current.stderr!.pipe(out, { end: false });
    current.once('exit', (code) => done(code));
  });
  stopLoad();
  out.end();
  const result: RunResult = { base, run, ms: Date.now() - started, exit, passed: 0, failed: [], skipped: 0, errors: new Map(), load: [loadBefore, loadAverage()] };
  let report: JsonReport;
  try {
    report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
  } catch {
    result.failed.push('(no report: the run did not finish)');
    return result;
  }
  for (const e of report.errors ?? []) {
    result.failed.push('(run error outside any test)');
    result.errors.set('(run error outside any test)', (e.message ?? '').split('\n').slice(0, 3).join(' / '));
  }
  for (const suite of report.suites ?? []) {
    for (const { name: test, test: t } of testsOf(suite)) {
      if (t.status === 'skipped') result.skipped += 1;
      else if (t.status === 'expected') result.passed += 1;
      else {
        result.failed.push(test);
        const message = t.results.map((r) => r.error?.message ?? '').find(Boolean) ?? t.status;
        result.errors.set(test, message.replace(/\u001b\[[0-9;]*m/g, '').split('\n').filter(Boolean).slice(0, 3).join(' / '));
      }
    }
  }
  if (exit !== 0 && result.failed.length === 0) result.failed.push(`(playwright exited ${exit} with no failed test)`);
  return result;
}

// ---- main ---------------------------------------------------------------------------------

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopLoad();
    current?.kill(signal);
    process.exit(130);
  });
}

mkdirSync(outRoot, { recursive: true });
const started = Date.now();
log(`${runs} runs of the e2e suite at each of ${bases.join(', ')}, under ${loops} busy loop(s) on ${os.availableParallelism()} CPUs (load average ${loadAverage()})`);
const results: RunResult[] = [];
for (const base of bases) {
  log(`building with SITE_BASE=${base}`);
  const build = spawnSync('bash', [join(root, 'scripts/task.sh'), 'build'], { cwd: root, env: { ...process.env, SITE_BASE: base }, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) {
    console.error(`stress: the build failed (exit ${build.status})`);
    process.exit(1);
  }
  for (let run = 1; run <= runs; run++) {
    const r = await e2eRun(base, run);
    results.push(r);
    log(`${base} run ${run}/${runs}: ${r.passed} passed, ${r.failed.length} failed, ${r.skipped} skipped in ${minutes(r.ms)} (load average ${r.load[0]} -> ${r.load[1]})`);
    for (const test of r.failed) log(`  FAILED ${test}${r.errors.has(test) ? `\n          ${r.errors.get(test)}` : ''}`);
  }
}

// Failures per test and base, over all runs.
const failures = new Map<string, Map<string, number>>();
for (const r of results) {
  for (const test of r.failed) {
    const byBase = failures.get(test) ?? new Map<string, number>();
    byBase.set(r.base, (byBase.get(r.base) ?? 0) + 1);
    failures.set(test, byBase);
  }
}
const total = results.reduce((n, r) => n + r.failed.length, 0);
console.log('');
console.log(`| test | ${bases.map((b) => `failed at ${b}`).join(' | ')} |`);
console.log(`|---|${bases.map(() => '---:').join('|')}|`);
if (failures.size === 0) console.log(`| every test (${results[0]?.passed ?? 0} passed, ${results[0]?.skipped ?? 0} skipped per run) | ${bases.map(() => `0 of ${runs}`).join(' | ')} |`);
for (const [test, byBase] of [...failures].sort()) console.log(`| ${test} | ${bases.map((b) => `${byBase.get(b) ?? 0} of ${runs}`).join(' | ')} |`);
console.log('');
for (const base of bases) {
  const mine = results.filter((r) => r.base === base);
  log(`${base}: ${mine.length} runs, ${mine.reduce((n, r) => n + r.failed.length, 0)} failures; run times ${mine.map((r) => minutes(r.ms)).join(', ')}`);
}
log(`${total} failures in ${results.length} loaded runs; wall time ${minutes(Date.now() - started)}`);
process.exit(total === 0 ? 0 : 1);
