// The check a pull request that publishes a measurement gets: the command of
// .github/workflows/measurement.yml's check step, read from the workflow file and run as it stands
// (bash -c, in a project root of its own) on FIXTURE captures (tests/fixtures/evidence-kit/captures/,
// never the site's content): a good one passes and builds the site with its cell Measured; refused
// ones fail with each problem located as `npm run evidence -- add` locates it. And the case of a
// pull request that committed what `add` wrote: accepted only when it is byte for byte that.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import * as cheerio from 'cheerio';
import { isolatedRoot } from '../support/astro-build.ts';
import { unmeasuredContent } from '../support/unmeasured-content.ts';
import { addCapture } from '../../tools/lib/evidence-kit.ts';
import { checkCaptures } from '../../tools/lib/capture-check.ts';
import { ContentError, describe } from '../../src/lib/problems.ts';
import { routes } from '../../src/lib/routes.ts';
import { loadTable } from '../../src/lib/content/load.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = join(root, 'tests/fixtures/evidence-kit/captures');
const scratch = mkdtempSync(join(tmpdir(), 'measurement-check-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

interface Workflow {
  on: { pull_request: { paths: string[] } };
  jobs: Record<string, { steps: Array<{ id?: string; run?: string; uses?: string; with?: Record<string, unknown> }> }>;
}
const workflow = parse(readFileSync(join(root, '.github/workflows/measurement.yml'), 'utf8')) as Workflow;
const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
/** The command the workflow runs on a pull request, exactly as it stands in the file. */
const command = steps.find((s) => s.id === 'check')?.run;

test('the workflow: on pull requests that touch captures/, with pages.yml’s Node, one command', () => {
  assert.ok(command, 'a step with id "check" and a run: command');
  assert.ok(workflow.on.pull_request.paths.includes('captures/**'));
  const pages = parse(readFileSync(join(root, '.github/workflows/pages.yml'), 'utf8')) as Workflow;
  const setup = (w: Workflow) =>
    Object.values(w.jobs)
      .flatMap((j) => j.steps)
      .find((s) => s.uses?.startsWith('actions/setup-node@'));
  assert.deepEqual(setup(workflow), setup(pages), 'actions/setup-node as pages.yml sets it up');
});

/** A project root of its own with `content` as its content/ and each FIXTURE capture under captures/FIXTURE-<name>/. */
function project(name: string, captures: string[], content: 'unmeasured' | 'today'): string {
  const dir = isolatedRoot(join(scratch, name));
  if (content === 'unmeasured') unmeasuredContent(join(dir, 'content'));
  else cpSync(join(root, 'content'), join(dir, 'content'), { recursive: true });
  // The committed link-preview cards, so the build draws only the cards the capture changes.
  cpSync(join(root, 'preview-images'), join(dir, 'preview-images'), { recursive: true });
  for (const c of captures) cpSync(join(fixtures, c), join(dir, 'captures', `FIXTURE-${c}`), { recursive: true });
  return dir;
}

/** The workflow's command, run in `dir` as the workflow runs it; OUT_DIR keeps the site it builds. */
function runWorkflowCommand(dir: string, env: Record<string, string> = {}) {
  const run = spawnSync('bash', ['-c', command!], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 600_000,
    env: { ...process.env, OUT_DIR: join(dir, 'checked-site'), ...env },
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}`, out: join(dir, 'checked-site') };
}

test('the workflow’s command passes a good FIXTURE capture and builds the site with its cell Measured', async () => {
  const dir = project('good', ['valid'], 'unmeasured');
  const before = readdirSync(join(dir, 'content/evidence')).sort();
  // A deploy's SITE_REPOSITORY (pages.yml sets one), so that the cells still To measure in this
  // content show their link to how a measurement is published (today's content has none left).
  const repo = 'https://github.com/example/kube-proxy-study';
  const { status, output, out } = runWorkflowCommand(dir, { SITE_REPOSITORY: repo });
  assert.equal(status, 0, output);
  assert.match(
    output,
    /captures\/FIXTURE-valid: accepted \(ex16-iptables-2000-01-01\), added to a copy of content\/ only/,
  );
  assert.match(output, /passed: 1 capture folder\(s\), and the site builds with them/);
  assert.ok(existsSync(join(out, routes.evidence('ex16-iptables-2000-01-01'), 'index.html')), 'its evidence page');
  const home = readFileSync(join(out, 'index.html'), 'utf8');
  assert.ok(home.includes(routes.evidence('ex16-iptables-2000-01-01')), 'the home page links the cell to it');
  assert.deepEqual(readdirSync(join(dir, 'content/evidence')).sort(), before, 'the checkout’s content/ is not written');
  const $ = cheerio.load(home);
  const publish = `${repo}/blob/main/docs/evidence.md#publishing-a-measurement`;
  const model = await loadTable(join(dir, 'content'));
  assert.equal($('.legend [data-legend=measured] a').attr('href'), publish);
  assert.equal(
    $(`td[data-provenance=to-measure] .cell-how a[href="${publish}"]`).length,
    model.counts['to-measure'] - 1,
    'each cell still To measure links to how a measurement is published',
  );
});

test('the workflow’s command fails on refused FIXTURE captures, each problem located (file:line:col, axis, backend, field)', () => {
  const dir = project('refused', ['mode-not-column', 'output-edited'], 'unmeasured');
  const { status, output } = runWorkflowCommand(dir);
  assert.equal(status, 1, output);
  assert.match(output, /evidence: check: refused \(2 problems\)/);
  assert.match(
    output,
    /^ {2}content\/comparison\/axes\.yaml:\d+:\d+: axis "endpoint-selection", backend "iptables", field "measure": the capture was taken with kube-proxy in mode "nftables" \(captures\/FIXTURE-mode-not-column\/capture\.env:6\), but this is backend "iptables"/m,
  );
  assert.match(
    output,
    /^ {2}captures\/FIXTURE-output-edited\/SHA256SUMS:4:66: field "ex16-iptables\/output": ex16-iptables\/output was edited after capture/m,
  );
  assert.doesNotMatch(output, /building the site/, 'a refused capture stops before the build');
});

test('the workflow’s command on today’s content: a new capture of a cell that has evidence is refused at that line', () => {
  const dir = project('today', ['valid'], 'today');
  const { status, output } = runWorkflowCommand(dir);
  assert.equal(status, 1, output);
  assert.match(
    output,
    /^ {2}content\/comparison\/axes\.yaml:\d+:\d+: axis "endpoint-selection", backend "iptables", field "measure\.evidence": this cell already has evidence "[^"]+"; remove it first to replace it/m,
  );
});

// --- a pull request that committed what `add` wrote --------------------------------------------

/** An unmeasured content copy with the good FIXTURE capture added by the kit, as a pull request commits it. */
async function addedContent(name: string): Promise<string> {
  const content = unmeasuredContent(join(scratch, name, 'content'));
  await addCapture(join(fixtures, 'valid'), content);
  return content;
}

test('check: evidence committed as `add` wrote it is accepted as in content/, and content/ is not written', async () => {
  const content = await addedContent('in-content');
  const evidence = join(content, 'evidence/ex16-iptables-2000-01-01.yaml');
  const before = [readFileSync(evidence, 'utf8'), readFileSync(join(content, 'comparison/axes.yaml'), 'utf8')];
  const checked = await checkCaptures([join(fixtures, 'valid')], content, join(scratch, 'in-content', 'copy'));
  assert.deepEqual(
    checked.map((c) => [c.state, c.ids]),
    [['in-content', ['ex16-iptables-2000-01-01']]],
  );
  assert.deepEqual(
    [readFileSync(evidence, 'utf8'), readFileSync(join(content, 'comparison/axes.yaml'), 'utf8')],
    before,
  );
});

test('check: committed evidence edited by hand is refused at the edited line', async () => {
  const content = await addedContent('edited');
  const evidence = join(content, 'evidence/ex16-iptables-2000-01-01.yaml');
  const text = readFileSync(evidence, 'utf8');
  assert.match(text, /^kernel: FIXTURE-kernel$/m);
  writeFileSync(evidence, text.replace(/^kernel: FIXTURE-kernel$/m, 'kernel: FIXTURE-kernel-typed-by-hand'));
  const line = text.split('\n').findIndex((l) => l.startsWith('kernel:')) + 1;
  await assert.rejects(
    checkCaptures([join(fixtures, 'valid')], content, join(scratch, 'edited', 'copy')),
    (error: unknown) => {
      assert.ok(error instanceof ContentError, String(error));
      assert.deepEqual(
        error.problems.map((p) => describe(p).replace(/^.*?(evidence\/)/, '$1')),
        [
          `evidence/ex16-iptables-2000-01-01.yaml:${line}:1: evidence "ex16-iptables-2000-01-01" is not what \`npm run evidence -- add tests/fixtures/evidence-kit/captures/valid\` writes from the capture (first difference on this line); evidence is never edited by hand: remove it and add the capture again`,
        ],
      );
      return true;
    },
  );
});

test('check: a committed measure.evidence line moved by hand is refused at the first line that differs', async () => {
  const content = await addedContent('moved');
  const axes = join(content, 'comparison/axes.yaml');
  const text = readFileSync(axes, 'utf8');
  const evidenceLine = /^ +evidence: ex16-iptables-2000-01-01\n/m.exec(text)!;
  // The same key first in its measure map, not last where `add` puts it: the same data, other text.
  const measure = text.lastIndexOf('measure:\n', evidenceLine.index) + 'measure:\n'.length;
  writeFileSync(
    axes,
    text.slice(0, measure) +
      evidenceLine[0] +
      text.slice(measure, evidenceLine.index) +
      text.slice(evidenceLine.index + evidenceLine[0].length),
  );
  const at = text.slice(0, measure).split('\n').length;
  await assert.rejects(
    checkCaptures([join(fixtures, 'valid')], content, join(scratch, 'moved', 'copy')),
    (error: unknown) =>
      error instanceof ContentError &&
      error.problems.length === 1 &&
      error.problems[0]!.line === at &&
      /comparison\/axes\.yaml$/.test(error.problems[0]!.file) &&
      /its measure\.evidence line is not what/.test(error.problems[0]!.problem),
  );
});
