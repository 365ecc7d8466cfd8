// Each class of authoring mistake fails with a message that names the file and the field (and the
// item and backend where they apply). Every case folder under tests/fixtures/bad-content/ holds only
// the file(s) that differ from valid/, the smallest content folder that builds; a case is valid/
// with its files laid over it, in a temporary folder.
//
// The cases run loadContent (read.ts + checks.ts), the readers and rules the content layer's
// loaders run in the build; two cases run the real `astro build` with CONTENT_DIR (one data
// mistake, one cross-file mistake) to prove the build fails before any page renders, printing
// file:line:column and no stack trace from Astro's internals.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadContent } from '../../src/lib/content/load.ts';
import { assembleTable } from '../../src/lib/content/model.ts';
import { ContentError, type Item, type Problem } from '../../src/lib/problems.ts';
import { astroBuild } from '../support/astro-build.ts';
import { findWarnings } from '../../tools/check-build-log.ts';

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

/** The problems of a case (a name under tests/fixtures/bad-content/) or of a content folder (a path). */
async function problemsOf(name: string): Promise<{ problems: Problem[]; message: string }> {
  try {
    await loadContent(name.startsWith('/') ? name : contentFor(name));
  } catch (error) {
    assert.ok(error instanceof ContentError, `a ContentError, got: ${String(error)}`);
    return { problems: error.problems, message: error.message };
  }
  assert.fail(`content case "${name}" was accepted`);
}

interface Expected {
  file: string;
  line: number;
  col?: number;
  item?: Item;
  backend?: string;
  field?: string;
  problem: RegExp;
}

/** One problem at exactly this place, and a message line that starts file:line:column and names every part. */
async function assertProblem(name: string, want: Expected): Promise<void> {
  const { problems, message } = await problemsOf(name);
  const here = (p: Problem) =>
    p.file.endsWith(want.file) &&
    p.item?.kind === want.item?.kind &&
    p.item?.id === want.item?.id &&
    p.backend === want.backend &&
    p.field === want.field;
  const hit = problems.find((p) => here(p) && p.line === want.line) ?? problems.find(here);
  assert.ok(
    hit,
    `expected a problem in ${want.file} at ${JSON.stringify(want.item)}, backend ${want.backend}, field ${want.field}; got:\n${message}`,
  );
  assert.match(hit.problem, want.problem);
  assert.equal(hit.line, want.line, `line of: ${hit.problem}`);
  if (want.col !== undefined) assert.equal(hit.col, want.col, `column of: ${hit.problem}`);
  const line = message.split('\n').find((l) => l.includes(want.file) && l.includes(hit.problem));
  assert.ok(line, `the printed message has a line for it:\n${message}`);
  assert.match(
    line,
    new RegExp(`${want.file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:${want.line}:${want.col ?? '\\d+'}: `),
    line,
  );
  if (want.item !== undefined) assert.ok(line.includes(`${want.item.kind} "${want.item.id}"`), line);
  if (want.backend !== undefined) assert.ok(line.includes(`backend "${want.backend}"`), line);
  if (want.field !== undefined) assert.ok(line.includes(`field "${want.field}"`), line);
}

test('valid/: the base every case starts from is accepted (so each case fails for its own mistake)', async () => {
  const data = await loadContent(contentFor('valid'));
  assert.deepEqual(
    data.axes.map((r) => r.id),
    ['fixture-axis'],
  );
});

test('broken cite id: names file:line, axis, backend and cites[i]', () =>
  assertProblem('broken-cite', {
    file: 'comparison/axes.yaml',
    line: 17,
    item: { kind: 'axis', id: 'fixture-axis' },
    backend: 'fixture-read',
    field: 'cites[0]',
    problem: /unknown excerpt id "fixture-source\/fixture-no-such-excerpt"/,
  }));

test('measured cell of a backend that was not run: names file:line, axis, backend and measure', () =>
  assertProblem('measured-in-unrun-column', {
    file: 'comparison/axes.yaml',
    line: 18,
    item: { kind: 'axis', id: 'fixture-axis' },
    backend: 'fixture-read',
    field: 'measure',
    problem: /measured cell of backend "fixture-read", which was not run/,
  }));

test('missing cell: names file:line, axis, the backend without a cell, and cells', () =>
  assertProblem('missing-cell', {
    file: 'comparison/axes.yaml',
    line: 6,
    item: { kind: 'axis', id: 'fixture-axis' },
    backend: 'fixture-read',
    field: 'cells',
    problem: /missing cell/,
  }));

test('duplicate axis id: names file:line of the second one, axis and id', () =>
  assertProblem('duplicate-axis-id', {
    file: 'comparison/axes.yaml',
    line: 9,
    item: { kind: 'axis', id: 'fixture-axis' },
    field: 'id',
    problem: /duplicate axis id "fixture-axis"/,
  }));

// Short answers: required, and at most 12 words of plain text (what the reader sees).

test('a cell without a short answer: names file:line of the cell, axis, backend and short', () =>
  assertProblem('short-missing', {
    file: 'comparison/axes.yaml',
    line: 14,
    item: { kind: 'axis', id: 'fixture-axis' },
    backend: 'fixture-read',
    field: 'short',
    problem: /^missing: every cell needs a short answer \(inline Markdown, at most 12 words\)/,
  }));

test('a short answer over 12 words: names file:line of the short answer, axis, backend and short, with its count', async () => {
  await assertProblem('short-too-long', {
    file: 'comparison/axes.yaml',
    line: 9,
    item: { kind: 'axis', id: 'fixture-axis' },
    backend: 'fixture-ran',
    field: 'short',
    problem: /^too long: 13 words, at most 12/,
  });
  // Markup is not words: the other cell's 12 words, with code ticks, emphasis and a link, pass.
  const { problems } = await problemsOf('short-too-long');
  assert.deepEqual(
    problems.map((p) => `${p.backend}.${p.field}`),
    ['fixture-ran.short'],
    'only the over-long one fails',
  );
});

// Renames (formerly): an old id must lead to one axis (or backend) only.

test('an old axis id that is a current axis id: names file:line, axis and formerly[i]', () =>
  assertProblem('former-axis-id-taken', {
    file: 'comparison/axes.yaml',
    line: 10,
    item: { kind: 'axis', id: 'fixture-renamed' },
    field: 'formerly[1]',
    problem: /old id "fixture-axis" is the id of the current axis at index 0/,
  }));

test('two axes claiming one old id: names file:line of the second claim, axis and formerly[i]', () =>
  assertProblem('former-axis-id-claimed-twice', {
    file: 'comparison/axes.yaml',
    line: 12,
    item: { kind: 'axis', id: 'fixture-second' },
    field: 'formerly[0]',
    problem: /old id "fixture-old" is already claimed by axis "fixture-axis" \(index 0\)/,
  }));

test('an old backend id that is a current backend id: names file:line, backend and formerly[i]', () =>
  assertProblem('former-backend-id-taken', {
    file: 'comparison/backends.yaml',
    line: 8,
    item: { kind: 'backend', id: 'fixture-read' },
    field: 'formerly[0]',
    problem: /old id "fixture-ran" is the id of the current backend at index 0/,
  }));

test('two backends claiming one old id: names file:line of the second claim, backend and formerly[i]', () =>
  assertProblem('former-backend-id-claimed-twice', {
    file: 'comparison/backends.yaml',
    line: 10,
    item: { kind: 'backend', id: 'fixture-read' },
    field: 'formerly[1]',
    problem: /old id "fixture-old" is already claimed by backend "fixture-ran" \(index 0\)/,
  }));

test('unknown backend: names file:line, axis, the unknown backend and cells', () =>
  assertProblem('unknown-backend', {
    file: 'comparison/axes.yaml',
    line: 9,
    item: { kind: 'axis', id: 'fixture-axis' },
    backend: 'fixture-unknown',
    field: 'cells',
    problem: /unknown backend "fixture-unknown" \(backends: fixture-ran, fixture-read\)/,
  }));

test('malformed evidence: a bad date and a missing field, each at its line', async () => {
  await assertProblem('malformed-evidence', {
    file: 'evidence/fixture-evidence.yaml',
    line: 6,
    field: 'captured',
    problem: /date/i,
  });
  await assertProblem('malformed-evidence', {
    file: 'evidence/fixture-evidence.yaml',
    line: 3,
    field: 'output',
    problem: /expected string, received undefined/,
  });
});

test('malformed YAML: names file:line', () =>
  assertProblem('malformed-yaml', {
    file: 'comparison/backends.yaml',
    line: 7,
    problem: /^malformed YAML: /,
  }));

// One problem per broken file, not a cascade: on a copy of the real content, one malformed line in
// axes.yaml (a colon inside a plain value) is one problem at its file:line:column, and no rule that
// reads the rows reports every reference to them as unknown while the file does not parse.
test('a malformed line in a copy of content/comparison/axes.yaml: exactly one problem, at file:line:column', async () => {
  const dir = join(scratch, 'malformed-axes-line', 'content');
  cpSync(join(root, 'content'), dir, { recursive: true });
  const axes = join(dir, 'comparison/axes.yaml');
  const lines = readFileSync(axes, 'utf8').split('\n');
  const at = lines.findIndex((l) => /^\s+short: \S/.test(l));
  assert.ok(at >= 0, 'content/comparison/axes.yaml has a short answer to break');
  lines[at] = lines[at]!.replace(/short: .*/, 'short: Linear walk: then a DNAT chain');
  writeFileSync(axes, lines.join('\n'));
  const { problems, message } = await problemsOf(dir);
  assert.equal(problems.length, 1, message);
  const col = lines[at]!.indexOf('Linear') + 1;
  assert.match(message, new RegExp(`^\\S*comparison/axes\\.yaml:${at + 1}:${col}: malformed YAML: `), message);
});

// The same for an entry its schema rejects: the entry is left out, and a rule that reads its
// collection waits, so the references to it (cells, citations, figures, evidence) are not reported as
// unknown besides. One case per collection that others refer to.
for (const [what, file, field, edit] of [
  [
    'an axis without its question',
    'comparison/axes.yaml',
    'question',
    (s: string) => s.replace(/\n {2}question: [^\n]*/, ''),
  ],
  [
    'a backend without its name',
    'comparison/backends.yaml',
    'name',
    (s: string) => s.replace(/\n {2}name: [^\n]*/, ''),
  ],
  [
    'an excerpt without its lines',
    'excerpts/kep-265.yaml',
    'lines',
    (s: string) => s.replace(/\n {2}lines: [^\n]*/, ''),
  ],
  ['a source without its label', 'sources.yaml', 'label', (s: string) => s.replace(/\n {2}label: [^\n]*/, '')],
] as const)
  test(`${what}, in a copy of content/${file}: exactly one problem, at that entry's field`, async () => {
    const dir = join(scratch, `schema-${field}`, 'content');
    cpSync(join(root, 'content'), dir, { recursive: true });
    const path = join(dir, file);
    const before = readFileSync(path, 'utf8');
    const after = edit(before);
    assert.notEqual(after, before, `content/${file} has a ${field} to remove`);
    writeFileSync(path, after);
    const { problems, message } = await problemsOf(dir);
    assert.equal(problems.length, 1, message);
    assert.match(message, new RegExp(`^\\S*${file.replace('.', '\\.')}:\\d+:\\d+: .*field "${field}"`), message);
  });

// An emptied file (an author's, or a save caught half-way in dev) is that file's one problem: the
// rules that read its collection wait, as for a file that does not parse.
for (const file of [
  'comparison/axes.yaml',
  'comparison/backends.yaml',
  'sources.yaml',
  'site.yaml',
  'excerpts/kep-265.yaml',
])
  test(`an emptied copy of content/${file}: exactly one problem, at file:1:1`, async () => {
    const dir = join(scratch, `empty-${file.replace(/\W/g, '-')}`, 'content');
    cpSync(join(root, 'content'), dir, { recursive: true });
    assert.ok(existsSync(join(dir, file)), `content/${file} exists`);
    writeFileSync(join(dir, file), '');
    const { problems, message } = await problemsOf(dir);
    assert.equal(problems.length, 1, message);
    assert.match(message, new RegExp(`^\\S*${file.replace('.', '\\.')}:1:1: file is empty`), message);
  });

test("page frontmatter: each missing field at the frontmatter's line", async () => {
  await assertProblem('page-missing-frontmatter', {
    file: 'pages/fixture-page.mdx',
    line: 2,
    field: 'description',
    problem: /expected string/,
  });
  await assertProblem('page-missing-frontmatter', {
    file: 'pages/fixture-page.mdx',
    line: 2,
    field: 'order',
    problem: /expected number/,
  });
});

// Cross-file rules: the YAML and the MDX pages must agree.

test("a navigation section that names no menu page: names the page's file:line and section", () =>
  assertProblem('nav-section-unknown', {
    file: 'pages/fixture.mdx',
    line: 5,
    field: 'section',
    problem: /no navigation entry "FIXTURE-no-such-entry".*menu: true/,
  }));

test('adding a page to the navigation is a frontmatter edit: menu: true lists it, in order, before search', async () => {
  const dir = contentFor('valid');
  writeFileSync(
    join(dir, 'pages/added.mdx'),
    '---\ntitle: FIXTURE added page\ndescription: A fixture page added to the navigation by frontmatter alone.\nmenu: true\norder: 5\nnav: FIXTURE added\n---\n\nFIXTURE body :reading[a FIXTURE reading].\n',
  );
  const model = assembleTable(await loadContent(dir));
  assert.deepEqual(
    model.nav.map((n) => [n.href, n.label]),
    [
      ['added/', 'FIXTURE added'],
      ['search/', 'Search'],
    ],
  );
});

test('a source whose page does not exist: names sources.yaml:line, source and page', () =>
  assertProblem('source-page-missing', {
    file: 'sources.yaml',
    line: 11,
    item: { kind: 'source', id: 'fixture-source' },
    field: 'page',
    problem: /no page "fixture-missing" in content\/pages\//,
  }));

test('a source page that leaves out an excerpt of its source: names the page and the excerpt', () =>
  assertProblem('excerpt-not-embedded', {
    file: 'pages/fixture.mdx',
    line: 1,
    item: { kind: 'excerpt', id: 'fixture-source/fixture-excerpt' },
    problem: /does not embed excerpt "fixture-source\/fixture-excerpt"/,
  }));

test('a source page that embeds an excerpt twice: names the line of the second embed', () =>
  assertProblem('excerpt-embedded-twice', {
    file: 'pages/fixture.mdx',
    line: 13,
    item: { kind: 'excerpt', id: 'fixture-source/fixture-excerpt' },
    problem: /embedded again \(first at line 9\)/,
  }));

test("an excerpt id equal to a heading id on its page: names the excerpt's line and the heading's", () =>
  assertProblem('excerpt-id-is-heading', {
    file: 'excerpts/fixture-source.yaml',
    line: 2,
    item: { kind: 'excerpt', id: 'fixture-source/fixture-excerpt' },
    field: 'id',
    problem: /heading at .*pages\/fixture\.mdx:7/,
  }));

// The claims syntax (docs/claims.md): cited ids resolve; claim prose cites or says it is our reading;
// code notes carry an anchor.

test("an unknown id in a page's :cite[...]: names the page at the id's line and column", () =>
  assertProblem('unknown-cite-in-page', {
    file: 'pages/index.mdx',
    line: 10,
    col: 54,
    field: ':cite',
    problem:
      /unknown cited id "fixture-source\/fixture-no-such-excerpt": cite an excerpt "<source>\/<excerpt>" .*"row\/<axis>" .*"evidence\/<id>"/,
  }));

test("an unknown id in a YAML field's :cite[...]: names the id's line and column inside the value, axis, backend and field", () =>
  assertProblem('unknown-cite-in-yaml', {
    file: 'comparison/axes.yaml',
    line: 17,
    col: 45,
    item: { kind: 'axis', id: 'fixture-axis' },
    backend: 'fixture-read',
    field: 'answer',
    problem: /unknown cited id "fixture-source\/fixture-no-such-excerpt" in :cite\[\.\.\.\]/,
  }));

test('claim page prose with neither a citation nor a reading mark: each paragraph and list item at its line, with the three ways out', async () => {
  const hint =
    /neither cites nor is marked as our reading: add :cite\[<source>\/<excerpt>\] .* :reading\[\.\.\.\] \(or put it in a :::reading block\), or, only if it makes no claim .* :::intro block/;
  await assertProblem('unmarked-prose', {
    file: 'pages/index.mdx',
    line: 25,
    col: 1,
    problem: new RegExp(`^list item "A FIXTURE item with no mark\\." ${hint.source}`),
  });
  await assertProblem('unmarked-prose', {
    file: 'pages/index.mdx',
    line: 27,
    col: 1,
    problem: new RegExp(`^paragraph "A FIXTURE paragraph with no mark\\." ${hint.source}`),
  });
  // Nothing else on that page: the heading, the code block, the intro and reading blocks, the cited item.
  const { problems } = await problemsOf('unmarked-prose');
  assert.deepEqual(
    problems.map((p) => `${p.file.split('/').pop()}:${p.line}`),
    ['index.mdx:25', 'index.mdx:27'],
  );
});

test('a axis summary with neither a citation nor a reading mark: names file:line, axis and summary', () =>
  assertProblem('unmarked-summary', {
    file: 'comparison/axes.yaml',
    line: 4,
    item: { kind: 'axis', id: 'fixture-axis' },
    field: 'summary',
    problem:
      /^the summary "FIXTURE summary that claims without a source\." neither cites nor is marked as our reading: /,
  }));

test('a page with claims: false (a text reproduced verbatim) is left alone by the claims rule', async () => {
  const data = await loadContent(contentFor('claims-exempt-page'));
  const seed = data.pages.find((p) => p.id === 'fixture-seed');
  assert.equal(seed?.data.claims, false);
  assert.equal(seed?.unmarked.length, 2, 'its prose is unmarked, and accepted');
});

test('a code note without an anchor: names file:line, the excerpt and anchor', () =>
  assertProblem('code-note-without-anchor', {
    file: 'excerpts/fixture-source.yaml',
    line: 5,
    item: { kind: 'excerpt', id: 'fixture-source/fixture-excerpt' },
    field: 'anchor',
    problem:
      /^a code note needs an anchor: add "anchor:" with a short verbatim identifier or string literal from exactly these lines/,
  }));

// A code note's verbatim `code` (issue 44): its shape is the schema's, its text the pinned file's.

test("a code note's code: at most six lines, within the note's lines, as many lines of text as the range", async () => {
  const excerpt = (id: string) => ({ kind: 'excerpt' as const, id: `fixture-source/${id}` });
  await assertProblem('code-malformed', {
    file: 'excerpts/fixture-source.yaml',
    line: 7,
    col: 5,
    item: excerpt('fixture-excerpt'),
    field: 'code.lines',
    problem: /^too long: 7 lines, at most 6 \(the note describes the rest\)$/,
  });
  await assertProblem('code-malformed', {
    file: 'excerpts/fixture-source.yaml',
    line: 25,
    col: 5,
    item: excerpt('fixture-outside'),
    field: 'code.lines',
    problem: /^code lines \[2, 3\] must be within the note's lines \[1, 2\]$/,
  });
  await assertProblem('code-malformed', {
    file: 'excerpts/fixture-source.yaml',
    line: 39,
    col: 5,
    item: excerpt('fixture-count'),
    field: 'code.text',
    problem: /^the text has 2 lines and lines \[1, 3\] are 3: write exactly those lines as a \|- block/,
  });
});

test("a code note's code that is not its pinned lines byte for byte: at the differing line's file:line:col, both versions, the way out", async () => {
  const before = process.env.KUBERNETES_SOURCES;
  process.env.KUBERNETES_SOURCES = join(root, 'tests/fixtures/code-upstream');
  try {
    await assertProblem('code-not-verbatim', {
      file: 'excerpts/fixture-source.yaml',
      line: 11,
      col: 7,
      item: { kind: 'excerpt', id: 'fixture-source/fixture-excerpt' },
      field: 'code.text',
      problem: new RegExp(
        '^kubernetes/kubernetes/c0dec0dec0dec0dec0dec0dec0dec0dec0dec0de/pkg/fixture/code\\.go: code is not lines 2-4 byte for byte: ' +
          'its line 2 is "    return 0", line 3 of the file is "\\\\treturn 0" \\(copy the lines from the pinned file: ' +
          'tabs, spaces and punctuation are compared exactly\\)$',
      ),
    });
    // The same note with the file's tab is accepted: the rule compares, it does not refuse every code.
    const dir = contentFor('code-not-verbatim');
    const file = join(dir, 'excerpts/fixture-source.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('          return 0', '      \treturn 0'));
    const data = await loadContent(dir);
    assert.equal(
      data.excerpts.find((e) => e.id === 'fixture-excerpt')?.code?.text,
      'func fixtureAnchor() int {\n\treturn 0\n}',
    );
  } finally {
    if (before === undefined) delete process.env.KUBERNETES_SOURCES;
    else process.env.KUBERNETES_SOURCES = before;
  }
});

/** The real build of cases laid over valid/ together, into a temporary folder (never dist/). */
function astroBuildCases(...names: string[]) {
  const dir = contentFor(names[0]!);
  for (const name of names.slice(1)) cpSync(join(fixtures, name), dir, { recursive: true });
  return astroBuild(dir, join(scratch, names[0]!));
}

// Figures (content/figures/*.yaml): the same readers and rules, the same located messages. A
// figure's problem names its step, the step's backend and the field's full path.
test("a token its sentence's citations do not carry (issue 31): at the token's file:line:col, naming it, the ranges looked in and the way out", async () => {
  const hint =
    /cite the lines that carry it \(or widen the excerpt to them\), reword, or mark the sentence as our reading :reading\[\.\.\.\]/;
  // In a cell: 1.40 and `FixtureGate` are in the quote; 1.43 is not.
  await assertProblem('token-not-carried', {
    file: 'comparison/axes.yaml',
    line: 16,
    col: 74,
    item: { kind: 'axis', id: 'fixture-axis' },
    backend: 'fixture-read',
    field: 'answer',
    problem: new RegExp(
      `^version "1\\.43" is in none of its sentence's citations \\(looked in fixture-kep/fixture-quote \\(lines 3–4\\)\\): ${hint.source}`,
    ),
  });
  // In a page: a code span in a sentence that cites nothing (the citation is in the sentence before), and a
  // quoted phrase.
  await assertProblem('token-not-carried', {
    file: 'pages/fixture.mdx',
    line: 14,
    col: 2,
    problem: /^code span "OtherGate" is in none of its sentence's citations \(this sentence cites nothing\)/,
  });
  await assertProblem('token-not-carried', {
    file: 'pages/fixture.mdx',
    line: 16,
    col: 27,
    problem: /^quoted phrase "a phrase nobody wrote" is in none/,
  });
  // In a figure step: the label, at the token; a reading step is exempt.
  await assertProblem('token-not-carried', {
    file: 'figures/fixture-figure.yaml',
    line: 10,
    col: 53,
    item: { kind: 'step', id: 'fixture-first' },
    backend: 'fixture-ran',
    field: 'steps[0].label',
    problem: /^version "1\.41" is in none of its sentence's citations \(looked in fixture-kep\/fixture-quote/,
  });
  // Nothing else: `FixtureGate` and v1.40 are carried, and 1.50 and 1.99 sit in our reading.
  const { problems } = await problemsOf('token-not-carried');
  assert.deepEqual(
    problems.map((p) => `${p.file.split('/').pop()}:${p.line}`),
    ['axes.yaml:16', 'fixture-figure.yaml:10', 'fixture.mdx:14', 'fixture.mdx:16'],
  );
});

test('figure-valid/: a figure with cited and reading steps is accepted', async () => {
  const data = await loadContent(contentFor('figure-valid'));
  assert.deepEqual(
    data.figures.map((f) => [f.id, f.steps.length]),
    [['fixture-figure', 3]],
  );
});

// Renamed keys (schemas.ts FIGURE_RENAMES): the old ones still read, each with a located deprecation
// that is printed and fails nothing; content with the new names prints none.
test("figure-old-keys/: rows: and a step's lane: still read as axes: and backend:, each with a located deprecation", async (t) => {
  const warn = t.mock.method(console, 'warn', () => {});
  const old = await loadContent(contentFor('figure-old-keys'));
  const printed = warn.mock.calls.map((c) => String(c.arguments[0]));
  warn.mock.resetCalls();
  const valid = await loadContent(contentFor('figure-valid'));
  assert.deepEqual(warn.mock.calls, [], 'the new names print nothing');
  const shape = (f: (typeof old.figures)[number]) => ({ axes: f.axes, steps: f.steps });
  assert.deepEqual(old.figures.map(shape), valid.figures.map(shape), 'read as if written with the new names');
  const file = 'figures/fixture-figure.yaml';
  assert.deepEqual(
    printed.map((l) => l.replace(/^.*?content\//, '')),
    [
      `${file}:5:1: field "rows": \`rows\` is now \`axes\` (deprecated, still read): rename the key`,
      `${file}:11:5: step "fixture-first", field "steps[0].lane": \`lane\` is now \`backend\` (deprecated, still read): rename the key`,
      `${file}:19:5: step "fixture-other", field "steps[2].lane": \`lane\` is now \`backend\` (deprecated, still read): rename the key`,
    ],
  );
  assert.deepEqual(findWarnings(printed.join('\n')), [], 'the build-log gate does not count a deprecation');
});

test('astro build: old figure keys build, the deprecation printed and no warning for the build-log gate', () => {
  const { status, output } = astroBuildCases('figure-old-keys');
  assert.equal(status, 0, `the build succeeds:\n${output}`);
  assert.match(
    output,
    /figures\/fixture-figure\.yaml:5:1: field "rows": `rows` is now `axes` \(deprecated, still read\)/,
  );
  assert.match(
    output,
    /figures\/fixture-figure\.yaml:11:5: step "fixture-first", field "steps\[0\]\.lane": `lane` is now `backend`/,
  );
  assert.deepEqual(findWarnings(output), [], 'tools/check-build-log.ts passes the log');
});

test('figure-old-keys/: a problem in an old key is located at the key as written', () =>
  assertProblem('figure-old-keys-unknown-axis', {
    file: 'figures/fixture-figure.yaml',
    line: 3,
    field: 'rows[0]',
    problem: /unknown axis "fixture-no-such-axis"/,
  }));

test('figure: an unknown cited id names file:line, the step, its backend and steps[i].cites[j]', () =>
  assertProblem('figure-unknown-cite', {
    file: 'figures/fixture-figure.yaml',
    line: 10,
    item: { kind: 'step', id: 'fixture-first' },
    backend: 'fixture-ran',
    field: 'steps[0].cites[1]',
    problem: /unknown excerpt id "fixture-source\/fixture-no-such-excerpt"/,
  }));

test('figure: malformed (no lanes, both cites and reading, a link in a label), each at its line', async () => {
  await assertProblem('figure-malformed', {
    file: 'figures/fixture-figure.yaml',
    line: 5,
    field: 'lanes',
    problem: /at least one lane/,
  });
  await assertProblem('figure-malformed', {
    file: 'figures/fixture-figure.yaml',
    line: 10,
    item: { kind: 'step', id: 'fixture-first' },
    backend: 'fixture-ran',
    field: 'steps[0].cites',
    problem: /exactly one of cites .* or reading: true/,
  });
  await assertProblem('figure-malformed', {
    file: 'figures/fixture-figure.yaml',
    line: 14,
    item: { kind: 'step', id: 'fixture-second' },
    backend: 'fixture-ran',
    field: 'steps[1].label',
    problem: /text and `code` only/,
  });
});

test('figure: names that do not exist (lane backend, axis, step backend, edge end), each at its line', async () => {
  const file = 'figures/fixture-figure.yaml';
  await assertProblem('figure-unknown-names', {
    file,
    line: 8,
    backend: 'fixture-no-such-backend',
    field: 'lanes[1].backend',
    problem: /unknown backend "fixture-no-such-backend"/,
  });
  await assertProblem('figure-unknown-names', {
    file,
    line: 5,
    field: 'axes[0]',
    problem: /unknown axis "fixture-no-such-axis"/,
  });
  await assertProblem('figure-unknown-names', {
    file,
    line: 11,
    item: { kind: 'step', id: 'fixture-first' },
    backend: 'fixture-no-such-lane',
    field: 'steps[0].backend',
    problem: /no lane for backend "fixture-no-such-lane"/,
  });
  await assertProblem('figure-unknown-names', {
    file,
    line: 15,
    item: { kind: 'edge', id: 'fixture-first -> fixture-no-such-step' },
    field: 'edges[0].to',
    problem: /no step "fixture-no-such-step"/,
  });
});

test('figure: an edge from one lane to another names the edge, its backend and edges[i].to', () =>
  assertProblem('figure-edge-across-lanes', {
    file: 'figures/fixture-figure.yaml',
    line: 22,
    item: { kind: 'edge', id: 'fixture-first -> fixture-other' },
    backend: 'fixture-ran',
    field: 'edges[0].to',
    problem: /from backend "fixture-ran" to backend "fixture-read": an edge joins two steps of one lane/,
  }));

// One real build with three mistakes (each case changes its own file): a data mistake in a YAML
// file, a cross-file mistake in an MDX page, and a figure citing an unknown excerpt. All are
// reported, each at its line, in one run.
test('astro build: data and MDX mistakes fail before any page renders, each at file:line, with no stack trace', () => {
  const { status, output, out } = astroBuildCases(
    'measured-in-unrun-column',
    'excerpt-embedded-twice',
    'figure-unknown-cite',
  );
  assert.notEqual(status, 0, `the build must fail:\n${output}`);
  assert.match(
    output,
    /comparison\/axes\.yaml:18:7: axis "fixture-axis", backend "fixture-read", field "measure": measured cell of backend "fixture-read", which was not run/,
    output,
  );
  assert.match(
    output,
    /pages\/fixture\.mdx:13:1: excerpt "fixture-source\/fixture-excerpt": excerpt "fixture-source\/fixture-excerpt" is embedded again/,
    output,
  );
  assert.match(
    output,
    /figures\/fixture-figure\.yaml:10:\d+: step "fixture-first", backend "fixture-ran", field "steps\[0\]\.cites\[1\]": unknown excerpt id/,
    output,
  );
  const plain = stripVTControlCharacters(output); // Astro colours its error output when it may
  assert.match(
    plain,
    /\[ContentError\] \S+:\d+:\d+: /,
    'Astro prints it as an AstroError whose first line is file:line:column',
  );
  assert.match(plain, /Hint:\s+Fix each problem/, 'with its hint');
  assert.doesNotMatch(output, /node_modules\/astro|\bat .*\.js:\d+:\d+/, "no stack trace through Astro's internals");
  assert.doesNotMatch(output, /generating static routes/, 'no page was rendered');
  assert.equal(existsSync(join(out, 'index.html')), false, 'no site was written');
});
