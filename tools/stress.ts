// npm run test:stress [-- --runs 5 --load 2 --project root]
// A load test of the e2e tests: with both builds in place (npm run test:stress makes them), runs
// the whole e2e suite (both projects: root at /, subpath under the sub-path; --project picks one)
// --runs times in a row while --load busy loops (default: one per CPU) keep every core busy, and
// prints the failures per test and project. A test that depends on timing fails here sooner or later; a
// suite that passes every loaded run is one CI can trust. Not part of `npm test`: run it before
// closing work on the e2e tests, and whenever you add one. Exit 1 when any run has a failure.
//
// The load is bounded: each busy loop is a separate process that exits by itself after
// --slice seconds (default 60) and is replaced while a run lasts, so the load stops within a
// slice of the suite finishing, even if this script is killed with SIGKILL.
//
// Per run it keeps, under test-results/stress/: the list reporter's output (run-N.log), the JSON
// report (run-N.json) and the traces of failed tests (run-N/).
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, stripVTControlCharacters } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const outRoot = join(root, 'test-results/stress');

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    project: { type: 'string', multiple: true, default: [] },
    load: { type: 'string', default: String(os.availableParallelism()) },
    slice: { type: 'string', default: '60' },
  },
});
const runs = Number(args.runs);
const loops = Number(args.load);
const sliceMs = Number(args.slice) * 1000;
if (!(runs >= 1 && loops >= 0 && sliceMs >= 1000)) {
  console.error(
    'usage: node tools/stress.ts [--runs N>=1] [--load N>=0] [--slice seconds>=1] [--project root|subpath ...]',
  );
  process.exit(2);
}

const log = (line: string) => console.log(`stress: ${line}`);
const minutes = (ms: number) =>
  `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`;
const loadAverage = () => os.loadavg()[0]!.toFixed(1);

// ---- the load generator -------------------------------------------------------------------

/** Keeps `count` busy loops running until stopped; each loop exits by itself after one slice. */
function startLoad(count: number): () => void {
  let running = true;
  const children = new Set<ChildProcess>();
  const spawnLoop = () => {
    const child = spawn(process.execPath, ['-e', `const end = Date.now() + ${sliceMs}; while (Date.now() < end);`], {
      stdio: 'ignore',
    });
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

interface JsonTest {
  projectName: string;
  status: 'expected' | 'unexpected' | 'flaky' | 'skipped';
  results: { error?: { message?: string } }[];
}
interface JsonSpec {
  title: string;
  file: string;
  tests: JsonTest[];
}
interface JsonSuite {
  title: string;
  specs?: JsonSpec[];
  suites?: JsonSuite[];
}
interface JsonReport {
  suites?: JsonSuite[];
  errors?: { message?: string }[];
}

interface RunResult {
  run: number;
  ms: number;
  exit: number | null;
  passed: number;
  /** Failed tests, as "<project> › file › describe › title". */
  failed: string[];
  skipped: number;
  /** First lines of each failure's error, by test. */
  errors: Map<string, string>;
  load: [string, string];
}

/** Every test in a file's suite, per project: "file › describe › title", its project and its outcome. */
function* testsOf(
  suite: JsonSuite,
  describes: string[] = [],
): Generator<{ name: string; project: string; test: JsonTest }> {
  for (const spec of suite.specs ?? [])
    for (const test of spec.tests)
      yield { name: [spec.file, ...describes, spec.title].join(' › '), project: test.projectName, test };
  for (const child of suite.suites ?? []) yield* testsOf(child, [...describes, child.title]);
}

let current: ChildProcess | undefined;
let stopLoad = () => {};

async function e2eRun(run: number): Promise<RunResult> {
  const name = `run-${run}`;
  const json = join(outRoot, `${name}.json`);
  const logFile = join(outRoot, `${name}.log`);
  rmSync(json, { force: true });
  const started = Date.now();
  const loadBefore = loadAverage();
  stopLoad = startLoad(loops);
  const out = createWriteStream(logFile);
  const exit = await new Promise<number | null>((done) => {
    const projects = args.project.flatMap((p) => ['--project', p]);
    current = spawn(
      join(root, 'node_modules/.bin/playwright'),
      ['test', '--reporter=list,json', '--trace=retain-on-failure', `--output=${join(outRoot, name)}`, ...projects],
      {
        cwd: root,
        env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: json, FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    current.stdout!.pipe(out, { end: false });
    current.stderr!.pipe(out, { end: false });
    current.once('exit', (code) => done(code));
  });
  stopLoad();
  out.end();
  const result: RunResult = {
    run,
    ms: Date.now() - started,
    exit,
    passed: 0,
    failed: [],
    skipped: 0,
    errors: new Map(),
    load: [loadBefore, loadAverage()],
  };
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
    for (const { name, project, test: t } of testsOf(suite)) {
      const test = `${project} › ${name}`;
      if (t.status === 'skipped') result.skipped += 1;
      else if (t.status === 'expected') result.passed += 1;
      else {
        result.failed.push(test);
        const message = t.results.map((r) => r.error?.message ?? '').find(Boolean) ?? t.status;
        result.errors.set(test, stripVTControlCharacters(message).split('\n').filter(Boolean).slice(0, 3).join(' / '));
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
log(
  `${runs} runs of the e2e suite${args.project.length ? ` (${args.project.join(', ')})` : ''}, under ${loops} busy loop(s) on ${os.availableParallelism()} CPUs (load average ${loadAverage()})`,
);
const results: RunResult[] = [];
for (let run = 1; run <= runs; run++) {
  const r = await e2eRun(run);
  results.push(r);
  log(
    `run ${run}/${runs}: ${r.passed} passed, ${r.failed.length} failed, ${r.skipped} skipped in ${minutes(r.ms)} (load average ${r.load[0]} -> ${r.load[1]})`,
  );
  for (const test of r.failed) log(`  FAILED ${test}${r.errors.has(test) ? `\n          ${r.errors.get(test)}` : ''}`);
}

// Failures per test (and project), over all runs.
const failures = new Map<string, number>();
for (const r of results) for (const test of r.failed) failures.set(test, (failures.get(test) ?? 0) + 1);
const total = results.reduce((n, r) => n + r.failed.length, 0);
console.log('');
console.log('| project › test | failed runs |');
console.log('|---|---:|');
if (failures.size === 0)
  console.log(
    `| every test (${results[0]?.passed ?? 0} passed, ${results[0]?.skipped ?? 0} skipped per run) | 0 of ${runs} |`,
  );
for (const [test, n] of [...failures].sort()) console.log(`| ${test} | ${n} of ${runs} |`);
console.log('');
log(
  `${total} failures in ${results.length} loaded runs; run times ${results.map((r) => minutes(r.ms)).join(', ')}; wall time ${minutes(Date.now() - started)}`,
);
process.exit(total === 0 ? 0 : 1);
