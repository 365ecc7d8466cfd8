// The figures in the built HTML (no browser): on every page that shows one - each MDX page that
// embeds it with <Figure id="…" />, and the page of each row it lists - the figure has its caption,
// the drawing (inline, one SVG per lane, in a box named as an image) and its text: every step in the figure's
// order, with the same citation links as its
// provenance or marked as our reading. Expected figures, pages and steps come from the content.
// Run after a build, with the build's SITE_BASE (tools/task.sh does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as cheerio from 'cheerio';
import { loadContent } from '../../src/lib/content/load.ts';
import { assembleTable } from '../../src/lib/content/model.ts';
import { assembleFigure, drawingName } from '../../src/lib/figures/model.ts';
import { stagesOurs } from '../../src/lib/figures/layout.ts';
import { bySource } from '../../src/lib/view/model.ts';
import { routes } from '../../src/lib/routes.ts';
import { normaliseBase, joinBase } from '../../src/lib/base.ts';
import { inlineAttributes } from '../../src/lib/csp.ts';

const dist = process.env.DIST_DIR ?? 'dist';
const base = normaliseBase(process.env.SITE_BASE);
const data = await loadContent('content');
const table = assembleTable(data);
const figures = data.figures.map((f) => assembleFigure(f, data.backends, table.excerpts));
const read = (path: string) => readFileSync(join(dist, path), 'utf8');
const squash = (s: string) => s.replace(/`/g, '').replace(/\s+/g, '');

/** Where each figure shows: the MDX pages that embed it, and its rows' pages; inline on each. */
const placements = figures.flatMap((figure) => [
  ...data.pages
    .filter((p) => readFileSync(p.file, 'utf8').includes(`<Figure id="${figure.id}" />`))
    .map((p) => ({ figure, path: routes.page(p.id) })),
  ...figure.axes.map((axis) => ({ figure, path: routes.axisPage(axis) })),
]);

test('each figure shows on its pages: the drain timeline on the drain page, the dispatch figure on the home page, and each on its rows', () => {
  const where = (id: string) => placements.filter((p) => p.figure.id === id).map((p) => p.path);
  assert.ok(where('dispatch').includes(routes.home), 'dispatch: home page');
  assert.ok(where('drain-timeline').includes(routes.page('drain')), 'drain timeline: drain page');
  assert.ok(where('drain-timeline').includes(routes.axisPage('drain')), 'drain timeline: drain axis');
  for (const axis of ['dispatch', 'endpoint-selection', 'iptables-rules'])
    assert.ok(where('dispatch').includes(routes.axisPage(axis)), `dispatch: axis ${axis}`);
});

for (const { figure, path } of placements) {
  test(`/${path}: figure "${figure.id}": caption, drawing inline (a named image of one SVG per lane) and as a file, steps as text with their citations`, () => {
    const $ = cheerio.load(read(join(path, 'index.html')));
    const fig = $(`figure.flow-figure[data-figure="${figure.id}"]`);
    assert.equal(fig.length, 1, 'shown once');
    assert.equal(fig.attr('id'), routes.figureFragment(figure.id));
    const caption = $(`#${fig.attr('aria-labelledby')}`);
    assert.ok(
      caption.is('figcaption') && caption.text().includes(figure.title),
      'named by its caption, which holds the title',
    );

    // The drawing, inline: one <svg> per lane in a box named as an image, the text following it.
    const box = fig.children('.figure-box').children('.figure-draw');
    assert.equal(box.attr('role'), 'img');
    assert.equal(box.attr('aria-label'), drawingName(figure));
    const svg = box.children('svg');
    assert.equal(svg.length, figure.lanes.length, 'one <svg> per lane');
    assert.equal(svg.find('style').length, 1, "the drawing's style once");
    const markup = $.html(svg);
    assert.deepEqual(inlineAttributes(markup), [], 'no style="" attribute');
    const drawn = squash(
      svg
        .find('text')
        .map((_, t) => $(t).text())
        .get()
        .join(''),
    );
    for (const step of figure.steps) assert.ok(drawn.includes(squash(step.label)), `step ${step.id} drawn as text`);
    for (const lane of figure.lanes) assert.ok(drawn.includes(squash(lane.name)), `lane ${lane.id} titled`);

    // The same drawing as a file of its own, linked under it: its own colours and title.
    const link = fig.children('.figure-file').find('a');
    assert.match(
      link.attr('href') ?? '',
      new RegExp(`^${joinBase(base, 'figures/')}${figure.id}\\.[0-9a-f]{10}\\.svg$`),
    );
    const file = read(decodeURI(link.attr('href')!).slice(base.length));
    assert.match(file, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.match(file, /<style>svg\{--fig-text:#/, 'its own colours');
    assert.match(file, new RegExp(`<title>${figure.title}</title>`), 'its title');
    assert.deepEqual(inlineAttributes(file), []);
    for (const step of figure.steps)
      assert.ok(squash(file.replace(/<[^>]+>/g, '')).includes(squash(step.label)), `step ${step.id} drawn as text`);

    // The text: every step, in the figure's order, lane by lane; each with its citation links.
    const text = fig.children('.figure-text');
    const items = text.find('.figure-lanes li[id]');
    assert.deepEqual(
      items.map((_, li) => $(li).attr('id')).get(),
      figure.steps.map((s) => routes.figureStepFragment(figure.id, s.id)),
      'steps in order',
    );
    assert.deepEqual(
      text
        .find('.figure-lanes > li')
        .map((_, li) => $(li).attr('data-lane'))
        .get(),
      figure.lanes.map((l) => l.id),
      'lanes in order',
    );
    for (const item of [...figure.stages, ...figure.steps]) {
      const li = text.find(`#${routes.figureStepFragment(figure.id, item.id)}`);
      assert.equal(li.length, 1, `${item.id} in the text`);
      assert.ok(squash(li.text()).includes(squash(item.label)), `${item.id}: its label`);
      const links = li
        .find('.cite-list a')
        .map((_, a) => $(a).attr('href'))
        .get();
      assert.deepEqual(
        links,
        bySource(item.cites)
          .flatMap((g) => g.cites)
          .map((c) => joinBase(base, c.href)),
        `${item.id}: the same citations, linking to the excerpts`,
      );
      // Stages that are all our own grouping are marked once, in the text's intro, not one by one.
      const markedOnce = figure.stages.includes(item as (typeof figure.stages)[number]) && stagesOurs(figure);
      assert.equal(
        li.find('.reading-mark').length,
        item.reading && !markedOnce ? 1 : 0,
        `${item.id}: our reading marked ${item.reading ? '' : 'only '}where it is`,
      );
    }
  });
}

test('every figure is shown somewhere, and has one standalone file, named with a hash of its bytes', () => {
  for (const figure of figures)
    assert.ok(
      placements.some((p) => p.figure.id === figure.id),
      `${figure.id} is shown somewhere`,
    );
  const files = readdirSync(join(dist, 'figures')).sort();
  assert.deepEqual(
    files.map((f) => f.replace(/\.[0-9a-f]{10}\.svg$/, '')),
    figures.map((f) => f.id).sort(),
  );
  for (const f of files) {
    const hash = createHash('sha256')
      .update(read(join('figures', f)))
      .digest('hex')
      .slice(0, 10);
    assert.ok(f.endsWith(`.${hash}.svg`), `${f}: the name carries the hash of its bytes, so it can be cached for good`);
  }
});

// Issue 44: on the home page the figure's drawing (its inline SVG) was the largest part of the load's
// layout; on every page it is laid out only once it nears the screen, by a screen-only rule (print
// draws it) in the drawing's own <style>, so the home page's HTML before the table's end is unchanged.
test("each flow figure's drawing is laid out only near the screen, by a rule in its own style; on the home page after the table's end", () => {
  const compact = (css: string) =>
    css
      .replace(/\s+/g, ' ')
      .replace(/\s*([{}:;>~,])\s*/g, '$1')
      .trim();
  for (const { figure, path } of placements) {
    const html = read(join(path, 'index.html'));
    const id = routes.figureFragment(figure.id);
    const rule = `@media screen{#${id} .figure-draw{content-visibility:auto;contain-intrinsic-size:auto `;
    const $ = cheerio.load(html);
    const styles = $(`#${id} .figure-draw svg style`)
      .toArray()
      .map((s) => compact($(s).text()));
    assert.equal(styles.filter((css) => css.includes(rule)).length, 1, `/${path}: the rule, in the drawing's style`);
    assert.equal(html.split('content-visibility:auto').length - 1, 1, `/${path}: no other such rule`);
  }
  const home = read('index.html');
  const tableEnd = home.indexOf('</table>', home.indexOf('<table class="comparison"'));
  assert.ok(tableEnd > 0, 'the home page has the table');
  assert.ok(home.indexOf('content-visibility:auto') > tableEnd, "home page: the rule comes after the table's end");
});
