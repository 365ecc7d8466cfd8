// What search finds in a build, asked of its Pagefind index in Node the way the search page asks it
// (tests/support/pagefind.ts, with the page's options from src/lib/search.ts): excerpts that read as
// sentences once citations are left out, a query's own words ranked above what only looks like them,
// and a hit in a table cell or a figure linked to that cell or figure. That the search page really
// applies these options in a browser, under its CSP, is tests/e2e/reader.spec.ts's.
// Run after a build, with the build's SITE_BASE (tools/task.sh runs tests/dist on every build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as cheerio from 'cheerio';
import { loadTable } from '../../src/lib/content/load.ts';
import { routes } from '../../src/lib/routes.ts';
import { normaliseBase } from '../../src/lib/base.ts';
import { bestSubResult, loadIndex, plainExcerpt, searchAll, type ResultData } from '../support/pagefind.ts';

const dist = process.env.DIST_DIR ?? 'dist';
const base = normaliseBase(process.env.SITE_BASE);
assert.ok(existsSync(join(dist, 'pagefind/pagefind.js')), `${dist}/pagefind/ exists: build before these tests`);

const model = await loadTable('content');
const pagefind = await loadIndex(dist, base);
const pages = await searchAll(pagefind, null); // null: every page in the index
const home = cheerio.load(readFileSync(join(dist, 'index.html'), 'utf8'));
const homeData = pages.find((d) => d.url === base);
const words = (text: string) => text.replace(/\s+/g, ' ').trim();

test('the index holds the home page and every axis page', () => {
  assert.ok(homeData, `home (${base}) is indexed`);
  for (const axis of model.axes)
    assert.ok(
      pages.some((d) => d.url === base + routes.axisPage(axis.id)),
      `${routes.axisPage(axis.id)} is indexed`,
    );
});

// What a citation leaves behind when the index drops it, and chrome that is not content. A verdict
// map quoted from a rule dump ("{ 0 : goto … }") keeps its own spaces, so braces are read past.
const LEFTOVERS: [string, RegExp][] = [
  ['punctuation standing alone, where a citation was ("counts none ; its", "Sources: .")', /(?:^|\s)[.,;:](?=\s|$)/],
  ['empty brackets, where a citation list was ("tried in turn ()")', /(?:^|\s)\(\s*\)|\[\s*\]/],
  ['a badge with its links gone ("Cited · ·")', /·\s*(?:·|\.|$)/],
  ['a figure lane run into its first stage ("iptablesStage 1:")', /[^\s]Stage \d+:/],
  ['link chrome', /Section titled|Copy link|Link to this (?:cell|excerpt)|The drawing alone/],
];

test('every indexed page reads as sentences: no leftovers where citations were, no link chrome', () => {
  const found: string[] = [];
  for (const d of pages) {
    const text = d.content.replace(/\{[^{}]*\}/g, '{}');
    for (const [what, pattern] of LEFTOVERS) {
      const m = pattern.exec(text);
      if (m) found.push(`${d.url}: ${what}: …${text.slice(Math.max(0, m.index - 50), m.index + 30)}…`);
    }
  }
  assert.deepEqual(found, []);
});

// "weight 0": Pagefind matches every query word as a prefix and indexes the parts of "5,002" and
// "0x4000/0x4000" as words, so "0" also matches this site's counts, dates, mark bits and rule dumps
// (src/lib/search.ts). With Pagefind's default ranking, KEP-265's page came third, shown by its
// quoted iptables-save dump ("mark bit 0x4000 … KUBE-MARK-DROP (0 references) … 0.0.0.0/0"), and the
// endpoint-change axis page second, shown by a cell of line counts.
const WEIGHT_ZERO = /\bweight(?:-0\b|\s+(?:\S+\s+){0,2}0\b)/i;

test('"weight 0" (unquoted): the first three results, and the best sub-result of each, are about weight 0', async () => {
  const top = (await searchAll(pagefind, 'weight 0')).slice(0, 3);
  assert.equal(top.length, 3);
  for (const d of top) {
    assert.match(plainExcerpt(d.excerpt), WEIGHT_ZERO, `${d.url}: its excerpt`);
    const best = bestSubResult(d)!;
    assert.match(plainExcerpt(best.excerpt), WEIGHT_ZERO, `${d.url}: its sub-result with the most hits, ${best.url}`);
  }
});

/** The home page's result for an exact phrase (Pagefind: its first occurrence on each page). */
async function homeHit(phrase: string): Promise<ResultData> {
  const hit = (await searchAll(pagefind, `"${phrase}"`)).find((d) => d.url === base);
  assert.ok(hit, `the home page is a result for "${phrase}"`);
  return hit;
}

/** A word as Pagefind compares it: lower case, without punctuation. */
const norm = (text: string) =>
  text
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean);
/** How often `phrase` occurs in `content`, word by word. */
function occurrences(content: string, phrase: string): number {
  const [text, want] = [norm(content), norm(phrase)];
  let n = 0;
  for (let i = 0; i + want.length <= text.length; i++) if (want.every((w, j) => text[i + j] === w)) n++;
  return n;
}

/** An element's words as the index holds them: its citation groups left out. */
const indexedWords = (el: ReturnType<typeof home>) => {
  const copy = el.clone();
  copy.find('.cites, .figure-cites, .cite-list').remove();
  return words(copy.text()).replace(/^Expected:\s*/, '');
};

test("a hit in a table cell on the home page is that cell's sub-result: at its fragment, titled by its row and column", async () => {
  for (const axis of model.axes)
    for (const cell of axis.cells) {
      const id = routes.cellId(axis.id, cell.backend.id);
      // Its short answer, or where another cell's is the same, the start of its full answer.
      const td = home(`td[id="${id}"]`);
      const answer = indexedWords(td.find('.cell-answer')).split(' ');
      const phrase = [indexedWords(td.find('.cell-short')), answer.slice(0, 12).join(' '), answer.join(' ')].find(
        (p) => occurrences(homeData!.content, p) === 1,
      );
      assert.ok(phrase, `${id}: some words of it found once on the home page`);
      const subs = (await homeHit(phrase)).sub_results;
      const title = `${axis.question}: ${cell.backend.name}${cell.backend.run ? '' : ' read, not run'}`;
      assert.deepEqual(
        subs.map((s) => ({ url: s.url, title: s.title })),
        [{ url: `${base}#${id}`, title }],
        `${id}: "${phrase}"`,
      );
    }
});

test("the table's legend is no search target: nothing in it is indexed as a heading or a sub-result", () => {
  const legendIds = home('.legend [id], .legend[id]')
    .map((_, el) => home(el).attr('id'))
    .get();
  assert.ok(legendIds.length > 0, 'the legend has ids (its heading)');
  assert.deepEqual(
    homeData!.anchors.filter((a) => legendIds.includes(a.id)).map((a) => a.id),
    [],
  );
});

test("a hit in a figure's text is the figure's sub-result, not the table cell or heading before it", async () => {
  const figures = home('figure.flow-figure');
  assert.ok(figures.length > 0, 'the home page shows a figure');
  for (const el of figures.toArray()) {
    const figure = home(el);
    const step = indexedWords(figure.find('.figure-text ol li').first());
    const subs = (await homeHit(step)).sub_results;
    const title = words(figure.find('.figure-title').text()).replace(/\.$/, '');
    assert.deepEqual(
      subs.map((s) => ({ url: s.url, title: s.title })),
      [{ url: `${base}#${figure.attr('id')}`, title }],
      `"${step}"`,
    );
  }
});
