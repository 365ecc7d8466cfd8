// tools/verify-drift.ts and tools/lib/drift*.ts: the four states on FIXTURE git repositories this
// test builds (one like kubernetes/enhancements, one like kubernetes/kubernetes: a file whose lines
// stay, move and change, a file git sees renamed, one deleted, over three commits), the same files
// as a snapshot and as <commit>/<path> folders, the claims each item is cited by, --update, and the
// real content against the pinned copies in ../shared/sources (all unchanged).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classify, lineMap, followedRange, wordDiff, similarity } from '../../tools/lib/drift.ts';
import { openUpstream, readSnapshotRecord, type Upstream } from '../../tools/lib/drift-upstream.ts';
import { checkDrift, tally, type SourceResult } from '../../tools/lib/drift-check.ts';
import { citingClaims, loadLocated } from '../../tools/lib/drift-claims.ts';
import { formatReport } from '../../tools/lib/drift-report.ts';
import { havePinnedReleases, haveShared, pinnedReleases, sharedPath } from '../support/shared.ts';
import { releaseFolder } from '../../src/lib/upstream/upstream.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixtureContent = join(root, 'tests/fixtures/drift/content');

// ---------------------------------------------------------------------------------------------
// The pure rule.

const file = (...lines: string[]) => `${lines.join('\n')}\n`;
const pinned = file('a', 'b', 'FIXTURE one', 'FIXTURE two', 'c');

test('classify: the same lines at the same numbers are unchanged', () => {
  assert.deepEqual(classify({ pinned, lines: [3, 4], now: pinned, nowPath: 'f', renamed: false }), {
    state: 'unchanged',
    lines: [3, 4],
  });
});

test('classify: the same lines elsewhere are moved, to the new numbers; a rename alone is a move', () => {
  const now = file('new', 'a', 'b', 'FIXTURE one', 'FIXTURE two', 'c');
  assert.deepEqual(classify({ pinned, lines: [3, 4], now, nowPath: 'f', renamed: false }), {
    state: 'moved',
    lines: [4, 5],
    path: 'f',
  });
  assert.deepEqual(classify({ pinned, lines: [3, 4], now: pinned, nowPath: 'g', renamed: true }), {
    state: 'moved',
    lines: [3, 4],
    path: 'g',
  });
});

test('classify: of several copies of the lines, the move goes to the one nearest where the diff puts them', () => {
  const now = file('FIXTURE one', 'FIXTURE two', 'x', 'a', 'b', 'y', 'FIXTURE one', 'FIXTURE two', 'c');
  assert.deepEqual(classify({ pinned, lines: [3, 4], now, nowPath: 'f', renamed: false }), {
    state: 'moved',
    lines: [7, 8],
    path: 'f',
  });
});

test('classify: a reworded line is changed, with a word diff against the closest lines now', () => {
  const now = file('a', 'x', 'b', 'FIXTURE one', 'FIXTURE 2', 'c');
  const d = classify({ pinned, lines: [3, 4], now, nowPath: 'f', renamed: false });
  assert.deepEqual(d, { state: 'changed', path: 'f', closest: [4, 5], diff: 'FIXTURE one FIXTURE [-two-]{+2+}' });
});

test('classify: a whitespace-only change is changed, and says so', () => {
  const d = classify({
    pinned,
    lines: [3, 3],
    now: file('a', 'b', 'FIXTURE  one', 'FIXTURE two', 'c'),
    nowPath: 'f',
    renamed: false,
  });
  assert.equal(d.state, 'changed');
  assert.equal(d.state === 'changed' && d.diff, '(whitespace only)');
});

test('classify: lines removed with nothing like them left are changed with no closest lines; a missing file is gone', () => {
  const d = classify({
    pinned: file('a', 'FIXTURE one', 'b'),
    lines: [2, 2],
    now: file('a', 'b'),
    nowPath: 'f',
    renamed: false,
  });
  assert.deepEqual(d, { state: 'changed', path: 'f', diff: '[-FIXTURE one-]' });
  assert.deepEqual(classify({ pinned, lines: [1, 1], now: null, nowPath: 'f', renamed: false }), { state: 'gone' });
});

test('classify refuses a pin outside the pinned file (a broken pin, not drift)', () => {
  assert.throws(
    () => classify({ pinned, lines: [5, 6], now: pinned, nowPath: 'f', renamed: false }),
    /lines 5-6 are not in the file at the pinned commit \(5 lines\)/,
  );
});

test('lineMap and followedRange follow a range through insertions and replacements', () => {
  const map = lineMap(['a', 'b', 'c', 'd'], ['a', 'x', 'b', 'C', 'd']);
  assert.deepEqual(map.kept, [0, 2, -1, 4]);
  assert.deepEqual(followedRange(map, 2, 2), [3, 3], 'the replaced line maps to its replacement');
  assert.deepEqual(followedRange(map, 1, 3), [2, 4]);
  assert.equal(followedRange(lineMap(['a', 'b'], ['a']), 1, 1), undefined);
});

test('wordDiff keeps a few words of context and marks the rest left out', () => {
  const before = 'one two three four five six seven eight nine ten eleven twelve';
  const after = 'one two three four five six SEVEN eight nine ten eleven twelve';
  assert.equal(wordDiff(before, after), '… three four five six [-seven-]{+SEVEN+} eight nine ten eleven …');
  assert.equal(wordDiff('same', 'same'), '');
  assert.equal(similarity('a b c', 'a b d'), 2 / 3);
});

test('readSnapshotRecord reads the commit and the date a SOURCE.md records (as ../shared writes them)', () => {
  const md =
    '- Snapshot commit (HEAD of `master` in the stored snapshot):\n  `' +
    'ab'.repeat(20) +
    '`\n- Commit date: 2026-07-24 23:57:50 +0000 (author date)\n';
  assert.deepEqual(readSnapshotRecord(md), { commit: 'ab'.repeat(20), date: '2026-07-24' });
  assert.deepEqual(
    readSnapshotRecord('- Commit date: 2026-07-24 23:30:00 -0100\nSnapshot commit `' + 'cd'.repeat(20) + '`'),
    { commit: 'cd'.repeat(20), date: '2026-07-25' },
  );
  assert.deepEqual(readSnapshotRecord('no record'), { commit: undefined, date: undefined });
});

// ---------------------------------------------------------------------------------------------
// FIXTURE repositories: three commits each. c1 is pinned; c2 inserts lines (moves) and renames a
// file; c3 rewords a line (changes) and deletes a file.

type Tree = Record<string, string | null>;

const KEP1 = 'keps/sig-network/1-fixture/README.md';
const kep1 = (extra: string[], last: string) =>
  file(
    '# KEP-1: FIXTURE',
    '',
    '## Summary',
    '',
    'FIXTURE line that stays in place.',
    '',
    ...extra,
    '## Motivation',
    '',
    'FIXTURE sentence that moves down the file.',
    '',
    '## Design',
    '',
    last,
  );
const KEP2 = 'keps/sig-network/2-fixture/README.md';
const KEP2_RENAMED = 'keps/sig-network/2-fixture-renamed/README.md';
const kep2 = (extra: string[]) =>
  file(
    '# KEP-2: FIXTURE',
    '',
    ...extra,
    'FIXTURE line in a file that git sees renamed.',
    '',
    'FIXTURE second line of the renamed file.',
    'FIXTURE third line.',
  );
const KEP3 = 'keps/sig-network/3-fixture/README.md';
const ENHANCEMENTS: Tree[] = [
  {
    [KEP1]: kep1([], 'FIXTURE sentence that upstream will reword.'),
    'keps/sig-network/1-fixture/kep.yaml': file('title: FIXTURE one', 'status: implementable'),
    [KEP2]: kep2([]),
    [KEP3]: file('# KEP-3: FIXTURE', '', 'FIXTURE line in a file that upstream deletes.'),
  },
  {
    [KEP1]: kep1(['FIXTURE paragraph added upstream.', ''], 'FIXTURE sentence that upstream will reword.'),
    [KEP2]: null,
    [KEP2_RENAMED]: kep2(['FIXTURE line added above.']),
  },
  {
    [KEP1]: kep1(['FIXTURE paragraph added upstream.', ''], 'FIXTURE sentence that upstream has reworded.'),
    [KEP3]: null,
  },
];

const PROXIER = 'pkg/proxy/fixture/proxier.go';
const proxier = (extra: string[], changes: string) =>
  file(
    'package fixture',
    '',
    '// FIXTURE code',
    'func fixtureStays() string {',
    '\treturn "FIXTURE_STAYS"',
    '}',
    '',
    ...extra,
    'func fixtureMoves() string {',
    '\treturn "FIXTURE_MOVES"',
    '}',
    '',
    'func fixtureChanges() string {',
    `\treturn "${changes}"`,
    '}',
  );
const HELPER = 'pkg/proxy/fixture/helper.go';
const HELPERS = 'pkg/proxy/fixture/helpers.go';
const helper = file('package fixture', '', 'func fixtureHelper() string {', '\treturn "FIXTURE_HELPER"', '}');
const GONE = 'pkg/proxy/fixture/gone.go';
const KUBERNETES: Tree[] = [
  {
    [PROXIER]: proxier([], 'FIXTURE_CHANGES'),
    [HELPER]: helper,
    [GONE]: file('package fixture', '', 'func fixtureGone() {}'),
  },
  { [PROXIER]: proxier(['func fixtureAdded() {}', ''], 'FIXTURE_CHANGES'), [HELPER]: null, [HELPERS]: helper },
  { [PROXIER]: proxier(['func fixtureAdded() {}', ''], 'FIXTURE_CHANGED'), [GONE]: null },
];

const DATES = ['2026-01-01T10:00:00Z', '2026-02-01T10:00:00Z', '2026-03-01T10:00:00Z'];

function writeTree(dir: string, tree: Tree) {
  for (const [path, text] of Object.entries(tree)) {
    const abs = join(dir, path);
    if (text === null) rmSync(abs, { force: true });
    else {
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, text);
    }
  }
}

/** A git repository with one commit per tree (each laid over the one before); returns the commits. */
function makeRepo(dir: string, trees: Tree[]): string[] {
  const git = (date: string, ...args: string[]) =>
    execFileSync('git', ['-C', dir, ...args], {
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'FIXTURE',
        GIT_AUTHOR_EMAIL: 'fixture@example.invalid',
        GIT_COMMITTER_NAME: 'FIXTURE',
        GIT_COMMITTER_EMAIL: 'fixture@example.invalid',
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      },
    }).trim();
  mkdirSync(dir, { recursive: true });
  git(DATES[0]!, 'init', '-q', '-b', 'main');
  return trees.map((tree, i) => {
    writeTree(dir, tree);
    git(DATES[i]!, 'add', '-A');
    git(DATES[i]!, 'commit', '-q', '-m', `FIXTURE commit ${i + 1}`);
    return git(DATES[i]!, 'rev-parse', 'HEAD');
  });
}

interface World {
  dir: string;
  enhancements: string;
  kubernetes: string;
  e: string[];
  k: string[];
  content: string;
}

/** Both repositories, and a copy of the FIXTURE content pinned to their first commits. */
function makeWorld(): World {
  const dir = mkdtempSync(join(tmpdir(), 'drift-'));
  const enhancements = join(dir, 'enhancements');
  const kubernetes = join(dir, 'kubernetes');
  const e = makeRepo(enhancements, ENHANCEMENTS);
  const k = makeRepo(kubernetes, KUBERNETES);
  const content = join(dir, 'content');
  cpSync(fixtureContent, content, { recursive: true });
  const sources = join(content, 'sources.yaml');
  writeFileSync(
    sources,
    readFileSync(sources, 'utf8').replaceAll('1'.repeat(40), e[0]!).replaceAll('2'.repeat(40), k[0]!),
  );
  return { dir, enhancements, kubernetes, e, k, content };
}

/** One world for the tests that only read it (each test that writes makes its own). */
let shared: World | undefined;
after(() => {
  if (shared) rmSync(shared.dir, { recursive: true, force: true });
});
const readOnlyWorld = (): World => (shared ??= makeWorld());

const run = async (content: string, upstreams: Array<[string, Upstream]>) => {
  const loaded = await loadLocated(content);
  return { loaded, results: checkDrift(loaded.data, new Map(upstreams)) };
};
const states = (results: readonly SourceResult[]) =>
  Object.fromEntries(
    results.flatMap((r) =>
      r.items.map((i) => [
        i.id,
        i.error ?? (i.drift?.state === 'moved' ? `moved ${i.drift.path} ${i.drift.lines.join('-')}` : i.drift?.state),
      ]),
    ),
  );

test('git checkouts: each of the four states, for quotes and code notes, across three commits', async () => {
  const w = readOnlyWorld();
  const { results } = await run(w.content, [
    ['kubernetes/enhancements', openUpstream(w.enhancements)],
    ['kubernetes/kubernetes', openUpstream(w.kubernetes)],
  ]);
  assert.deepEqual(states(results), {
    'fixture-kep-one/kep-stays': 'unchanged',
    'fixture-kep-one/kep-moves': `moved ${KEP1} 11-11`,
    'fixture-kep-one/kep-changes': 'changed',
    'fixture-kep-one/kep-status': 'unchanged',
    'fixture-kep-two/kep-renamed': `moved ${KEP2_RENAMED} 4-4`,
    'fixture-kep-three/kep-deleted': 'gone',
    'fixture-proxier/code-stays': 'unchanged',
    'fixture-proxier/code-moves': `moved ${PROXIER} 10-12`,
    'fixture-proxier/code-changes': 'changed',
    'fixture-helper/code-renamed': `moved ${HELPERS} 3-5`,
    'fixture-gone/code-deleted': 'gone',
  });
  const item = (id: string) => results.flatMap((r) => r.items).find((i) => i.id === id)!;
  assert.deepEqual(item('fixture-kep-one/kep-changes').drift, {
    state: 'changed',
    path: KEP1,
    closest: [15, 15],
    diff: 'FIXTURE sentence that upstream [-will reword-]{+has reworded+}.',
  });
  assert.equal(item('fixture-kep-one/kep-changes').stillThere, false, 'the quote is not in the closest lines');
  assert.deepEqual(item('fixture-proxier/code-changes').drift, {
    state: 'changed',
    path: PROXIER,
    closest: [14, 16],
    diff: '… string { return "[-FIXTURE_CHANGES-]{+FIXTURE_CHANGED+}" }',
  });
  assert.equal(item('fixture-proxier/code-changes').stillThere, false, 'the anchor is not in the closest lines');
  const one = results.find((r) => r.source.id === 'fixture-kep-one')!;
  assert.equal(one.target, w.e[2]);
  assert.equal(one.targetDate, '2026-03-01', "the target commit's date, from git");
  assert.equal(one.dateProblem, undefined, "content's committed: 2026-01-01 is what git records");
  assert.deepEqual(tally(results), { unchanged: 3, moved: 4, changed: 2, gone: 2, error: 0, skipped: 0 });
});

test('git checkouts at --at <ref>: at the second commit nothing has changed yet', async () => {
  const w = readOnlyWorld();
  const { results } = await run(w.content, [
    ['kubernetes/enhancements', openUpstream(w.enhancements, w.e[1])],
    ['kubernetes/kubernetes', openUpstream(w.kubernetes, w.k[1])],
  ]);
  const n = tally(results);
  assert.deepEqual(n, { unchanged: 5, moved: 6, changed: 0, gone: 0, error: 0, skipped: 0 });
  assert.equal(states(results)['fixture-kep-one/kep-changes'], `moved ${KEP1} 15-15`);
});

test('the report lists each drifted item with the claims that cite it, by kind, located file:line:column', async () => {
  const w = readOnlyWorld();
  const { loaded, results } = await run(w.content, [
    ['kubernetes/enhancements', openUpstream(w.enhancements)],
    ['kubernetes/kubernetes', openUpstream(w.kubernetes)],
  ]);
  const lines = formatReport({ results, claims: citingClaims(loaded) });
  const text = lines.join('\n');
  const rel = (p: string) => relative(process.cwd(), join(w.content, p));
  const axes = rel('comparison/axes.yaml');
  const page = rel('pages/fixture.mdx');
  const expectIn = (from: number, to: number, expected: string[]) => {
    const part = lines.slice(from, to);
    for (const line of expected)
      assert.ok(part.includes(line), `report has the line:\n${line}\nin lines ${from}-${to} of the report:\n${text}`);
  };
  const needLook = lines.findIndex((l) => l.startsWith('Claims that cite a changed or gone item'));
  const movedClaims = lines.findIndex((l) => l.startsWith('Claims that cite a moved item'));
  assert.ok(needLook > 0 && movedClaims > needLook, text);
  expectIn(0, needLook, [
    `  fixture-kep-one/kep-changes (quote) changed: ${KEP1} line 13 at ${w.e[0]!.slice(0, 12)}; closest now: line 15 at ${w.e[2]!.slice(0, 12)}`,
    '      FIXTURE sentence that upstream [-will reword-]{+has reworded+}.',
    '      its quote is no longer in those lines',
    '      its anchor "FIXTURE_CHANGES" is no longer in those lines',
    `  fixture-gone/code-deleted (code note) gone: ${GONE} is not in the copy at ${w.k[2]!.slice(0, 12)}`,
    `  fixture-kep-two/kep-renamed (quote) moved: ${KEP2} line 3 -> ${KEP2_RENAMED} line 4 at ${w.e[2]!.slice(0, 12)}`,
  ]);
  // The claims that need a look, in the order cells, short answers, summaries, pages.
  const look = [
    '  Cells (axis, backend)',
    `    ${axes}:9:43: axis "fixture-axis", backend "fixture-ran", cites[1]: fixture-gone/code-deleted gone`,
    `    ${axes}:15:43: axis "fixture-axis", backend "fixture-read", answer: fixture-kep-three/kep-deleted gone`,
    '  Short answers (axis, backend)',
    `    ${axes}:7:41: axis "fixture-axis", backend "fixture-ran", short: fixture-proxier/code-changes changed`,
    '  Summaries (axis)',
    `    ${axes}:4:34: axis "fixture-axis", summary: fixture-kep-one/kep-changes changed`,
    '  Pages',
    `    ${page}:9:56: :cite: fixture-kep-one/kep-changes changed`,
    `    ${page}:13:1: <Excerpt>: fixture-kep-one/kep-changes changed`,
    `    ${page}:16:1: <Excerpt>: fixture-kep-three/kep-deleted gone`,
    `    ${page}:19:1: <Excerpt>: fixture-proxier/code-changes changed`,
    `    ${page}:21:1: <Excerpt>: fixture-gone/code-deleted gone`,
  ];
  assert.deepEqual(lines.slice(needLook + 1, needLook + 1 + look.length), look);
  assert.equal(lines[needLook + 1 + look.length], '', 'nothing else needs a look');
  expectIn(movedClaims, lines.length, [
    `    ${axes}:9:15: axis "fixture-axis", backend "fixture-ran", cites[0]: fixture-proxier/code-moves moved`,
    `    ${axes}:16:42: axis "fixture-axis", backend "fixture-read", cites[1]: fixture-kep-two/kep-renamed moved`,
    '  Figure steps (step, backend)',
    `    ${rel('figures/fixture-figure.yaml')}:12:13: step "fixture-step", backend "fixture-ran", fixture-figure: steps[0].cites[0]: fixture-helper/code-renamed moved`,
    '11 pins checked: 3 unchanged, 4 moved, 2 changed, 2 gone',
  ]);
  assert.doesNotMatch(text, /kep-stays|code-stays/, 'unchanged items and the claims citing only them are not listed');
});

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['tools/verify-drift.ts', ...args], { cwd: root, encoding: 'utf8' });

test('the command exits 1 on changed or gone, 0 when all stayed or moved, 2 on a usage error', async () => {
  const w = readOnlyWorld();
  const head = cli('--enhancements', w.enhancements, '--kubernetes', w.kubernetes, '--content', w.content);
  assert.equal(head.status, 1, head.stdout + head.stderr);
  assert.match(head.stdout, /11 pins checked: 3 unchanged, 4 moved, 2 changed, 2 gone$/m);
  const onlyK = cli('--kubernetes', w.kubernetes, '--at', w.k[1]!, '--content', w.content);
  assert.equal(onlyK.status, 0, onlyK.stdout + onlyK.stderr);
  assert.match(onlyK.stdout, /^kubernetes\/enhancements: no copy given, its pins are not checked$/m);
  assert.match(
    onlyK.stdout,
    /5 pins checked: 2 unchanged, 3 moved, 0 changed, 0 gone \(6 not checked: no copy of their repository\)$/m,
  );
  assert.equal(cli('--content', w.content).status, 2, 'no copy at all');
  assert.equal(cli('--kubernetes', join(w.dir, 'nowhere'), '--content', w.content).status, 2);
  const badRef = cli('--kubernetes', w.kubernetes, '--at', 'no-such-ref', '--content', w.content);
  assert.equal(badRef.status, 2);
  assert.match(badRef.stderr, /no commit "no-such-ref"/);
});

test('--update rewrites only the sources whose items all stayed or moved, and the content still loads', async (t) => {
  const w = makeWorld();
  t.after(() => rmSync(w.dir, { recursive: true, force: true }));
  const before = (f: string) => readFileSync(join(w.content, f), 'utf8');
  const untouched = [
    'excerpts/fixture-kep-one.yaml',
    'excerpts/fixture-proxier.yaml',
    'excerpts/fixture-kep-three.yaml',
    'excerpts/fixture-gone.yaml',
    'excerpts/fixture-helper.yaml',
    'comparison/axes.yaml',
  ];
  const kept = Object.fromEntries(untouched.map((f) => [f, before(f)]));
  const sourcesBefore = before('sources.yaml');
  const twoBefore = before('excerpts/fixture-kep-two.yaml');
  const out = cli('--enhancements', w.enhancements, '--kubernetes', w.kubernetes, '--content', w.content, '--update');
  assert.equal(out.status, 1, 'still non-zero: things changed');
  assert.match(out.stdout, /fixture-kep-one: kept at \w{12}: 1 changed; re-read those first/);
  assert.match(out.stdout, /fixture-gone: kept at \w{12}: 1 gone/);
  assert.match(
    out.stdout,
    new RegExp(
      `fixture-kep-two: \\w{12} -> ${w.e[2]!.slice(0, 12)} \\(2026-03-01\\), ${KEP2} -> ${KEP2_RENAMED}; 1 moved: fixture-kep-two/kep-renamed`,
    ),
  );
  assert.match(out.stdout, /rewrote 2 files/);
  // The moved item of a source with a changed one keeps its pin: its lines only mean something at its commit.
  for (const f of untouched) assert.equal(before(f), kept[f], `${f} untouched`);
  assert.equal(before('excerpts/fixture-kep-two.yaml'), twoBefore.replace('lines: [3, 3]', 'lines: [4, 4]'));
  // sources.yaml: exactly the two sources' commit and path (quotes kept) and the new commit's date added.
  const expected = sourcesBefore
    .split('\n\n')
    .map((block) => {
      if (block.includes('id: fixture-kep-two'))
        return block
          .replace(w.e[0]!, w.e[2]!)
          .replace(KEP2, KEP2_RENAMED)
          .replace(`"${w.e[2]}"\n`, `"${w.e[2]}"\n  committed: 2026-03-01\n`);
      if (block.includes('id: fixture-helper'))
        return block
          .replace(w.k[0]!, w.k[2]!)
          .replace(HELPER, HELPERS)
          .replace(`"${w.k[2]}"\n`, `"${w.k[2]}"\n  committed: 2026-03-01\n`);
      return block;
    })
    .join('\n\n');
  assert.equal(before('sources.yaml'), expected);
  // The content passes every check the build runs, and the updated pins are unchanged now.
  const { results } = await run(w.content, [
    ['kubernetes/enhancements', openUpstream(w.enhancements)],
    ['kubernetes/kubernetes', openUpstream(w.kubernetes)],
  ]);
  assert.equal(states(results)['fixture-kep-two/kep-renamed'], 'unchanged');
  assert.equal(states(results)['fixture-helper/code-renamed'], 'unchanged');
  assert.deepEqual(tally(results), { unchanged: 5, moved: 2, changed: 2, gone: 2, error: 0, skipped: 0 });
});

test('--update at a ref where everything stayed or moved brings every source to it', async (t) => {
  const w = makeWorld();
  t.after(() => rmSync(w.dir, { recursive: true, force: true }));
  const out = cli(
    '--enhancements',
    w.enhancements,
    '--kubernetes',
    w.kubernetes,
    '--at',
    'HEAD~1',
    '--content',
    w.content,
    '--update',
  );
  assert.equal(out.status, 0, out.stdout + out.stderr);
  const again = cli(
    '--enhancements',
    w.enhancements,
    '--kubernetes',
    w.kubernetes,
    '--at',
    'HEAD~1',
    '--content',
    w.content,
  );
  assert.match(again.stdout, /11 pins checked: 11 unchanged, 0 moved, 0 changed, 0 gone$/m);
  // A moved note's verbatim code moved with it, by as many lines (it is still the same text).
  const proxierNotes = readFileSync(join(w.content, 'excerpts/fixture-proxier.yaml'), 'utf8');
  assert.ok(
    proxierNotes.includes('lines: [10, 12]\n  anchor: FIXTURE_MOVES\n  code:\n    lines: [11, 11]\n'),
    proxierNotes,
  );
  // From the new pins, HEAD's changes are still seen (the moved pins now say the moved lines).
  const head = cli('--enhancements', w.enhancements, '--kubernetes', w.kubernetes, '--content', w.content);
  assert.match(head.stdout, /11 pins checked: 7 unchanged, 0 moved, 2 changed, 2 gone$/m);
  assert.match(
    head.stdout,
    new RegExp(`fixture-kep-one/kep-changes \\(quote\\) changed: ${KEP1} line 15 at ${w.e[1]!.slice(0, 12)}`),
  );
});

test('a date in content that the copy records otherwise is reported, and fails the run', async (t) => {
  const w = makeWorld();
  t.after(() => rmSync(w.dir, { recursive: true, force: true }));
  const sources = join(w.content, 'sources.yaml');
  writeFileSync(sources, readFileSync(sources, 'utf8').replace('committed: 2026-01-01', 'committed: 2025-12-31'));
  const out = cli('--enhancements', w.enhancements, '--at', w.e[0]!, '--content', w.content);
  assert.equal(out.status, 1);
  assert.match(
    out.stdout,
    /^fixture-kep-one: date: content says the pinned commit was made on 2025-12-31; git repository .* records 2026-01-01$/m,
  );
});

test('a snapshot with SOURCE.md and a folder of <commit>/<path> copies read like a checkout', async () => {
  const w = readOnlyWorld();
  // The enhancements files of the first commit, as ../shared/sources/kubernetes-enhancements lays them out.
  const snapshot = join(w.dir, 'snapshot');
  writeTree(snapshot, ENHANCEMENTS[0]!);
  writeFileSync(
    join(snapshot, 'SOURCE.md'),
    `# FIXTURE\n- Snapshot commit (HEAD of \`main\`):\n  \`${w.e[0]}\`\n- Commit date: 2026-01-01 10:00:00 +0000\n`,
  );
  // The kubernetes files of the first and last commits, as ../shared/sources/kubernetes lays them out.
  const folders = join(w.dir, 'folders');
  writeTree(join(folders, w.k[0]!), KUBERNETES[0]!);
  let last: Tree = {};
  for (const tree of KUBERNETES) last = { ...last, ...tree };
  writeTree(join(folders, w.k[2]!), last);
  const snap = openUpstream(snapshot);
  assert.equal(snap.date(w.e[0]!), '2026-01-01');
  const pinnedOnly = await run(w.content, [
    ['kubernetes/enhancements', snap],
    ['kubernetes/kubernetes', openUpstream(folders)],
  ]);
  assert.deepEqual(tally(pinnedOnly.results), { unchanged: 11, moved: 0, changed: 0, gone: 0, error: 0, skipped: 0 });
  const atLast = await run(w.content, [['kubernetes/kubernetes', openUpstream(folders, w.k[2])]]);
  assert.deepEqual(states(atLast.results.filter((r) => r.upstream)), {
    'fixture-proxier/code-stays': 'unchanged',
    'fixture-proxier/code-moves': `moved ${PROXIER} 10-12`,
    'fixture-proxier/code-changes': 'changed',
    'fixture-helper/code-renamed': 'gone', // no history here to see the rename
    'fixture-gone/code-deleted': 'gone',
  });
  assert.throws(
    () => openUpstream(snapshot, w.e[2]),
    /is a snapshot of .* only \(SOURCE.md\); --at .* needs a git checkout/,
  );
  // A copy without the pinned commit says so for each of its items.
  const other = await run(w.content, [
    ['kubernetes/kubernetes', openUpstream(join(folders), undefined)],
    ['kubernetes/enhancements', openUpstream(w.kubernetes)],
  ]);
  const errors = other.results
    .filter((r) => r.source.repo === 'kubernetes/enhancements')
    .flatMap((r) => r.items.map((i) => i.error));
  assert.ok(
    errors.every((e) => e?.includes('is not in git repository')),
    errors.join('\n'),
  );
});

test('the real content against its pinned copies (../shared/sources, the Go module cache): every quote and code note unchanged', async (t) => {
  if (
    !haveShared(t, 'sources/kubernetes-enhancements') ||
    !haveShared(t, 'sources/kubernetes') ||
    !havePinnedReleases(t)
  )
    return;
  // kubernetes/kubernetes as one commit-folder view: the shared commit folders, and a folder per
  // release tag that is its module in the Go module cache.
  const view = mkdtempSync(join(tmpdir(), 'drift-real-view-'));
  t.after(() => rmSync(view, { recursive: true, force: true }));
  for (const commit of readdirSync(sharedPath('sources/kubernetes')).filter((f) => /^[0-9a-f]{40}$/.test(f)))
    symlinkSync(join(sharedPath('sources/kubernetes'), commit), join(view, commit));
  for (const tag of pinnedReleases()) symlinkSync(releaseFolder(tag), join(view, tag));
  const { loaded, results } = await run(join(root, 'content'), [
    ['kubernetes/enhancements', openUpstream(sharedPath('sources/kubernetes-enhancements'))],
    ['kubernetes/kubernetes', openUpstream(view)],
  ]);
  const n = tally(results);
  assert.equal(
    n.unchanged,
    loaded.data.excerpts.length,
    formatReport({ results, claims: citingClaims(loaded) }).join('\n'),
  );
  assert.deepEqual(
    results.filter((r) => r.dateProblem).map((r) => r.dateProblem),
    [],
    'every committed: date is what the copy records',
  );
  // Every excerpt is cited by some claim or shown on its page: the mapping covers them all.
  const claims = citingClaims(loaded);
  for (const e of loaded.data.excerpts)
    assert.ok((claims.get(`${e.source}/${e.id}`) ?? []).length > 0, `${e.source}/${e.id} has claims`);
});
