// The figures' drawing, without Astro: the text measure and wrap, the grid layout (lanes in content
// order, all of one height, each step inside its lane, a stage's steps in the same row of every
// lane, an empty slot where a lane has none), and the SVG (real text, classes and no style=""
// attribute, our reading drawn and said as such), on the FIXTURE figure of
// tests/fixtures/bad-content/figure-valid/ and on the site's own figures.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContent } from '../../src/lib/content/load.ts';
import { assembleTable } from '../../src/lib/content/model.ts';
import { assembleFigure, type FigureModel } from '../../src/lib/figures/model.ts';
import { layoutFigure, provenanceLine, TEXT, type Layout } from '../../src/lib/figures/layout.ts';
import { laneSvgs, figureFileSvg, inlineStyle, standaloneStyle } from '../../src/lib/figures/svg.ts';
import { textWidth, wrap, runsOf, CODE_SCALE } from '../../src/lib/figures/text.ts';
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
type Rect = { x: number; y: number; w: number; h: number };
/** A box inside a lane of the layout's width and height (lanes are drawn in their own coordinates). */
const inLane = (b: Rect, layout: Layout) =>
  b.x >= 0 && b.y >= 0 && b.x + b.w <= layout.laneWidth && b.y + b.h <= layout.height;
const overlap = (a: Rect, b: Rect) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

test('text: DejaVu Sans widths, code in monospace, wrapped at spaces and never inside a code span', () => {
  assert.equal(textWidth('iii', 10), 0.278 * 3 * 10);
  assert.equal(textWidth('iii', 10, true), 0.602 * 3 * 10);
  assert.deepEqual(runsOf('a `b c` d'), [
    { text: 'a ', code: false },
    { text: 'b c', code: true },
    { text: ' d', code: false },
  ]);
  const lines = wrap('the `KUBE-SVC-XYZ` chain picks one endpoint at random', 120, 13);
  assert.ok(lines.length > 1, 'wrapped');
  for (const line of lines)
    assert.ok(
      line.reduce((w, r) => w + textWidth(r.text, 13 * (r.code ? CODE_SCALE : 1), r.code), 0) <= 120 ||
        line.length === 1,
      JSON.stringify(line),
    );
  assert.ok(
    lines.flat().some((r) => r.code && r.text === 'KUBE-SVC-XYZ'),
    'the code span stays whole',
  );
  assert.equal(
    lines.map((l) => l.map((r) => r.text).join('')).join(' '),
    'the KUBE-SVC-XYZ chain picks one endpoint at random',
  );
});

test('the FIXTURE figure: lanes in content order, each step inside its lane and in order down it', () => {
  return figuresOf(fixtureContent()).then(([figure]) => {
    const layout = layoutFigure(figure!);
    assert.deepEqual(
      layout.lanes.map((l) => l.id),
      ['fixture-ran', 'fixture-read'],
    );
    assert.equal(layout.width, 2 * layout.laneWidth + 10, 'side by side, the lanes and the gap between them');
    assert.deepEqual(layout.lanes[1]!.title, ['FIXTURE read', 'read, not run'], 'a column that was not run says so');
    for (const lane of layout.lanes)
      for (const step of lane.steps) assert.ok(inLane(step, layout), `${step.id} inside lane ${lane.id}`);
    const [first, second] = ['fixture-first', 'fixture-second'].map((id) =>
      layout.lanes[0]!.steps.find((s) => s.id === id)!,
    );
    assert.ok(first!.y + first!.h < second!.y, 'an edge runs down the lane');
    assert.equal(layout.lanes[0]!.edges.length, 1, 'one edge');
    assert.equal(layout.lanes[0]!.edges[0]!.label?.text, 'jump');
    assert.equal(layout.lanes[0]!.slots.length, 1, 'no stages: one slot, with no band');
    assert.equal(layout.lanes[0]!.slots[0]!.band, undefined);
  });
});

test('the SVG: real text, classes only, no style="" attribute; our reading dashed and said in words', async () => {
  const [figure] = await figuresOf(fixtureContent());
  const layout = layoutFigure(figure!);
  const svg = laneSvgs(figure!, layout, inlineStyle(figureCss));
  assert.equal((svg.match(/<svg /g) ?? []).length, 2, 'one <svg> per lane');
  assert.equal((svg.match(/<style>/g) ?? []).length, 1, 'the style once, in the first');
  assert.deepEqual(inlineAttributes(svg), [], 'no style="" or on…="" attribute');
  assert.doesNotMatch(svg, /\s(fill|stroke|font-family)="/, 'no presentation colours or fonts: CSS gives them');
  assert.doesNotMatch(svg, /<title>/, "inline: named by its box's aria-label, so the page keeps one <title>");
  const file = figureFileSvg(figure!, layout, '');
  assert.match(
    file,
    /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) \d+"/,
    'the standalone file: an SVG document',
  );
  assert.equal(Number(/viewBox="0 0 (\d+)/.exec(file)![1]), layout.width, 'its lanes side by side');
  assert.match(file, /<title>FIXTURE figure<\/title>/, 'the standalone file has its title');
  assert.match(svg, /<text class="fig-label"[^>]*>FIXTURE first step with <tspan class="fig-code">code<\/tspan>/);
  assert.equal((svg.match(/class="fig-step fig-step--reading"/g) ?? []).length, 2, 'two steps are our reading');
  assert.equal((svg.match(/>◇ our reading</g) ?? []).length, 2, 'and say so in words');
  assert.match(svg, />§ FIXTURE source</, 'a cited step names its source');
  assert.equal(provenanceLine(figure!.steps[0]!), '§ FIXTURE source');
  assert.match(
    inlineStyle(figureCss, { id: 'figure-x', width: 500 }),
    /@container \(min-width:500px\)\{#figure-x \.figure-draw\{flex-direction:row\}\}/,
    "from the lanes' width on, the page places them side by side",
  );
});

test('no text in a drawing is under 12 px', () => {
  assert.ok(TEXT.small >= 12 && TEXT.size >= 12);
  for (const m of figureCss.matchAll(/font-size:\s*([\d.]+)(px|em)/g))
    assert.ok(m[2] === 'px' ? Number(m[1]) >= 12 : Number(m[1]) * TEXT.size >= 12, m[0]);
  assert.ok(TEXT.size * CODE_SCALE >= 12, 'code');
});

test('colours: the inline drawing takes the page tokens; the standalone file reads tokens.css, light then dark', () => {
  const tokens = readFileSync('src/styles/tokens.css', 'utf8');
  assert.match(inlineStyle(figureCss), /\.fig\{--fig-text:var\(--text\);/);
  const own = standaloneStyle(tokens, figureCss);
  const text = /--text:\s*light-dark\((#\w+),\s*(#\w+)\)/.exec(tokens)!;
  assert.match(
    own,
    new RegExp(
      `^<style>svg\\{--fig-text:${text[1]};[^}]*\\}@media screen and \\(prefers-color-scheme:dark\\)\\{svg\\{--fig-text:${text[2]};`,
    ),
  );
  const bg = /--bg:\s*light-dark\((#\w+),\s*(#\w+)\)/.exec(tokens)!;
  assert.match(own, new RegExp(`^<style>svg\\{[^}]*;background:${bg[1]}\\}`), 'the file paints its own page, light');
  assert.match(own, new RegExp(`dark\\)\\{svg\\{[^}]*;background:${bg[2]}\\}`), 'and dark');
  assert.doesNotMatch(own, /\/\*/, 'comments left out');
  assert.throws(() => standaloneStyle(':root{}', figureCss), /tokens\.css has no light-dark\(\) value for --text/);
});

test("the site's figures: lanes in content order, every step inside its lane, a stage's steps in one row of every lane, an empty slot where a lane has none", async () => {
  for (const figure of await figuresOf('content')) {
    const layout: Layout = layoutFigure(figure);
    assert.deepEqual(
      layout.lanes.map((l) => l.id),
      figure.lanes.map((l) => l.id),
      `${figure.id}: lanes in content order`,
    );
    assert.ok(figure.stages.length > 0, `${figure.id}: has stages`);
    for (const lane of layout.lanes) {
      assert.deepEqual(
        lane.slots.map((s) => s.stage),
        figure.stages.map((s) => s.id),
        `${figure.id}/${lane.id}: one slot per stage, in order`,
      );
      const boxes = [...lane.steps, ...lane.slots.flatMap((s) => [s.band, s.empty].filter((b) => b !== undefined))];
      for (const b of boxes) assert.ok(inLane(b, layout), `${figure.id}/${lane.id}: a box inside the lane`);
      boxes.forEach((a, i) =>
        boxes.slice(i + 1).forEach((b) => assert.ok(!overlap(a, b), `${figure.id}/${lane.id}: boxes do not overlap`)),
      );
      lane.slots.forEach((slot, i) => {
        const steps = lane.steps.filter((s) => s.stage === slot.stage);
        for (const s of steps)
          assert.ok(s.y >= slot.y && s.y + s.h <= slot.y + slot.h, `${figure.id}: ${s.id} inside its stage's row`);
        assert.equal(
          slot.empty !== undefined,
          steps.length === 0,
          `${figure.id}/${lane.id}: an empty slot exactly where the lane has no step at ${slot.stage}`,
        );
        if (i > 0)
          assert.ok(slot.y >= lane.slots[i - 1]!.y + lane.slots[i - 1]!.h, 'rows in stage order, down the lane');
      });
    }
    // The rows line up: each stage's slot at the same place and height in every lane.
    const [first, ...rest] = layout.lanes;
    for (const lane of rest)
      assert.deepEqual(
        lane.slots.map((s) => [s.y, s.h]),
        first!.slots.map((s) => [s.y, s.h]),
        `${figure.id}: ${lane.id}'s rows as ${first!.id}'s`,
      );
    for (const step of figure.steps) {
      const lane = layout.lanes.find((l) => l.id === step.backend)!;
      assert.ok(
        lane.steps.some((s) => s.id === step.id),
        `${figure.id}: ${step.id} drawn in its lane`,
      );
    }
  }
});
