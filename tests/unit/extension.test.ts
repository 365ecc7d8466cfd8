// The content-only promise: a new column and a new row are content edits, nothing else. A copy of
// content/ gets the FIXTURE backend and axis of tests/fixtures/extension/ (every row a cell for the
// new backend, the new row a cell for every backend), is built by the real `astro build`, and the
// new column and row must appear in the table, on their row pages, in the legend counts and in
// comparison.json / comparison.csv. Leaving one new cell out must fail with the located message.
// The dispatch figure gets a lane for the new column and a step in it (figure-step.yaml), a content
// edit too: the built figure (its drawing and its text) must show both.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseDocument } from 'yaml';
import * as cheerio from 'cheerio';
import { loadTable } from '../../src/lib/content/load.ts';
import { ContentError } from '../../src/lib/problems.ts';
import { PROVENANCES } from '../../src/lib/view/model.ts';
import { routes } from '../../src/lib/routes.ts';
import { astroBuild } from '../support/astro-build.ts';

const fixtures = 'tests/fixtures/extension';
const scratch = mkdtempSync(join(tmpdir(), 'extension-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

interface Extra {
  id: string;
}
const backendFixture = parse(readFileSync(join(fixtures, 'backend.yaml'), 'utf8')) as {
  backend: Extra & Record<string, unknown>;
  cell: { answer: string };
};
const axisFixture = parse(readFileSync(join(fixtures, 'axis.yaml'), 'utf8')) as {
  axis: Extra & Record<string, unknown>;
  cell: { answer: string };
};
const NEW_BACKEND = backendFixture.backend.id;
const NEW_AXIS = axisFixture.axis.id;
const figureFixture = parse(readFileSync(join(fixtures, 'figure-step.yaml'), 'utf8')) as {
  step: { id: string; label: string };
};
const FIGURE = 'dispatch';

/** content/ with the new backend and axis laid in; `leaveOut` drops one new cell. */
function extendedContent(name: string, leaveOut?: { axis: string; backend: string }): string {
  const dir = join(scratch, name, 'content');
  cpSync('content', dir, { recursive: true });
  const backendsFile = join(dir, 'comparison/backends.yaml');
  const axesFile = join(dir, 'comparison/axes.yaml');
  const backends = parseDocument(readFileSync(backendsFile, 'utf8'));
  backends.add(backends.createNode(backendFixture.backend));
  writeFileSync(backendsFile, backends.toString());

  const axes = parseDocument(readFileSync(axesFile, 'utf8'));
  const rows = axes.toJS() as Array<{ id: string; cells: Record<string, { cites: string[] }> }>;
  // Cite an excerpt today's content already cites, whichever it is.
  const cite = Object.values(rows[0]!.cells)[0]!.cites[0]!;
  rows.forEach((_, i) => axes.setIn([i, 'cells', NEW_BACKEND], { ...backendFixture.cell, cites: [cite] }));
  const columns = [...(backends.toJS() as Extra[]).map((b) => b.id)];
  const cells = Object.fromEntries(columns.map((c) => [c, { ...axisFixture.cell, cites: [cite] }]));
  axes.add(axes.createNode({ ...axisFixture.axis, cells }));
  if (leaveOut) {
    const index = leaveOut.axis === NEW_AXIS ? rows.length : rows.findIndex((r) => r.id === leaveOut.axis);
    axes.deleteIn([index, 'cells', leaveOut.backend]);
  }
  writeFileSync(axesFile, axes.toString());

  // A fourth lane in the dispatch figure, and a step in it.
  const figureFile = join(dir, 'figures', `${FIGURE}.yaml`);
  const figure = parseDocument(readFileSync(figureFile, 'utf8'));
  figure.addIn(['lanes'], figure.createNode({ backend: NEW_BACKEND }));
  // At the figure's first stage, when it has stages (then every step names one).
  const stage = (figure.toJS() as { stages?: { id: string }[] }).stages?.[0]?.id;
  figure.addIn(
    ['steps'],
    figure.createNode({ ...figureFixture.step, backend: NEW_BACKEND, ...(stage && { stage }), cites: [cite] }),
  );
  writeFileSync(figureFile, figure.toString());
  return dir;
}

test('a new backend and a new axis are content only: they show everywhere the table does', async () => {
  const content = extendedContent('extended');
  const model = await loadTable(content);
  assert.ok(
    model.backends.some((b) => b.id === NEW_BACKEND) && model.axes.some((r) => r.id === NEW_AXIS),
    'the model has both',
  );

  const { status, output, out } = astroBuild(content, join(scratch, 'extended'));
  assert.equal(status, 0, `the extended content builds:\n${output}`);
  const page = (path: string) => cheerio.load(readFileSync(join(out, path, 'index.html'), 'utf8'));

  // The table: the new column header, a cell of it in every row, the new row with every column.
  const home = page('');
  const heads = home('table.comparison thead th[scope=col]')
    .map((_, th) => home(th).text().replace(/\s+/g, ' ').trim())
    .get();
  assert.ok(
    heads.some((h) => h.startsWith(String(backendFixture.backend.name))),
    `column header for the new backend: ${heads.join(' | ')}`,
  );
  for (const axis of model.axes) {
    const cells = home(`tr#${axis.id} td`)
      .map((_, td) => home(td).attr('data-backend'))
      .get();
    assert.deepEqual(
      cells,
      model.backends.map((b) => b.id),
      `row ${axis.id} has one cell per backend, in order`,
    );
  }
  assert.match(home(`tr#${NEW_AXIS} th[scope=row]`).text(), new RegExp(String(axisFixture.axis.question)));

  // The legend counts the new cells.
  for (const p of PROVENANCES)
    assert.equal(home(`[data-legend=${p}] [data-count]`).attr('data-count'), String(model.counts[p]), `legend: ${p}`);
  assert.equal(
    PROVENANCES.reduce((n, p) => n + model.counts[p], 0),
    model.axes.length * model.backends.length,
  );

  // Axis pages: the new axis has one, and every axis page has a section for the new backend.
  for (const axis of model.axes) {
    assert.ok(existsSync(join(out, routes.axisPage(axis.id), 'index.html')), `row page of ${axis.id}`);
    assert.equal(
      page(routes.axisPage(axis.id))(`section[data-backend="${NEW_BACKEND}"]`).length,
      1,
      `${axis.id}: section for the new backend`,
    );
  }

  // The dispatch figure: the new lane and its step, in the drawing (inline on the home page and a row
  // page, and the file of its own it links to) and in the text, last, as the content lists them.
  const label = figureFixture.step.label.replace(/`/g, '');
  const figureOn = (p: ReturnType<typeof page>) => p(`figure[data-figure="${FIGURE}"]`);
  const lanes = figureOn(home)
    .find('.figure-lanes > li')
    .map((_, li) => home(li).attr('data-lane'))
    .get();
  assert.equal(lanes.at(-1), NEW_BACKEND, `the new lane comes last in the figure's text: ${lanes.join(', ')}`);
  assert.equal(
    figureOn(home)
      .find(`li[data-lane="${NEW_BACKEND}"] li#${routes.figureStepFragment(FIGURE, figureFixture.step.id)}`)
      .text()
      .replace(/\s+/g, ' ')
      .includes(label),
    true,
    'its step, in the text',
  );
  const file = readFileSync(
    join(out, decodeURI(String(figureOn(home).find('.figure-file a').attr('href'))).replace(/^\//, '')),
    'utf8',
  );
  // Drawn text wraps over several <text> lines: compare without the spaces.
  const squash = (s: string) => s.replace(/\s+/g, '');
  const drawn = (svg: string) => squash(svg.replace(/<[^>]+>/g, ''));
  const figureAxis = (parse(readFileSync(join(content, 'figures', `${FIGURE}.yaml`), 'utf8')) as { axes: string[] })
    .axes[0]!;
  for (const svg of [
    file,
    figureOn(home).find('svg').toString(),
    figureOn(page(routes.axisPage(figureAxis)))
      .find('svg')
      .toString(),
  ]) {
    assert.ok(drawn(svg).includes(squash(String(backendFixture.backend.name))), "the new lane's title is drawn");
    assert.ok(drawn(svg).includes(squash(label)), 'its step is drawn');
  }

  // The data exports.
  const json = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8')) as {
    backends: Extra[];
    axes: Array<{ id: string; cells: Record<string, unknown> }>;
  };
  assert.ok(json.backends.some((b) => b.id === NEW_BACKEND));
  assert.ok(
    json.axes.every((r) => NEW_BACKEND in r.cells),
    'every JSON axis has the new backend',
  );
  assert.deepEqual(
    Object.keys(json.axes.find((r) => r.id === NEW_AXIS)!.cells),
    model.backends.map((b) => b.id),
  );
  const csv = readFileSync(join(out, 'comparison.csv'), 'utf8').trimEnd().split('\r\n');
  assert.equal(csv.length, 1 + model.axes.length * model.backends.length, 'one CSV line per cell, after the header');
  assert.equal(csv.filter((l) => l.startsWith(`${NEW_AXIS},`)).length, model.backends.length);
});

test('leaving one new cell out fails with the located message', async () => {
  const content = extendedContent('missing-new-cell', { axis: NEW_AXIS, backend: NEW_BACKEND });
  await assert.rejects(loadTable(content), (err: unknown) => {
    assert.ok(err instanceof ContentError, String(err));
    assert.match(
      err.message,
      new RegExp(
        `comparison/axes\\.yaml:\\d+:\\d+: axis "${NEW_AXIS}", backend "${NEW_BACKEND}", field "cells": missing cell`,
      ),
    );
    return true;
  });
});
