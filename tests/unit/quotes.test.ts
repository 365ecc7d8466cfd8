// Unit tests for tools/lib/quotes.ts and end-to-end runs of tools/verify-quotes.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  checkQuote,
  checkQuoteRange,
  normaliseWhitespace,
  quoteCut,
  quoteShape,
  quoteSpan,
  verifyQuotes,
} from '../../tools/lib/quotes.ts';
import { quoteBlocks, renderQuoteBlocks } from '../../src/lib/content/quote-blocks.ts';
import { plainRender } from '../../src/lib/content/inline.ts';
import { haveShared, sharedPath } from '../support/shared.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const enhancements = sharedPath('sources/kubernetes-enhancements');
const mutatedFixture = join(root, 'tests/fixtures/content-mutated-quote');
const tooWideFixture = join(root, 'tests/fixtures/content-too-wide-range');

/** The pinned copy is here (under CI=true a missing one fails; elsewhere the test skips, saying so). */
const havePinnedCopy = (t: { skip: (message: string) => void }) => haveShared(t, 'sources/kubernetes-enhancements');

const runCli = (...args: string[]) =>
  spawnSync(process.execPath, ['tools/verify-quotes.ts', ...args], { cwd: root, encoding: 'utf8' });

const sample = [
  'Heading',
  '',
  '- The data plane is problematic because (for the most part), the',
  '  number of iptables rules used to implement a set of Kubernetes',
  "  Services is directly proportional to the number of Services. It's `odd`.",
  '',
].join('\n');

test('normaliseWhitespace collapses runs of any whitespace and trims', () => {
  assert.equal(normaliseWhitespace('  a \t b\n\n  c\r\n'), 'a b c');
  assert.equal(normaliseWhitespace(''), '');
});

test('checkQuote matches a quote that spans line breaks', () => {
  const quote = 'the number of iptables rules used to implement a set of Kubernetes Services';
  assert.deepEqual(checkQuote(quote, sample, [3, 5]), { ok: true });
  // Line breaks inside the quote itself are also fine.
  assert.deepEqual(checkQuote('the\nnumber  of iptables', sample, [3, 4]), { ok: true });
  // Punctuation and backticks must be kept exactly.
  assert.deepEqual(checkQuote("It's `odd`.", sample, [5, 5]), { ok: true });
});

test('checkQuote rejects a changed word and says what the lines contain', () => {
  const result = checkQuote('the number of nftables rules', sample, [3, 5]);
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.match(result.problem, /not found in lines 3-5/);
  assert.match(result.problem, /the number of iptables rules/, 'problem quotes a snippet of the actual lines');
});

test('checkQuote rejects text that exists only outside the cited range', () => {
  const result = checkQuote('Heading', sample, [3, 5]);
  assert.equal(result.ok, false);
});

test('checkQuote rejects backticks or punctuation that differ', () => {
  assert.equal(checkQuote("It's odd.", sample, [5, 5]).ok, false);
  assert.equal(checkQuote('It’s `odd`.', sample, [5, 5]).ok, false); // curly vs straight apostrophe
});

test('checkQuote reports a line range outside the file', () => {
  const result = checkQuote('Heading', sample, [4, 40]);
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.match(result.problem, /outside the file/);
  assert.match(result.problem, /5 lines/);
  const inverted = checkQuote('Heading', sample, [3, 2]);
  assert.equal(inverted.ok, false);
  assert.equal(checkQuote('Heading', sample, [0, 1]).ok, false);
});

const prose = [
  '## Heading',
  '',
  'First sentence here. The second sentence runs on',
  'across a line break; and then it ends here.',
  '',
  '- a list item without a full stop',
  '',
  '```',
  'chain x {',
  '  rule one  # comment',
  '}',
  '```',
  '',
].join('\n');

test('quoteSpan finds the lines a quote occupies inside a wider range', () => {
  assert.deepEqual(quoteSpan('The second sentence runs on across', prose, [1, 6]), [3, 4]);
  assert.deepEqual(quoteSpan('First sentence here.', prose, [3, 3]), [3, 3]);
  assert.equal(quoteSpan('not in the text', prose, [1, 6]), null);
});

test('checkQuoteRange fails a range wider than the quote and names the lines it occupies', () => {
  assert.deepEqual(checkQuoteRange('First sentence here.', prose, [3, 3]), { ok: true });
  assert.deepEqual(checkQuoteRange('runs on across a line break', prose, [3, 4]), { ok: true });
  const wide = checkQuoteRange('First sentence here.', prose, [1, 4]);
  assert.equal(wide.ok, false);
  if (wide.ok) return;
  assert.match(wide.problem, /stated lines 1-4 are wider than the quote, which occupies line 3; state \[3, 3\]/);
  const wideEnd = checkQuoteRange('runs on across a line break', prose, [3, 6]);
  assert.equal(wideEnd.ok, false);
  // A quote that is not in the range at all is reported as missing, not as too wide.
  const missing = checkQuoteRange('not in the text', prose, [1, 6]);
  assert.equal(missing.ok, false);
  if (!missing.ok) assert.match(missing.problem, /not found in lines 1-6/);
});

test('quoteCut: prose is cut where a quote starts or ends inside a sentence', () => {
  assert.equal(quoteCut('First sentence here.', prose, [3, 3]), undefined);
  assert.equal(
    quoteCut('The second sentence runs on across a line break; and then it ends here.', prose, [3, 4]),
    undefined,
  );
  assert.equal(quoteCut('and then it ends here.', prose, [4, 4]), 'start');
  assert.equal(quoteCut('First sentence here. The second sentence', prose, [3, 3]), 'end');
  assert.equal(quoteCut('second sentence runs on', prose, [3, 3]), 'both');
  // A list item or heading starts a block; one that ends without a full stop is still whole.
  assert.equal(quoteCut('a list item without a full stop', prose, [6, 6]), undefined);
  assert.equal(quoteCut('Heading', prose, [1, 1]), undefined);
});

test('quoteCut: a line that is only an emphasised label stands alone; the line after it starts a sentence', () => {
  const labelled = [
    '***Parameter: --scheduler***',
    'A new parameter picks the algorithm.',
    'Then it goes on.',
    '',
  ].join('\n');
  assert.equal(quoteCut('A new parameter picks the algorithm.', labelled, [2, 2]), undefined);
  assert.equal(quoteCut('picks the algorithm.', labelled, [2, 2]), 'start');
  // Emphasis inside a sentence is not a label: the words after it still continue that sentence.
  const inline = ['Some **bold** words run', 'on here.', ''].join('\n');
  assert.equal(quoteCut('on here.', inline, [2, 2]), 'start');
});

test('quoteCut: a paragraph that goes on with a sentence begun before a code block is cut', () => {
  const around = [
    'The tool allows either one command', // 1
    'per invocation:', // 2
    '', // 3
    '```', // 4
    '$ nft add table ip x', // 5
    '```', // 6
    '', // 7
    'or multiple commands in one', // 8
    'transaction:', // 9
    '', // 10
    '```', // 11
    '$ nft -f file', // 12
    '```', // 13
    '', // 14
    'and that is all', // 15
    '', // 16
    'A new sentence after code.', // 17
    '',
  ].join('\n');
  assert.equal(quoteCut('or multiple commands in one transaction:', around, [8, 9]), 'both');
  assert.equal(quoteCut('The tool allows either one command per invocation:', around, [1, 2]), 'end');
  assert.equal(quoteCut('A new sentence after code.', around, [17, 17]), undefined);
  // Plain prose that opens in lower case, not after a code block, is not taken for a continuation.
  assert.equal(quoteCut('a list item without a full stop', prose, [6, 6]), undefined);
});

test('quoteCut: code blocks and YAML are cut mid-line, not mid-sentence', () => {
  assert.equal(quoteCut('chain x {', prose, [9, 9]), undefined);
  assert.equal(quoteCut('# comment', prose, [10, 10]), 'start');
  assert.equal(quoteCut('rule one', prose, [10, 10]), 'end');
  const yaml = 'milestone:\n  alpha: "v1.22"\n  beta: "v1.26"\n';
  assert.equal(quoteCut('alpha: "v1.22" beta: "v1.26"', yaml, [2, 3], { lineOriented: true }), undefined);
  assert.equal(quoteCut('"v1.22"', yaml, [2, 2], { lineOriented: true }), 'start');
});

/** Where each FIXTURE excerpt was read from: a YAML file and its index there. */
const origin = (index: number) => ({ file: 'FIXTURE.yaml', index });

// A FIXTURE source with a heading and its items, a list, a paragraph whose line starts with a year,
// and sample output in a code block.
const shaped = [
  '#### Stage 3 (1.40)',
  '',
  '- The gate is flipped to `Default: false`, and the docs',
  '  updated.',
  '- The docs say so.',
  '',
  'Kernels too old will be out of LTS by the end of',
  '2026. At that point nothing else changes.',
  '',
  '```shell',
  'Chain KUBE-MARK-DROP (0 references)',
  'target     prot opt source               destination         ',
  'MARK       all  --  0.0.0.0/0            0.0.0.0/0            MARK or 0x8000',
  '```',
  '',
].join('\n');

test('quoteShape: a quote that joins a heading to its item, or two items, needs form: markdown and the lines', () => {
  const folded = 'Stage 3 (1.40) - The gate is flipped to `Default: false`, and the docs updated.';
  const bad = quoteShape(folded, shaped, [1, 4], undefined);
  assert.equal(bad.ok, false);
  assert.match(!bad.ok ? bad.problem : '', /runs across Markdown blocks .*lines 1-4.*form: markdown/);
  const kept = '#### Stage 3 (1.40)\n\n- The gate is flipped to `Default: false`, and the docs\n  updated.';
  assert.deepEqual(quoteShape(kept, shaped, [1, 4], 'markdown'), { ok: true });
  const twoItems = 'updated.\n- The docs say so.';
  assert.deepEqual(quoteShape(twoItems, shaped, [4, 5], 'markdown'), { ok: true }); // first line cut inside its line
  const reflowed = '#### Stage 3 (1.40)\n\n- The gate is flipped to `Default: false`,\nand the docs updated.';
  assert.equal(quoteShape(reflowed, shaped, [1, 4], 'markdown').ok, false); // line breaks not the source's
  // One item alone is one block: no form needed, and form: markdown is refused.
  const one = 'The gate is flipped to `Default: false`, and the docs updated.';
  assert.deepEqual(quoteShape(one, shaped, [3, 4], undefined), { ok: true });
  assert.equal(
    quoteShape(`- ${one}`.replace(' and the docs ', ' and the docs\n'), shaped, [3, 4], 'markdown').ok,
    false,
  );
});

test('quoteShape: "2026." inside a paragraph is no list item', () => {
  const q = 'Kernels too old will be out of LTS by the end of 2026. At that point nothing else changes.';
  assert.deepEqual(quoteShape(q, shaped, [7, 8], undefined), { ok: true });
});

test('quoteShape: sample output spanning lines of a code block needs form: sample, line for line', () => {
  const lines = [
    'Chain KUBE-MARK-DROP (0 references)',
    'target     prot opt source               destination',
    'MARK       all  --  0.0.0.0/0            0.0.0.0/0            MARK or 0x8000',
  ];
  assert.match(
    ((r) => (r.ok ? '' : r.problem))(quoteShape(lines.join(' '), shaped, [11, 13], undefined)),
    /lines 11-13 of a code block.*form: sample/,
  );
  assert.deepEqual(quoteShape(lines.join('\n'), shaped, [11, 13], 'sample'), { ok: true });
  const squeezed = [lines[0], 'target prot opt source destination', lines[2]].join('\n');
  assert.equal(quoteShape(squeezed, shaped, [11, 13], 'sample').ok, false); // its spacing is the source's
  assert.equal(
    quoteShape('Kernels too old will be out of LTS by the end of\n2026.', shaped, [7, 8], 'sample').ok,
    false,
  );
});

test('renderQuoteBlocks: a heading stays a heading (not a page heading), items a list, a sample preformatted', async () => {
  const md = '#### Stage 3 (1.40)\n\n- The gate is flipped, and the docs\n  updated.\n- The docs say so.';
  assert.deepEqual(quoteBlocks(md), [
    { kind: 'heading', text: 'Stage 3 (1.40)' },
    { kind: 'item', text: 'The gate is flipped, and the docs updated.' },
    { kind: 'item', text: 'The docs say so.' },
  ]);
  assert.equal(
    await renderQuoteBlocks(plainRender, md, 'markdown'),
    '<p class="quote-heading">Stage 3 (1.40)</p><ul><li>The gate is flipped, and the docs updated.</li><li>The docs say so.</li></ul>',
  );
  assert.equal(
    await renderQuoteBlocks(plainRender, 'MARK  all  --  0.0.0.0/0   \nMARK or <x>', 'sample'),
    '<pre class="quote-sample">MARK  all  --  0.0.0.0/0\nMARK or &lt;x&gt;</pre>',
  );
});

test('verifyQuotes reports a too-wide range and a cut that does not match the source, each at its field', () => {
  const sources = [{ id: 'fixture-kep', repo: 'kubernetes/enhancements', path: 'keps/fixture/README.md' }];
  const read = (path: string) => (path === 'keps/fixture/README.md' ? prose : null);
  const excerpts = [
    { id: 'exact', source: 'fixture-kep', lines: [3, 3] as [number, number], quote: 'First sentence here.' },
    { id: 'wide', source: 'fixture-kep', lines: [1, 4] as [number, number], quote: 'First sentence here.' },
    {
      id: 'declared-cut',
      source: 'fixture-kep',
      lines: [4, 4] as [number, number],
      quote: 'and then it ends here.',
      cut: 'start' as const,
    },
    { id: 'undeclared-cut', source: 'fixture-kep', lines: [4, 4] as [number, number], quote: 'and then it ends here.' },
    {
      id: 'needless-cut',
      source: 'fixture-kep',
      lines: [3, 3] as [number, number],
      quote: 'First sentence here.',
      cut: 'end' as const,
    },
  ].map((e, i) => ({ ...e, ...origin(i) }));
  const report = verifyQuotes({ sources, excerpts }, read);
  assert.equal(report.checked, 5);
  assert.deepEqual(
    report.failures.map((f) => [f.excerpt.id, f.field]),
    [
      ['wide', 'lines'],
      ['undeclared-cut', 'cut'],
      ['needless-cut', 'cut'],
    ],
  );
  const [wide, undeclared, needless] = report.failures.map((f) => f.problem);
  assert.match(
    wide ?? '',
    /^keps\/fixture\/README\.md: stated lines 1-4 are wider than the quote, which occupies line 3/,
  );
  assert.match(undeclared ?? '', /says no cut, but the quote breaks off mid-sentence, so state cut: start/);
  assert.match(needless ?? '', /says cut: end, but the quote starts and ends where a sentence does/);
});

test('verifyQuotes: checks only kubernetes/enhancements quotes, resolves kep.yaml paths, names each problem', () => {
  const sources = [
    { id: 'fixture-kep', repo: 'kubernetes/enhancements', path: 'keps/fixture/README.md' },
    { id: 'fixture-code', repo: 'kubernetes/kubernetes', path: 'pkg/fixture.go' },
  ];
  const files: Record<string, string> = {
    'keps/fixture/README.md': sample,
    'keps/fixture/kep.yaml': 'stage: fixture\n',
  };
  const read = (path: string) => files[path] ?? null;
  const excerpts = [
    { id: 'ok', source: 'fixture-kep', lines: [5, 5] as [number, number], quote: "It's `odd`." },
    { id: 'yaml', source: 'fixture-kep', lines: [1, 1] as [number, number], path: 'kep.yaml', quote: 'stage: fixture' },
    { id: 'changed', source: 'fixture-kep', lines: [5, 5] as [number, number], quote: 'It is odd.' },
    { id: 'note-only', source: 'fixture-kep', lines: [1, 1] as [number, number] },
    { id: 'not-checkable', source: 'fixture-code', lines: [1, 1] as [number, number], quote: 'anything' },
    { id: 'orphan', source: 'fixture-none', lines: [1, 1] as [number, number], quote: 'x' },
    { id: 'gone', source: 'fixture-kep', lines: [1, 1] as [number, number], path: 'missing.md', quote: 'x' },
  ].map((e, i) => ({ ...e, ...origin(i) }));
  const report = verifyQuotes({ sources, excerpts }, read);
  assert.equal(report.checked, 4, 'ok, yaml, changed and gone are compared; the rest are not quotes of enhancements');
  assert.deepEqual(
    report.failures.map((f) => [f.excerpt.id, f.field, f.problem.replace(/; quote: .*/, '')]),
    [
      ['changed', 'quote', 'keps/fixture/README.md: quote not found in lines 5-5'],
      ['orphan', 'source', 'no source "fixture-none" in sources.yaml (an excerpt file is named after its source)'],
      ['gone', 'quote', 'file not found: keps/fixture/missing.md'],
    ],
  );
});

test('verify-quotes: every quote in content/ matches the pinned kubernetes/enhancements copy', (t) => {
  if (!havePinnedCopy(t)) return;
  const run = runCli(enhancements);
  assert.equal(run.status, 0, `verify-quotes failed:\n${run.stdout}${run.stderr}`);
  assert.match(run.stdout, /^\d+ quotes checked, 0 failures$/m);
  const checked = Number(/^(\d+) quotes checked/m.exec(run.stdout)?.[1]);
  assert.ok(checked > 0, 'at least one quote was checked');
});

test('verify-quotes: a mutated quote (FIXTURE) exits 1 and names the excerpt', (t) => {
  if (!havePinnedCopy(t)) return;
  const run = runCli(enhancements, '--content', mutatedFixture);
  assert.equal(run.status, 1, `expected exit 1:\n${run.stdout}${run.stderr}`);
  assert.match(
    run.stdout,
    /^.*tests\/fixtures\/content-mutated-quote\/excerpts\/fixture-kep-3866\.yaml:\d+:\d+: excerpt "fixture-kep-3866\/fixture-mutated-quote", field "quote": keps\/.*: quote not found in lines /m,
  );
  assert.doesNotMatch(run.stdout, /fixture-correct-quote/, 'the unchanged quote in the fixture passes');
  assert.match(run.stdout, /^2 quotes checked, 1 failure$/m);
});

test('verify-quotes: a line range wider than its quote (FIXTURE) exits 1 and names the lines', (t) => {
  if (!havePinnedCopy(t)) return;
  const run = runCli(enhancements, '--content', tooWideFixture);
  assert.equal(run.status, 1, `expected exit 1:\n${run.stdout}${run.stderr}`);
  assert.match(
    run.stdout,
    /^.*tests\/fixtures\/content-too-wide-range\/excerpts\/fixture-kep-5495\.yaml:\d+:\d+: excerpt "fixture-kep-5495\/fixture-too-wide-range", field "lines": .*stated lines 119-155 are wider than the quote, which occupies lines 142-145; state \[142, 145\]$/m,
  );
  assert.doesNotMatch(run.stdout, /fixture-exact-range/, 'the same quote with its exact range passes');
  assert.match(run.stdout, /^2 quotes checked, 1 failure$/m);
});

test('verify-quotes: a missing checkout file exits 1', () => {
  // An empty directory stands in for a checkout that lacks the KEP files.
  const run = runCli(join(root, 'tests/fixtures'), '--content', mutatedFixture);
  assert.equal(run.status, 1);
  assert.match(run.stdout, /file not found/);
});

test('verify-quotes: content the site loader rejects exits 1 and names the file and field', () => {
  // A copy of the mutated-quote fixture with one excerpt missing its line range (FIXTURE).
  const dir = mkdtempSync(join(tmpdir(), 'verify-quotes-'));
  try {
    mkdirSync(join(dir, 'excerpts'));
    writeFileSync(join(dir, 'sources.yaml'), readFileSync(join(mutatedFixture, 'sources.yaml')));
    writeFileSync(
      join(dir, 'excerpts/fixture-kep-3866.yaml'),
      '- id: fixture-no-lines\n  section: FIXTURE\n  quote: FIXTURE\n  answers: FIXTURE\n',
    );
    const run = runCli(join(root, 'tests/fixtures'), '--content', dir);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /^content: .*excerpts\/fixture-kep-3866\.yaml:1:3: excerpt "fixture-kep-3866\/fixture-no-lines", field "lines": /m,
    );
    assert.match(run.stdout, /content invalid \(1 problem\)$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('verify-quotes: usage errors exit 2', () => {
  assert.equal(runCli().status, 2);
  assert.equal(runCli(root, '--content').status, 2);
  assert.equal(runCli(root, '--bogus').status, 2);
});
