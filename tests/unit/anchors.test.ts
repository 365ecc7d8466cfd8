// Unit tests for src/lib/upstream/anchors.ts (and its build rule) and end-to-end runs of
// tools/verify-anchors.ts, on the FIXTURE
// files under tests/fixtures/anchors (a made-up upstream file and content citing it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchorLines, checkAnchor, verifyAnchors } from '../../src/lib/upstream/anchors.ts';
import { anchorsInTheirLines } from '../../src/lib/content/checks/excerpts.ts';
import { folderFiles } from '../../src/lib/upstream/upstream.ts';
import { loadSourcesAndExcerpts } from '../../src/lib/content/load.ts';
import { Problems, describe } from '../../src/lib/problems.ts';
import type { ContentData } from '../../src/lib/content/collections.ts';
import { havePinnedReleases, haveShared, sharedPath } from '../support/shared.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = join(root, 'tests/fixtures/anchors');
const upstream = join(fixtures, 'upstream');
const content = join(fixtures, 'content');
const COMMIT = '0000000000000000000000000000000000000000';
const FILE = `fixture/anchors/${COMMIT}/pkg/FIXTURE-proxier.go`;
const text = readFileSync(join(upstream, FILE), 'utf8');

const runCli = (...args: string[]) =>
  spawnSync(process.execPath, ['tools/verify-anchors.ts', ...args], { cwd: root, encoding: 'utf8' });

test('anchorLines gives every line that holds the anchor, 1-based', () => {
  assert.deepEqual(anchorLines('FIXTURE_MARK', text), [5, 9]);
  assert.deepEqual(anchorLines('fixtureSync', text), [4]);
  assert.deepEqual(anchorLines('notInTheFile', text), []);
});

test('checkAnchor accepts an anchor inside the stated lines', () => {
  assert.deepEqual(checkAnchor('fixtureSync', text, [4, 7]), { ok: true });
  assert.deepEqual(checkAnchor('fixtureSync', text, [4, 4]), { ok: true });
  assert.deepEqual(checkAnchor('FIXTURE_MARK', text, [9, 9]), { ok: true });
});

test('checkAnchor rejects an anchor found only outside the lines, and says where it really is', () => {
  const one = checkAnchor('fixtureSync', text, [5, 9]);
  assert.deepEqual(one, { ok: false, problem: '"fixtureSync" is not in lines 5-9; it is on line 4' });
  const two = checkAnchor('FIXTURE_MARK', text, [1, 3]);
  assert.deepEqual(two, { ok: false, problem: '"FIXTURE_MARK" is not in lines 1-3; it is on lines 5, 9' });
});

test('checkAnchor is verbatim: case and spacing must match', () => {
  assert.equal(checkAnchor('fixturesync', text, [4, 4]).ok, false);
  assert.equal(checkAnchor('func  fixtureSync', text, [4, 4]).ok, false);
});

test('checkAnchor rejects an anchor that is not in the file, and a range outside it', () => {
  assert.deepEqual(checkAnchor('notInTheFile', text, [1, 9]), {
    ok: false,
    problem: '"notInTheFile" is not in the file at all (9 lines)',
  });
  const outside = checkAnchor('fixtureSync', text, [4, 40]);
  assert.equal(outside.ok, false);
  if (!outside.ok) assert.match(outside.problem, /outside the file, which has 9 lines/);
  assert.equal(checkAnchor('fixtureSync', text, [5, 4]).ok, false);
});

test('verifyAnchors checks only code notes of non-quotable sources; a missing file or anchor fails', () => {
  const origin = { file: 'FIXTURE.yaml', index: 0 };
  const sources = [
    { id: 'code', repo: 'fixture/anchors', path: 'pkg/FIXTURE-proxier.go', commit: COMMIT, quotable: false },
    { id: 'kep', repo: 'fixture/keps', path: 'README.md', commit: COMMIT, quotable: true },
  ];
  const excerpts = [
    { ...origin, id: 'ok', source: 'code', lines: [4, 7] as [number, number], note: 'n', anchor: 'fixtureSync' },
    { ...origin, id: 'moved', source: 'code', lines: [1, 3] as [number, number], note: 'n', anchor: 'FIXTURE_MARK' },
    { ...origin, id: 'no-anchor', source: 'code', lines: [1, 3] as [number, number], note: 'n' },
    {
      ...origin,
      id: 'sibling',
      source: 'code',
      lines: [1, 1] as [number, number],
      path: 'gone.go',
      note: 'n',
      anchor: 'x',
    },
    // Not code notes: a note of a quotable source, and a quote.
    { ...origin, id: 'kep-note', source: 'kep', lines: [1, 1] as [number, number], note: 'n', anchor: 'x' },
    { ...origin, id: 'kep-quote', source: 'kep', lines: [1, 1] as [number, number] },
  ];
  const asked: string[] = [];
  const report = verifyAnchors({ sources, excerpts }, (path) => {
    asked.push(path);
    return path === FILE ? text : null;
  });
  assert.equal(report.checked, 4);
  assert.deepEqual(
    report.failures.map((f) => [f.excerpt.id, f.problem]),
    [
      ['moved', `${FILE}: "FIXTURE_MARK" is not in lines 1-3; it is on lines 5, 9`],
      ['no-anchor', 'a code note has no anchor to check'],
      [
        'sibling',
        `file missing: fixture/anchors/${COMMIT}/pkg/gone.go (fetch it at the pinned commit into the folder)`,
      ],
    ],
  );
  assert.ok(!asked.some((p) => p.startsWith('fixture/keps/')), 'a quotable source is never read');
});

test('verify-anchors: each failing FIXTURE note is named at its file, line and column, with the real lines', () => {
  const run = runCli(upstream, '--content', content);
  assert.equal(run.status, 1, run.stdout + run.stderr);
  const excerpts = 'tests/fixtures/anchors/content/excerpts/fixture-code.yaml';
  assert.equal(
    run.stdout,
    [
      `${excerpts}:15:3: excerpt "fixture-code/fixture-outside", field "anchor": ${FILE}: "FIXTURE_MARK" is not in lines 1-3; it is on lines 5, 9`,
      `${excerpts}:23:3: excerpt "fixture-code/fixture-absent", field "anchor": ${FILE}: "notInTheFile" is not in the file at all (9 lines)`,
      `${excerpts}:32:3: excerpt "fixture-code/fixture-missing-file", field "anchor": file missing: fixture/anchors/${COMMIT}/pkg/FIXTURE-absent.go (fetch it at the pinned commit into the folder)`,
      '4 code notes checked, 3 failures',
      '',
    ].join('\n'),
  );
});

test('verify-anchors: content whose anchors are all in their lines exits 0', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verify-anchors-'));
  try {
    cpSync(content, dir, { recursive: true });
    const all = readFileSync(join(content, 'excerpts/fixture-code.yaml'), 'utf8');
    writeFileSync(join(dir, 'excerpts/fixture-code.yaml'), all.slice(0, all.indexOf('# DELIBERATELY WRONG')));
    const run = runCli(upstream, '--content', dir);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.equal(run.stdout, '1 code notes checked, 0 failures\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('verify-anchors: a folder without the files reports every note missing, never skips', () => {
  const run = runCli(join(fixtures, 'content'), '--content', content);
  assert.equal(run.status, 1);
  assert.equal(run.stdout.match(/file missing: /g)?.length, 4, run.stdout);
  assert.match(run.stdout, /^4 code notes checked, 4 failures$/m);
});

test("verify-anchors: a folder of one repository's copies, <commit>/<path>, is read too", () => {
  // The same report as from the <repo>/<commit>/<path> folder: the same two misplaced anchors and the one absent file.
  const run = runCli(join(upstream, 'fixture/anchors'), '--content', content);
  assert.equal(run.stdout, runCli(upstream, '--content', content).stdout);
  assert.match(run.stdout, /^4 code notes checked, 3 failures$/m, run.stdout);
  assert.equal(run.stdout.match(/file missing: /g)?.length, 1, run.stdout);
});

test('verify-anchors: every code note of content/ against its pinned copy (../shared/sources/kubernetes, the default folder, and the Go module cache for a release tag)', (t) => {
  if (!haveShared(t, 'sources/kubernetes') || !havePinnedReleases(t)) return;
  for (const run of [runCli(), runCli(sharedPath('sources/kubernetes'))]) {
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^\d+ code notes checked, 0 failures$/m);
  }
  const elsewhere = spawnSync(process.execPath, ['tools/verify-anchors.ts'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, KUBERNETES_SOURCES: join(root, 'no-such-folder') },
  });
  assert.equal(elsewhere.status, 2, 'a KUBERNETES_SOURCES that is not there is a usage error');
});

test('the build checks the same rule in-process: each misplaced anchor in a copied file at its file:line:col', async () => {
  const data = await loadSourcesAndExcerpts(content);
  const problems = new Problems(data.locate);
  anchorsInTheirLines(() => folderFiles(join(upstream, 'fixture/anchors'), 'fixture/anchors'), 'fixture/anchors')(
    data as unknown as ContentData,
    problems,
  );
  assert.deepEqual(
    problems.list.map(describe).map((l) => l.replace(/^.*tests\/fixtures\//, 'tests/fixtures/')),
    [
      `tests/fixtures/anchors/content/excerpts/fixture-code.yaml:15:3: excerpt "fixture-code/fixture-outside", field "anchor": ${FILE}: "FIXTURE_MARK" is not in lines 1-3; it is on lines 5, 9`,
      `tests/fixtures/anchors/content/excerpts/fixture-code.yaml:23:3: excerpt "fixture-code/fixture-absent", field "anchor": ${FILE}: "notInTheFile" is not in the file at all (9 lines)`,
    ],
  );
  // The note on a file the copies do not hold (fixture-missing-file) is left to the CLI, which reports it missing.
  // Notes of another repository than the copies' are not this folder's to judge.
  const other = new Problems(data.locate);
  anchorsInTheirLines(() => folderFiles(join(upstream, 'fixture/anchors'), 'kubernetes/kubernetes'))(
    data as unknown as ContentData,
    other,
  );
  assert.deepEqual(other.list, []);
});

test('verify-anchors: usage errors exit 2', () => {
  assert.equal(runCli(join(root, 'no-such-folder')).status, 2);
  assert.equal(runCli(upstream, '--content').status, 2);
  assert.equal(runCli(upstream, '--bogus').status, 2);
});
