// Quotes keep their source's shape in the built HTML: an excerpt with `form: markdown` shows its
// heading and list items as a heading and a list (no literal markers), one with `form: sample` shows
// its lines preformatted; and the exercise page keeps the seed's straight quotes and apostrophes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as cheerio from 'cheerio';
import { loadContent } from '../../src/lib/content/load.ts';
import { quoteBlocks } from '../../src/lib/content/quote-blocks.ts';
import { haveShared, sharedPath } from '../support/shared.ts';

const dist = process.env.DIST_DIR ?? 'dist';
const data = await loadContent(process.env.CONTENT_DIR ?? 'content');
const pages = new Map(data.sources.map((s) => [s.id, s.page]));
const page = (sitePath: string) => cheerio.load(readFileSync(join(dist, sitePath, 'index.html'), 'utf8'));
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

test('a quote with form: markdown shows its heading and its items as a heading and a list', () => {
  const shaped = data.excerpts.filter((e) => e.form === 'markdown');
  assert.ok(shaped.length > 0, 'the content has such quotes');
  for (const e of shaped) {
    const $ = page(pages.get(e.source)!);
    const quote = $(`figure[id="${e.id}"] blockquote.quote-blocks`);
    assert.equal(quote.length, 1, `${e.source}/${e.id}: shown as blocks`);
    const blocks = quoteBlocks(e.quote!);
    const items = blocks.filter((b) => b.kind === 'item').length;
    const headings = blocks.filter((b) => b.kind === 'heading').length;
    assert.equal(quote.find('ul > li').length, items, `${e.source}/${e.id}: ${items} list items`);
    assert.equal(quote.find('.quote-heading').length, headings, `${e.source}/${e.id}: ${headings} heading(s)`);
    assert.equal(quote.find('h1, h2, h3, h4, h5, h6').length, 0, `${e.source}/${e.id}: no page heading inside`);
    for (const li of quote.find('li').toArray())
      assert.doesNotMatch($(li).text(), /^\s*[-*+]\s/, `${e.source}/${e.id}: no literal list marker`);
    assert.doesNotMatch(quote.text(), /#{2,}/, `${e.source}/${e.id}: no literal heading marker`);
  }
});

test('a quote with form: sample shows its lines preformatted, line for line', () => {
  const samples = data.excerpts.filter((e) => e.form === 'sample');
  assert.ok(samples.length > 0, 'the content has such quotes');
  for (const e of samples) {
    const $ = page(pages.get(e.source)!);
    const pre = $(`figure[id="${e.id}"] blockquote.quote-blocks pre.quote-sample`);
    assert.equal(pre.length, 1, `${e.source}/${e.id}: preformatted`);
    assert.deepEqual(
      pre.text().split('\n'),
      e.quote!.split('\n').map((l) => l.trimEnd()),
      `${e.source}/${e.id}: its lines`,
    );
  }
});

test("the exercise page keeps the seed's quotation marks and apostrophes", (t) => {
  if (!haveShared(t, 'seed/exercise.txt')) return;
  const seed = readFileSync(sharedPath('seed/exercise.txt'), 'utf8');
  const $ = page('exercise');
  $('main .heading-wrapper a').remove(); // the site's "Section titled …" link, not the seed's text
  const body = squash($('main').text());
  for (const mark of ['"', "'", '“', '”', '‘', '’']) {
    const inSeed = seed.split(mark).length - 1;
    if (inSeed === 0)
      assert.ok(!body.includes(mark) || mark === '"' || mark === "'", `no ${mark} the seed does not have`);
  }
  // Every sentence of the seed with a straight quote or apostrophe is on the page as the seed has it.
  const withMarks = seed
    .split('\n')
    .flatMap((line) => line.split(/(?<=[.?!])\s+/))
    .filter((s) => /["']/.test(s) && !/[|*[\]#`]/.test(s));
  assert.ok(withMarks.length > 0, 'the seed has straight quotes or apostrophes');
  for (const sentence of withMarks)
    assert.ok(body.includes(squash(sentence)), `on the page as in the seed: ${sentence}`);
});
