// Every citation carries its words (issue 31, docs/claims.md): which words of a claim are tokens,
// what is forgiven when one is looked for in a citation's text (backticks, a `v` before a version,
// case, white space) and what is not, which sentence a citation belongs to, and the rule over the
// real content against the pinned upstream copies in ../shared/sources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { carries, textTokens, type TokenKind } from '../../src/lib/claims/tokens.ts';
import { scanInline, scanPage } from '../../src/lib/claims/page-scan.ts';
import { citationsCarryTokens, tokenReport } from '../../src/lib/content/checks/claims.ts';
import { pinnedLines } from '../../src/lib/upstream/upstream.ts';
import { loadContent } from '../../src/lib/content/load.ts';
import { Problems } from '../../src/lib/problems.ts';
import type { ContentData } from '../../src/lib/content/collections.ts';
import { havePinnedReleases, haveShared, sharedPath } from '../support/shared.ts';

const kinds = (text: string) => textTokens(text).map((t) => `${t.kind}:${t.value}`);

test('tokens: versions, constants, quantities and quoted phrases; bare numbers and counts are not tokens', () => {
  assert.deepEqual(kinds('Deprecated since v1.35, GA in 1.33, kernel 5.13, v1.37.0-alpha.1.'), [
    'version:v1.35',
    'version:1.33',
    'version:5.13',
    'version:v1.37.0-alpha.1',
  ]);
  assert.deepEqual(kinds('mark 0x4000, 16 KiB, 30 s, 15 minutes, 100%'), [
    'constant:0x4000',
    'quantity:16 KiB',
    'quantity:30 s',
    'quantity:15 minutes',
    'quantity:100%',
  ]);
  assert.deepEqual(kinds('the "Restoring iptables" line, “curly quotes”'), [
    'quoted phrase:Restoring iptables',
    'quoted phrase:curly quotes',
  ]);
  assert.deepEqual(kinds('18 cells, exercise 16, weight 0, KEP-3866, the KEP-3866s, O(1), one minute'), []);
  // A code span is a token of its own (found by the scan, not in plain text).
  assert.deepEqual(
    scanInline('The `KUBE-SERVICES` chain :cite[a/b].').sentences.flatMap((s) =>
      s.tokens.map((t) => `${t.kind}:${t.value}`),
    ),
    ['code span:KUBE-SERVICES'],
  );
});

test('tokens: each kind is not carried by a citation that lacks it', () => {
  const text = 'The gate `FixtureGate` goes off in 1.40; the mark is 0x4000 and the wait 30 s. "Quoted words" here.';
  const missing: Array<[TokenKind, string]> = [
    ['version', '1.41'],
    ['constant', '0x8000'],
    ['quantity', '45 s'],
    ['code span', 'OtherGate'],
    ['quoted phrase', 'words nobody quoted'],
  ];
  for (const [kind, value] of missing) assert.equal(carries(text, { kind, value }), false, `${kind} ${value}`);
});

test('tokens: each allowed normalisation is forgiven (backticks, v prefix, case, white space)', () => {
  assert.ok(carries('calls `KUBE-MARK-MASQ` first', { kind: 'code span', value: 'KUBE-MARK-MASQ' }), 'backticks');
  assert.ok(carries('milestone: "v1.35"', { kind: 'version', value: '1.35' }), 'v in the text');
  assert.ok(carries('This happened in 1.35.', { kind: 'version', value: 'v1.35' }), 'v in the claim');
  assert.ok(carries('Restoring IPTables rules', { kind: 'quoted phrase', value: 'restoring iptables' }), 'case');
  assert.ok(carries('a buffer of 16KiB', { kind: 'quantity', value: '16 KiB' }), 'a space absent');
  assert.ok(
    carries('the small\n   interesting file', { kind: 'quoted phrase', value: 'the small interesting file' }),
    'a line break',
  );
});

test('tokens: a FIXTURE that must still fail: nothing beyond those four is forgiven', () => {
  assert.equal(carries('GA in 1.35', { kind: 'version', value: '1.3' }), false, 'a number is whole');
  assert.equal(carries('GA in 1.3', { kind: 'version', value: '1.35' }), false);
  assert.equal(carries('MARK or 0x4000', { kind: 'constant', value: '0x400' }), false);
  assert.equal(carries('a timeout of 30 ms', { kind: 'quantity', value: '30 s' }), false, 'another unit');
  assert.equal(carries('prefix "KUBE-SVC-"', { kind: 'code span', value: 'KUBE-SVC-*' }), false, 'no glob');
  assert.equal(carries("they don't", { kind: 'quoted phrase', value: 'they don’t' }), false, 'no apostrophe folding');
  assert.equal(carries('wv1.35', { kind: 'version', value: '1.35' }), false, 'a v inside a word is not a prefix');
});

test('sentences: a citation belongs to its own sentence (also just after its full stop); our reading is skipped', () => {
  const s = scanInline(
    'First `A` here :cite[x/a]. Second `B` with none. Third `C`. :cite[x/c] :reading[Fourth `D`.] Fifth "E" :cite[x/e].',
  ).sentences;
  assert.deepEqual(
    s.map((x) => [x.tokens.map((t) => t.value).join(), x.cites.join()]),
    [
      ['A', 'x/a'],
      ['B', ''],
      ['C', 'x/c'],
      ['E', 'x/e'],
    ],
  );
  // A table row is one claim; an :::intro block that carries a token is read like a paragraph; :::reading is not.
  const page = scanPage(
    '---\ntitle: t\n---\n\n| a | b |\n|---|---|\n| `X` | :cite[x/x] |\n\n:::intro\nIntro `Y`.\n:::\n\n:::reading\nOurs `Z`.\n:::\n',
  );
  assert.deepEqual(
    page.sentences.map((x) => [x.tokens.map((t) => `${t.value}@${t.line}:${t.col}`).join(), x.cites.join()]),
    [
      ['X@7:4', 'x/x'],
      ['Y@10:8', ''],
    ],
  );
  // A link to a page counts among the sentence's citations (the rule resolves only verbatim pages).
  assert.deepEqual(scanInline('The [exercise](/exercise/#read) says "it".').sentences[0]?.cites, ['link:/exercise/']);
});

/** The smallest content the rule reads: one quotable source, one code note, one cell. */
function fixture(answer: string, cites: string[]): ContentData {
  const o = { file: 'FIXTURE.yaml', index: 0 };
  return {
    site: {} as ContentData['site'],
    backends: [],
    evidence: [],
    growth: [],
    pages: [],
    figures: [],
    sources: [
      {
        ...o,
        id: 'kep',
        label: 'KEP',
        title: 't',
        repo: 'fixture/enhancements',
        path: 'KEP.md',
        commit: 'f'.repeat(40),
        license: 'x',
        quotable: true,
        page: 'p',
      },
      {
        ...o,
        id: 'code',
        label: 'code',
        title: 't',
        repo: 'kubernetes/kubernetes',
        path: 'pkg/x.go',
        commit: 'e'.repeat(40),
        license: 'x',
        quotable: false,
        page: 'p',
      },
    ] as ContentData['sources'],
    excerpts: [
      {
        ...o,
        id: 'q',
        source: 'kep',
        section: 's',
        lines: [1, 1],
        quote: 'The FIXTURE default changes in 1.40.',
        answers: 'a',
      },
      { ...o, id: 'n', source: 'code', section: 's', lines: [2, 3], note: 'n', anchor: 'x', answers: 'a' },
    ] as ContentData['excerpts'],
    axes: [
      {
        ...o,
        id: 'row',
        question: 'q',
        summary: 'FIXTURE :cite[kep/q].',
        cells: { b: { short: 'FIXTURE', answer, cites } },
        html: {},
      },
    ] as unknown as ContentData['axes'],
  } as ContentData;
}

test('rule: a code note is read at its pinned lines; with no upstream copies its tokens are skipped, said once, never failed', () => {
  const lines = (_repo: string, commit: string, path: string, [a, b]: readonly [number, number]) =>
    commit === 'e'.repeat(40) && path === 'pkg/x.go'
      ? ['package x', 'const fixtureDelay = 30 * time.Second', '// FIXTURE `KUBE-FIXTURE`'].slice(a - 1, b).join('\n')
      : null;
  const data = fixture('FIXTURE: `fixtureDelay` and `KUBE-FIXTURE`, not `package`; 1.40.', ['kep/q', 'code/n']);
  const read = tokenReport(data, lines);
  assert.deepEqual(
    read.failures.map((f) => f.token.value),
    ['package'],
    "line 1 is outside the note's lines 2-3",
  );
  assert.equal(read.checked, 4);
  const unread = tokenReport(data, undefined);
  assert.deepEqual(
    [unread.failures.length, unread.skipped],
    [0, 3],
    'the three code spans only a code note could carry are skipped',
  );
  // The check says so once, in a line the build-log gate does not take for a warning.
  const logged: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => {
    logged.push(args.join(' '));
  };
  try {
    for (let i = 0; i < 2; i++) citationsCarryTokens(() => undefined)(data, new Problems());
  } finally {
    console.log = log;
  }
  assert.equal(logged.filter((l) => l.includes('KUBERNETES_SOURCES')).length, 1, logged.join('\n'));
  assert.match(
    logged[0] ?? '',
    /^content: no kubernetes\/kubernetes copies at .*: code notes' anchors and the tokens only their lines could carry were not checked$/,
  );
});

test('rule: the real content, against the pinned upstream copies: every token carried, none skipped', async (t) => {
  // Commit pins from the copies in ../shared, release pins from the Go module cache, as the build reads them.
  if (!haveShared(t, 'sources/kubernetes') || !havePinnedReleases(t)) return;
  const data = await loadContent('content');
  const report = tokenReport(data, pinnedLines(sharedPath('sources/kubernetes')));
  assert.deepEqual(
    report.failures.map((f) => `${f.claim.where.file}: ${f.token.value}`),
    [],
  );
  assert.equal(report.skipped, 0);
  assert.ok(report.checked > 0);
});
