// The table model: derivations and every rejection, on small synthetic FIXTURES built here
// (never part of the site), plus one run over the real content folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { upstreamUrl } from '../../src/lib/upstream/upstream.ts';
import { ContentError, type Item } from '../../src/lib/problems.ts';
import { AstroError } from 'astro/errors';
import { resolve } from 'node:path';
import { loadTable } from '../../src/lib/content/load.ts';
import { toCSV, toJSON } from '../../src/lib/view/export.ts';
import { CHECKS, type Check } from '../../src/lib/content/checks/index.ts';
import { crossFileProblems } from '../../src/lib/content/load.ts';
import { assembleTable } from '../../src/lib/content/model.ts';
import type { ContentData } from '../../src/lib/content/collections.ts';
import { csvRecords } from '../support/csv.ts';

/** Every rule over FIXTURE data, then the table: as the content layer builds it once the rules pass. */
function buildComparison(data: ContentData) {
  const problems = crossFileProblems(data, new Set(), () => undefined);
  if (problems.length > 0) throw new ContentError(problems);
  return assembleTable(data);
}

const files = {
  sources: 'content/sources.yaml',
  backends: 'content/comparison/backends.yaml',
  axes: 'content/comparison/axes.yaml',
};
const page = {
  title: 'Fixture page',
  description: 'A fixture page, never rendered.',
  order: 1,
  toc: true,
  menu: false,
  claims: true,
};
const commit = 'a'.repeat(40);

/** A two-backend, one-axis FIXTURE: "ran" was run, "read" was not. */
function fixture(): ContentData {
  return {
    site: {
      title: 'Fixture',
      shortTitle: 'Fixture',
      description: 'A fixture site, never rendered.',
      asOf: 'v1.37',
      file: 'content/site.yaml',
    },
    sources: [
      {
        id: 'fixture-kep',
        label: 'KEP-F',
        title: 'Fixture KEP',
        repo: 'kubernetes/enhancements',
        path: 'keps/f/README.md',
        commit,
        license: 'Apache-2.0',
        quotable: true,
        page: 'keps/fixture',
        file: files.sources,
        index: 0,
      },
      {
        id: 'fixture-code',
        label: 'code.go',
        title: 'Fixture code',
        repo: 'kubernetes/kubernetes',
        path: 'pkg/f/code.go',
        commit,
        license: 'Apache-2.0',
        quotable: false,
        page: 'notes/fixture',
        file: files.sources,
        index: 1,
      },
    ],
    excerpts: [
      {
        id: 'one',
        source: 'fixture-kep',
        file: 'content/excerpts/fixture-kep.yaml',
        index: 0,
        section: 'S',
        lines: [3, 4],
        quote: 'q',
        answers: 'a',
        html: { quote: 'q', answers: 'a' },
      },
      {
        id: 'two',
        source: 'fixture-code',
        file: 'content/excerpts/fixture-code.yaml',
        index: 0,
        section: 'S',
        lines: [7, 7],
        note: 'n',
        anchor: 'fixtureAnchor',
        answers: 'a',
        html: { note: 'n', answers: 'a' },
      },
    ],
    backends: [
      { id: 'ran', name: 'Ran', run: true, status: 's', file: files.backends, index: 0 },
      { id: 'read', name: 'Read', run: false, status: 's', file: files.backends, index: 1 },
    ],
    axes: [
      {
        id: 'axis-a',
        question: 'q?',
        summary: 's :cite[fixture-kep/one]',
        file: files.axes,
        index: 0,
        html: { summary: 's' },
        cells: {
          ran: {
            short: 'sx',
            answer: 'x',
            cites: ['fixture-kep/one'],
            measure: { exercise: 18, how: 'h' },
            html: { short: 'sx', answer: 'x', how: 'h' },
          },
          read: {
            short: 'sy',
            answer: 'y',
            cites: ['fixture-kep/one', 'fixture-code/two'],
            html: { short: 'sy', answer: 'y' },
          },
        },
      },
    ],
    evidence: [],
    growth: [],
    figures: [],
    pages: [
      {
        id: 'keps/fixture',
        file: 'content/pages/keps/fixture.mdx',
        data: page,
        keys: {},
        embeds: [{ id: 'fixture-kep/one', line: 9 }],
        headings: [{ id: 'status', line: 7 }],
        cites: [],
        unmarked: [],
        sentences: [],
      },
      {
        id: 'notes/fixture',
        file: 'content/pages/notes/fixture.mdx',
        data: page,
        keys: {},
        embeds: [{ id: 'fixture-code/two', line: 9 }],
        headings: [],
        cites: [],
        unmarked: [],
        sentences: [],
      },
    ],
  };
}

const evidenceFixture = (over: Partial<ContentData['evidence'][number]> = {}): ContentData['evidence'][number] => ({
  id: 'fixture-ev',
  file: 'content/evidence/fixture-ev.yaml',
  exercise: 18,
  axis: 'axis-a',
  backend: 'ran',
  captured: '2000-01-01',
  kubernetes: 'v0.0.0',
  kernel: 'fixture',
  command: 'fixture',
  output: 'fixture',
  ...over,
});

/** Asserts the build throws a ContentError with one problem at exactly this place. */
function rejects(
  data: ContentData,
  where: { file: string; item?: Item; backend?: string; field?: string },
  problem: RegExp,
) {
  assert.throws(
    () => buildComparison(data),
    (err: unknown) => {
      assert.ok(err instanceof ContentError, 'a ContentError');
      const hit = err.problems.find(
        (p) =>
          p.file === where.file &&
          p.item?.kind === where.item?.kind &&
          p.item?.id === where.item?.id &&
          p.backend === where.backend &&
          p.field === where.field,
      );
      assert.ok(hit, `expected a problem at ${JSON.stringify(where)}; got:\n${err.message}`);
      assert.match(hit.problem, problem);
      // The message an author reads names every part of the place.
      const { item, backend, ...rest } = where;
      const parts = [
        ...Object.values(rest),
        ...(item ? [`${item.kind} "${item.id}"`] : []),
        ...(backend !== undefined ? [`backend "${backend}"`] : []),
      ];
      for (const part of parts) assert.ok(err.message.includes(part), `message names ${part}:\n${err.message}`);
      return true;
    },
  );
}

test('provenance is derived: measure alone = to measure, no measure = cited', () => {
  const model = buildComparison(fixture());
  const [ran, read] = model.axes[0]!.cells;
  assert.equal(ran!.provenance, 'to-measure');
  assert.equal(read!.provenance, 'cited');
  assert.deepEqual(model.counts, { measured: 0, 'to-measure': 1, cited: 1 });
});

test('measure + matching evidence = measured, and the badge names the exercise', () => {
  const data = fixture();
  data.axes[0]!.cells.ran!.measure!.evidence = 'fixture-ev';
  data.evidence.push(evidenceFixture());
  const model = buildComparison(data);
  const cell = model.axes[0]!.cells[0]!;
  assert.equal(cell.provenance, 'measured');
  assert.equal(cell.provenance === 'measured' && cell.evidence.id, 'fixture-ev');
  assert.equal(cell.provenance === 'measured' && cell.exercise, 18);
  assert.deepEqual(model.counts, { measured: 1, 'to-measure': 0, cited: 1 });
});

test('cites resolve to page fragments and pinned lines', () => {
  const model = buildComparison(fixture());
  const cell = model.axes[0]!.cells[1]!;
  assert.equal(cell.cites[0]!.href, 'keps/fixture/#one');
  assert.equal(
    cell.cites[0]!.upstream,
    `https://github.com/kubernetes/enhancements/blob/${commit}/keps/f/README.md#L3-L4`,
  );
  assert.equal(cell.cites[1]!.upstream, `https://github.com/kubernetes/kubernetes/blob/${commit}/pkg/f/code.go#L7`);
});

test('an excerpt in a sibling file (kep.yaml) links to that file', () => {
  const source = fixture().sources[0]!;
  assert.equal(
    upstreamUrl(source, { lines: [1, 2], path: 'kep.yaml' }),
    `https://github.com/kubernetes/enhancements/blob/${commit}/keps/f/kep.yaml#L1-L2`,
  );
});

test('axes and backends keep content order', () => {
  const data = fixture();
  data.axes.push({ ...structuredClone(data.axes[0]!), id: 'axis-b' });
  const model = buildComparison(data);
  assert.deepEqual(
    model.axes.map((r) => r.id),
    ['axis-a', 'axis-b'],
  );
  assert.deepEqual(
    model.axes[0]!.cells.map((c) => c.backend.id),
    ['ran', 'read'],
  );
});

test('rejects a missing cell', () => {
  const data = fixture();
  delete data.axes[0]!.cells.read;
  rejects(
    data,
    { file: files.axes, item: { kind: 'axis', id: 'axis-a' }, backend: 'read', field: 'cells' },
    /missing cell/,
  );
});

test('rejects an extra cell for an unknown backend', () => {
  const data = fixture();
  data.axes[0]!.cells.bogus = {
    short: 'sz',
    answer: 'z',
    cites: ['fixture-kep/one'],
    html: { short: 'sz', answer: 'z' },
  };
  rejects(
    data,
    { file: files.axes, item: { kind: 'axis', id: 'axis-a' }, backend: 'bogus', field: 'cells' },
    /unknown backend "bogus"/,
  );
});

test('rejects a duplicate axis id', () => {
  const data = fixture();
  data.axes.push(structuredClone(data.axes[0]!));
  rejects(data, { file: files.axes, item: { kind: 'axis', id: 'axis-a' }, field: 'id' }, /duplicate axis id/);
});

test('rejects a duplicate backend id', () => {
  const data = fixture();
  data.backends.push({ ...data.backends[0]! });
  rejects(data, { file: files.backends, item: { kind: 'backend', id: 'ran' }, field: 'id' }, /duplicate backend id/);
});

test('rejects a cited id that does not exist', () => {
  const data = fixture();
  data.axes[0]!.cells.read!.cites.push('fixture-kep/nope');
  rejects(
    data,
    { file: files.axes, item: { kind: 'axis', id: 'axis-a' }, backend: 'read', field: 'cites[2]' },
    /unknown excerpt id "fixture-kep\/nope"/,
  );
});

test('rejects a measured cell of a backend that was not run', () => {
  const data = fixture();
  data.axes[0]!.cells.read!.measure = { exercise: 17, how: 'h' };
  rejects(
    data,
    { file: files.axes, item: { kind: 'axis', id: 'axis-a' }, backend: 'read', field: 'measure' },
    /not run/,
  );
});

for (const [what, over, pattern] of [
  ['exercise', { exercise: 16 }, /exercise 16 \(cell: 18\)/],
  ['axis', { axis: 'axis-b' }, /axis "axis-b" \(cell: "axis-a"\)/],
  ['backend', { backend: 'read' }, /backend "read" \(cell: "ran"\)/],
] as const) {
  test(`rejects evidence whose ${what} does not match its cell`, () => {
    const data = fixture();
    data.axes[0]!.cells.ran!.measure!.evidence = 'fixture-ev';
    data.evidence.push(evidenceFixture(over));
    rejects(
      data,
      { file: files.axes, item: { kind: 'axis', id: 'axis-a' }, backend: 'ran', field: 'measure.evidence' },
      pattern,
    );
  });
}

test('rejects a cell naming evidence that does not exist', () => {
  const data = fixture();
  data.axes[0]!.cells.ran!.measure!.evidence = 'fixture-missing';
  rejects(
    data,
    { file: files.axes, item: { kind: 'axis', id: 'axis-a' }, backend: 'ran', field: 'measure.evidence' },
    /no evidence file "fixture-missing"/,
  );
});

test('rejects evidence that no cell claims', () => {
  const data = fixture();
  data.evidence.push(evidenceFixture());
  rejects(
    data,
    { file: 'content/evidence/fixture-ev.yaml', item: { kind: 'axis', id: 'axis-a' }, backend: 'ran', field: 'axis' },
    /not referenced by its cell/,
  );
});

test('rejects a quote from a source with no pinned copy', () => {
  const data = fixture();
  data.excerpts[1] = { ...data.excerpts[1]!, note: undefined, quote: 'q' };
  rejects(
    data,
    { file: 'content/excerpts/fixture-code.yaml', item: { kind: 'excerpt', id: 'fixture-code/two' }, field: 'quote' },
    /no pinned copy/,
  );
});

test('rejects a code note whose anchor is a whole statement rather than a token to search for', () => {
  const data = fixture();
  data.excerpts[1] = {
    ...data.excerpts[1]!,
    anchor: 'if svcInfo.SessionAffinityType() == v1.ServiceAffinityClientIP && len(allLocallyReachableEndpoints) > 0 {',
  };
  rejects(
    data,
    { file: 'content/excerpts/fixture-code.yaml', item: { kind: 'excerpt', id: 'fixture-code/two' }, field: 'anchor' },
    /never a whole statement/,
  );
});

test('rejects an excerpt file whose source is unknown', () => {
  const data = fixture();
  data.excerpts.push({ ...data.excerpts[0]!, source: 'nobody', file: 'content/excerpts/nobody.yaml' });
  rejects(data, { file: 'content/excerpts/nobody.yaml' }, /no source "nobody"/);
});

test('rejects a source whose page does not exist', () => {
  const data = fixture();
  data.sources[1] = { ...data.sources[1]!, page: 'notes/missing' };
  rejects(
    data,
    { file: files.sources, item: { kind: 'source', id: 'fixture-code' }, field: 'page' },
    /no page "notes\/missing" in content\/pages\//,
  );
});

test('rejects a source page that leaves out an excerpt of its source', () => {
  const data = fixture();
  data.pages[0]!.embeds = [];
  rejects(
    data,
    { file: 'content/pages/keps/fixture.mdx', item: { kind: 'excerpt', id: 'fixture-kep/one' } },
    /does not embed excerpt "fixture-kep\/one"/,
  );
});

test('rejects a source page that embeds an excerpt twice', () => {
  const data = fixture();
  data.pages[0]!.embeds.push({ id: 'fixture-kep/one', line: 12 });
  rejects(
    data,
    { file: 'content/pages/keps/fixture.mdx', item: { kind: 'excerpt', id: 'fixture-kep/one' } },
    /embedded again \(first at line 9\)/,
  );
});

test('rejects an excerpt id that is also a heading id on its page', () => {
  const data = fixture();
  data.excerpts[0] = { ...data.excerpts[0]!, id: 'status' };
  data.axes[0]!.cells.ran!.cites = ['fixture-kep/status'];
  data.axes[0]!.cells.read!.cites = ['fixture-kep/status', 'fixture-code/two'];
  data.pages[0]!.embeds = [{ id: 'fixture-kep/status', line: 9 }];
  rejects(
    data,
    { file: 'content/excerpts/fixture-kep.yaml', item: { kind: 'excerpt', id: 'fixture-kep/status' }, field: 'id' },
    /also the id of the heading at content\/pages\/keps\/fixture\.mdx:7/,
  );
});

test('rejects two excerpts with one fragment (#id) on the same page', () => {
  const data = fixture();
  data.sources[1] = { ...data.sources[1]!, page: 'keps/fixture' };
  data.excerpts[1] = { ...data.excerpts[1]!, id: 'one' };
  rejects(
    data,
    { file: 'content/excerpts/fixture-code.yaml', item: { kind: 'excerpt', id: 'fixture-code/one' }, field: 'id' },
    /already used/,
  );
});

test('every problem is reported at once', () => {
  const data = fixture();
  delete data.axes[0]!.cells.read;
  data.axes[0]!.cells.ran!.cites = ['nope/nope'];
  assert.throws(
    () => buildComparison(data),
    (err: ContentError) => err.problems.length === 2,
  );
});

test('the real content builds, one cell per axis and backend', async () => {
  const model = await loadTable('content');
  assert.ok(model.axes.length > 0 && model.backends.length > 0);
  for (const axis of model.axes)
    assert.deepEqual(
      axis.cells.map((c) => c.backend.id),
      model.backends.map((b) => b.id),
      axis.id,
    );
});

test('the JSON export: version 2 names the list axes; rows, its version 1 name, is the same list', async () => {
  const model = await loadTable('content');
  const json = toJSON(model, 'https://example.dev/base/');
  assert.equal(json.version, 2);
  assert.deepEqual(
    json.axes.map((a) => a.id),
    model.axes.map((a) => a.id),
  );
  assert.equal(json.rows, json.axes, 'rows is the same list');
  assert.match(json.deprecated.rows, /read axes/);
  assert.equal(json.axes[0]!.page, `https://example.dev/base/rows/${model.axes[0]!.id}/`, 'the URL keeps rows/');
});

// Facts that must never change silently: named here on purpose.

test('must never change: IPVS was read, not run, so no IPVS cell is measured or to measure', async () => {
  const model = await loadTable('content');
  const ipvs = model.backends.find((b) => b.id === 'ipvs');
  assert.ok(ipvs, 'the IPVS backend exists');
  assert.equal(ipvs.run, false, 'IPVS is marked read, not run');
  for (const backend of model.backends.filter((b) => !b.run))
    for (const axis of model.axes)
      assert.equal(
        axis.cells.find((c) => c.backend.id === backend.id)!.provenance,
        'cited',
        `${axis.id} / ${backend.id}`,
      );
});

test('must never change: every cited excerpt exists and links to its own fragment on its source page', async () => {
  const model = await loadTable('content');
  for (const axis of model.axes)
    for (const cell of axis.cells) {
      assert.ok(cell.cites.length > 0, `${axis.id} / ${cell.backend.id} cites something`);
      for (const ref of cell.cites) {
        assert.equal(model.excerpts.get(ref.id), ref, `${axis.id} / ${cell.backend.id}: ${ref.id}`);
        assert.equal(ref.href, `${ref.source.page}/#${ref.excerpt.id}`);
      }
    }
});

test('loading a content folder runs each rule exactly once', async (t) => {
  const rules = CHECKS as Check[];
  const original = [...rules];
  const runs = new Map<string, number>();
  rules.forEach((rule, i) => {
    rules[i] = (data, problems) => {
      runs.set(rule.name, (runs.get(rule.name) ?? 0) + 1);
      rule(data, problems);
    };
  });
  t.after(() => rules.splice(0, rules.length, ...original));
  await loadTable('content');
  assert.equal(runs.size, original.length, 'every rule ran');
  for (const [name, n] of runs) assert.equal(n, 1, `${name} ran ${n} times`);
});

test('the navigation comes from page frontmatter: menu pages in order, then search; sections mark the current entry', async () => {
  const model = await loadTable('content');
  const menu = model.pages.filter((p) => p.menu);
  assert.deepEqual(
    model.nav.map((n) => n.href),
    [...menu.map((p) => p.path), 'search/'],
  );
  for (const page of model.pages.filter((p) => p.id.startsWith('keps/')))
    assert.equal(page.section, 'readings', page.id);
});

test("a content error is an AstroError with a hint, its message starting at the first problem's file:line:column", () => {
  const err = new ContentError([
    { file: 'content/a.yaml', line: 3, col: 5, field: 'x', problem: 'FIXTURE problem' },
    { file: 'content/b.yaml', problem: 'FIXTURE other' },
  ]);
  assert.ok(err instanceof AstroError);
  assert.equal(err.message.split('\n')[0], 'content/a.yaml:3:5: field "x": FIXTURE problem');
  assert.match(err.hint ?? '', /line and column/);
  assert.deepEqual(err.loc, { file: resolve('content/a.yaml'), line: 3, column: 5 });
});

test('a field added to a cell reaches the JSON and the CSV with no code naming it (view models from entries)', async () => {
  // As a field added to cellSchema would arrive: on the validated cell entry, after `answer`.
  const data = fixture();
  const [axis] = data.axes;
  const [backend] = data.backends;
  const cell = axis!.cells[backend!.id]!;
  Object.assign(cell, { fixtureCaveat: 'FIXTURE caveat, as written' });
  const model = buildComparison(data);
  const modelCell = model.axes[0]!.cells[0]!;
  assert.deepEqual(
    Object.keys(modelCell.fields),
    ['short', 'answer', 'fixtureCaveat'],
    'schema order, the new field last',
  );
  assert.equal((modelCell as unknown as Record<string, unknown>).fixtureCaveat, 'FIXTURE caveat, as written');

  const json = toJSON(model, 'https://example.dev/');
  const jsonCell = json.axes[0]!.cells[backend!.id] as Record<string, unknown>;
  assert.deepEqual(Object.keys(jsonCell).slice(0, 8), [
    'url',
    'page',
    'share',
    'preview',
    'provenance',
    'short',
    'answer',
    'fixtureCaveat',
  ]);
  assert.equal(jsonCell.fixtureCaveat, 'FIXTURE caveat, as written');

  const [header, first, second] = csvRecords(toCSV(model, 'https://example.dev/'));
  assert.deepEqual(header!.slice(5, 8), ['short', 'answer', 'fixtureCaveat'], 'its column follows the answer');
  const at = header!.indexOf('fixtureCaveat');
  assert.equal(first![at], 'FIXTURE caveat, as written');
  assert.equal(second![at], '', 'a cell without it leaves its column empty');
});
