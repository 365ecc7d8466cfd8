// The figures' drawing, without Astro: the text measure and wrap, the layout Graphviz returns (lanes
// in content order, each step inside its lane, a timeline's stages left to right), and the SVG
// (real text, classes and no style="" attribute, our reading drawn and said as such), on the
// FIXTURE figure of tests/fixtures/bad-content/figure-valid/ and on the site's own figures.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContent } from '../../src/lib/content/load.ts';
import { assembleTable } from '../../src/lib/content/model.ts';
import { assembleFigure, type FigureModel } from '../../src/lib/figures/model.ts';
import { layoutFigure, provenanceLine, type Layout } from '../../src/lib/figures/layout.ts';
import { figureSvg, inlineStyle, standaloneStyle } from '../../src/lib/figures/svg.ts';
import { textWidth, wrap, runsOf } from '../../src/lib/figures/text.ts';
import { inlineAttributes } from '../../src/lib/csp.ts';

const scratch = mkdtempSync(join(tmpdir(), 'figures-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const figureCss = readFileSync('src/lib/figures/figure-svg.css', 'utf8');

async function figuresOf(dir: string): Promise<FigureModel[]> {
  const data = await loadContent(dir);
  const table = assembleTable(data);
  return data.figures.map((f) => assembleFigure(f, data.backends, table.excerpts));
}
function fixtureContent(): string {
  const dir = join(scratch, 'content');
  cpSync('tests/fixtures/bad-content/valid', dir, { recursive: true });
  cpSync('tests/fixtures/bad-content/figure-valid', dir, { recursive: true });
  return dir;
}
const inside = (b: { x: number; y: number; w: number; h: number }, lane: { x: number; y: number; w: number; h: number }) =>
  b.x >= lane.x && b.y >= lane.y && b.x + b.w <= lane.x + lane.w && b.y + b.h <= lane.y + lane.h;

test('text: DejaVu Sans widths, code in monospace, wrapped at spaces and never inside a code span', () => {
  assert.equal(textWidth('iii', 10), 0.278 * 3 * 10);
  assert.equal(textWidth('iii', 10, true), 0.602 * 3 * 10);
  assert.deepEqual(runsOf('a `b c` d'), [{ text: 'a ', code: false }, { text: 'b c', code: true }, { text: ' d', code: false }]);
  const lines = wrap('the `KUBE-SVC-XYZ` chain picks one endpoint at random', 120, 13);
  assert.ok(lines.length > 1, 'wrapped');
  for (const line of lines) assert.ok(line.reduce((w, r) => w + textWidth(r.text, 13 * (r.code ? 0.92 : 1), r.code), 0) <= 120 || line.length === 1, JSON.stringify(line));
  assert.ok(lines.flat().some((r) => r.code && r.text === 'KUBE-SVC-XYZ'), 'the code span stays whole');
  assert.equal(lines.map((l) => l.map((r) => r.text).join('')).join(' '), 'the KUBE-SVC-XYZ chain picks one endpoint at random');
});

test('the FIXTURE figure: lanes in content order, each step inside its lane and in order down it', async () => {
  const [figure] = await figuresOf(fixtureContent());
  const layout = await layoutFigure(figure!);
  assert.deepEqual(layout.lanes.map((l) => l.id), ['fixture-ran', 'fixture-read']);
  assert.ok(layout.lanes[0]!.x + layout.lanes[0]!.w <= layout.lanes[1]!.x, 'lanes side by side, left to right');
  assert.deepEqual(layout.lanes[1]!.title, ['FIXTURE read', 'read, not run'], 'a column that was not run says so');
  for (const step of layout.steps) {
    const lane = layout.lanes.find((l) => l.id === figure!.steps.find((s) => s.id === step.id)!.lane)!;
    assert.ok(inside(step, lane), `${step.id} inside lane ${lane.id}`);
    assert.ok(step.x >= 0 && step.y >= 0 && step.x + step.w <= layout.width && step.y + step.h <= layout.height, `${step.id} inside the drawing`);
  }
  const [first, second] = ['fixture-first', 'fixture-second'].map((id) => layout.steps.find((s) => s.id === id)!);
  assert.ok(first!.y + first!.h < second!.y, 'an edge runs down the lane');
  assert.equal(layout.edges.length, 1, 'one visible edge (the invisible ordering edges are not drawn)');
  assert.equal(layout.edges[0]!.label?.text, 'jump');
});

test('the SVG: real text, classes only, no style="" attribute; our reading dashed and said in words', async () => {
  const [figure] = await figuresOf(fixtureContent());
  const svg = figureSvg(figure!, await layoutFigure(figure!), { head: inlineStyle(figureCss), attributes: 'role="img" aria-label="x"' });
  assert.deepEqual(inlineAttributes(svg), [], 'no style="" or on…="" attribute');
  assert.doesNotMatch(svg, /\s(fill|stroke|font-family)="/, 'no presentation colours or fonts: CSS gives them');
  assert.doesNotMatch(svg, /<title>/, 'inline: named by its aria-label, so the page keeps one <title>');
  assert.match(figureSvg(figure!, await layoutFigure(figure!), { title: true }), /<title>FIXTURE figure<\/title>/, 'the standalone file has its title');
  assert.match(svg, /<text class="fig-label"[^>]*>FIXTURE first step with <tspan class="fig-code">code<\/tspan><\/text>/);
  assert.equal((svg.match(/class="fig-step fig-step--reading"/g) ?? []).length, 2, 'two steps are our reading');
  assert.equal((svg.match(/>◇ our reading</g) ?? []).length, 2, 'and say so in words');
  assert.match(svg, />§ FIXTURE source</, 'a cited step names its source');
  assert.equal(provenanceLine(figure!.steps[0]!), '§ FIXTURE source');
});

test('colours: the inline drawing takes the page tokens; the standalone file reads tokens.css, light then dark', () => {
  const tokens = readFileSync('src/styles/tokens.css', 'utf8');
  assert.match(inlineStyle(figureCss), /\.fig\{--fig-text:var\(--text\);/);
  const own = standaloneStyle(tokens, figureCss);
  const text = /--text:\s*light-dark\((#\w+),\s*(#\w+)\)/.exec(tokens)!;
  assert.match(own, new RegExp(`^<style>svg\\{--fig-text:${text[1]};[^}]*\\}@media screen and \\(prefers-color-scheme:dark\\)\\{svg\\{--fig-text:${text[2]};`));
  assert.doesNotMatch(own, /\/\*/, 'comments left out');
  assert.throws(() => standaloneStyle(':root{}', figureCss), /tokens\.css has no light-dark\(\) value for --text/);
});

test('the site\'s figures: every step laid out inside its lane; a timeline\'s stages left to right, lanes top to bottom', async () => {
  for (const figure of await figuresOf('content')) {
    const layout: Layout = await layoutFigure(figure);
    assert.deepEqual(layout.lanes.map((l) => l.id), figure.lanes.map((l) => l.id), `${figure.id}: lanes in content order`);
    for (const step of figure.steps) {
      const box = layout.steps.find((s) => s.id === step.id)!;
      assert.ok(inside(box, layout.lanes.find((l) => l.id === step.lane)!), `${figure.id}: ${step.id} inside its lane`);
    }
    const along = (a: { x: number; y: number }, b: { x: number; y: number }) => (figure.flow === 'down' ? a.x < b.x : a.y < b.y);
    layout.lanes.slice(1).forEach((lane, i) => assert.ok(along(layout.lanes[i]!, lane), `${figure.id}: lane ${lane.id} after ${layout.lanes[i]!.id}`));
    layout.stages.slice(1).forEach((stage, i) => assert.ok(layout.stages[i]!.x < stage.x, `${figure.id}: stage ${stage.id} right of the one before`));
    for (const step of figure.steps.filter((s) => s.stage)) {
      const box = layout.steps.find((s) => s.id === step.id)!;
      const stage = layout.stages.find((s) => s.id === step.stage)!;
      assert.ok(box.x < stage.x + stage.w && stage.x < box.x + box.w, `${figure.id}: ${step.id} under its stage ${stage.id}`);
    }
  }
});
