// Each class of authoring mistake fails with a message that names the file and the field (and the
// row and column where they apply). Every case folder under tests/fixtures/bad-content/ holds only
// the file(s) that differ from valid/, the smallest content folder that builds; a case is valid/
// with its files laid over it, in a temporary folder.
//
// The data cases run loadContent + buildComparison, the code path the build takes through
// getTable() (src/lib/content/index.ts); two cases run the real `astro build` with CONTENT_DIR
// (one data mistake, one MDX frontmatter mistake) to prove the build fails and prints the message.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadContent, contentFiles } from '../../src/lib/content/load.ts';
import { buildComparison } from '../../src/lib/content/model.ts';
import { ContentError, type Problem } from '../../src/lib/content/errors.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = join(root, 'tests/fixtures/bad-content');
const scratch = mkdtempSync(join(tmpdir(), 'bad-content-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** valid/ with the case's files laid over it, in a fresh folder. */
function contentFor(name: string): string {
  const dir = join(scratch, name, 'content');
  cpSync(join(fixtures, 'valid'), dir, { recursive: true });
  if (name !== 'valid') {
    assert.ok(existsSync(join(fixtures, name)), `fixture folder ${name} exists`);
    cpSync(join(fixtures, name), dir, { recursive: true });
  }
  return dir;
}

/** What the build's getTable() does with a content folder. */
const table = (dir: string) => buildComparison(loadContent(dir), contentFiles(dir));

function problemsOf(name: string): { problems: Problem[]; message: string } {
  try {
    table(contentFor(name));
  } catch (error) {
    assert.ok(error instanceof ContentError, `a ContentError, got: ${String(error)}`);
    return { problems: error.problems, message: error.message };
  }
  assert.fail(`content case "${name}" was accepted`);
}

interface Expected { file: string; row?: string; column?: string; field?: string; problem: RegExp }

/** One problem at exactly this place, and a message that names every part of the place. */
function assertProblem(name: string, want: Expected): void {
  const { problems, message } = problemsOf(name);
  const hit = problems.find(
    (p) => p.file.endsWith(want.file) && p.row === want.row && p.column === want.column && p.field === want.field,
  );
  assert.ok(hit, `expected a problem in ${want.file} at row ${want.row}, column ${want.column}, field ${want.field}; got:\n${message}`);
  assert.match(hit.problem, want.problem);
  const line = message.split('\n').find((l) => l.includes(want.file) && l.includes(hit.problem));
  assert.ok(line, `the printed message has a line for it:\n${message}`);
  if (want.row !== undefined) assert.ok(line.includes(`row "${want.row}"`), line);
  if (want.column !== undefined) assert.ok(line.includes(`column "${want.column}"`), line);
  if (want.field !== undefined) assert.ok(line.includes(`field "${want.field}"`), line);
}

test('valid/: the base every case starts from is accepted (so each case fails for its own mistake)', () => {
  const model = table(contentFor('valid'));
  assert.deepEqual(model.rows.map((r) => r.id), ['fixture-axis']);
  assert.deepEqual(model.counts, { measured: 0, 'to-measure': 1, cited: 1 });
});

test('broken cite id: names the file, row, column and cites[i]', () => {
  assertProblem('broken-cite', {
    file: 'comparison/axes.yaml', row: 'fixture-axis', column: 'fixture-read', field: 'cites[0]',
    problem: /unknown excerpt id "fixture-source\/fixture-no-such-excerpt"/,
  });
});

test('measured cell in a column that was not run: names the file, row, column and measure', () => {
  assertProblem('measured-in-unrun-column', {
    file: 'comparison/axes.yaml', row: 'fixture-axis', column: 'fixture-read', field: 'measure',
    problem: /measured cell in column "fixture-read", which was not run/,
  });
});

test('missing cell: names the file, row, the column without a cell, and cells', () => {
  assertProblem('missing-cell', {
    file: 'comparison/axes.yaml', row: 'fixture-axis', column: 'fixture-read', field: 'cells',
    problem: /missing cell/,
  });
});

test('duplicate axis id: names the file, row and id', () => {
  assertProblem('duplicate-axis-id', {
    file: 'comparison/axes.yaml', row: 'fixture-axis', field: 'id', problem: /duplicate axis id "fixture-axis"/,
  });
});

test('unknown backend: names the file, row, the unknown column and cells', () => {
  assertProblem('unknown-backend', {
    file: 'comparison/axes.yaml', row: 'fixture-axis', column: 'fixture-unknown', field: 'cells',
    problem: /unknown backend "fixture-unknown" \(backends: fixture-ran, fixture-read\)/,
  });
});

test('malformed evidence: a bad date and a missing field, each named', () => {
  assertProblem('malformed-evidence', { file: 'evidence/fixture-evidence.yaml', field: 'captured', problem: /date/i });
  assertProblem('malformed-evidence', { file: 'evidence/fixture-evidence.yaml', field: 'output', problem: /expected string, received undefined/ });
});

test('malformed YAML: names the file and the line', () => {
  assertProblem('malformed-yaml', { file: 'comparison/backends.yaml', problem: /^malformed YAML at line \d+: / });
});

// The real build, with the Node on PATH, into a temporary folder (never dist/).
function astroBuild(name: string) {
  const work = join(scratch, name);
  const content = contentFor(name);
  const run = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 300_000,
    env: {
      ...process.env, CONTENT_DIR: content, OUT_DIR: join(work, 'out'), CACHE_DIR: join(work, 'cache'),
      SITE_BASE: '/', ASTRO_TELEMETRY_DISABLED: '1',
    },
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}`, out: join(work, 'out') };
}

test('astro build: a data mistake fails the build and prints the file, row, column and field', () => {
  const { status, output } = astroBuild('measured-in-unrun-column');
  assert.notEqual(status, 0, `the build must fail:\n${output}`);
  assert.match(
    output,
    /comparison\/axes\.yaml, row "fixture-axis", column "fixture-read", field "measure": measured cell in column "fixture-read", which was not run/,
    output,
  );
});

test('astro build: an MDX page missing required frontmatter fails the build, naming the file and each field', () => {
  const { status, output, out } = astroBuild('page-missing-frontmatter');
  assert.notEqual(status, 0, `the build must fail:\n${output}`);
  assert.match(output, /pages\/fixture-page\.mdx, field "description": /, output);
  assert.match(output, /pages\/fixture-page\.mdx, field "order": /, output);
  assert.equal(existsSync(join(out, 'index.html')), false, 'no site was written');
});
