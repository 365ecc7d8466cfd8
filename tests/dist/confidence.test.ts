// How sure the site is, said once: a reading is marked by its label alone, with no hedge in plain
// words inside it ("as we read", "in our reading"), and no page hedges in plain words outside a
// marked reading either, so the one mark the legend defines is the only one a reader meets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as cheerio from 'cheerio';
import { READING_LABEL } from '../../src/lib/claims/syntax.ts';
import { builtHtmlFiles } from '../../tools/lib/site-pages.ts';
import { countMarks, MARK_BUDGET } from '../../tools/lib/confidence-marks.ts';

const dist = process.env.DIST_DIR ?? 'dist';
const HEDGE = /\b(as we read|in our reading|as we understand)\b/i;

test('no doubled hedge: a marked reading carries no second hedge in plain words, and none stands outside one', () => {
  let readings = 0;
  for (const file of builtHtmlFiles(dist)) {
    if (file.startsWith('exercise/')) continue; // the exercise's own words, reproduced verbatim
    const $ = cheerio.load(readFileSync(join(dist, file), 'utf8'));
    $('script, style, .reading-label').remove();
    $('.reading, .reading-block').each((_, el) => {
      readings++;
      const text = $(el).text().replace(/\s+/g, ' ');
      assert.doesNotMatch(text, HEDGE, `${file}: a reading hedged twice: "${text.slice(0, 120)}"`);
      assert.ok(
        !text.toLowerCase().includes(READING_LABEL.toLowerCase()),
        `${file}: "${READING_LABEL}" repeated inside a reading: "${text.slice(0, 120)}"`,
      );
    });
    $('.reading, .reading-block').remove();
    const rest = $('main').text().replace(/\s+/g, ' ');
    const hedge = HEDGE.exec(rest);
    assert.equal(
      hedge,
      null,
      `${file}: a hedge in plain words, not marked as our reading: "…${hedge ? rest.slice(Math.max(0, hedge.index - 60), hedge.index + 60) : ''}…"`,
    );
  }
  assert.ok(readings > 0, 'the site marks some readings');
});

test(`the pages a reader starts from carry at most ${MARK_BUDGET} confidence marks each, details open`, () => {
  for (const page of ['index.html', 'drain/index.html']) {
    const m = countMarks(readFileSync(join(dist, page), 'utf8'));
    assert.ok(m.labels > 0, `${page}: the count finds its marks`);
    assert.ok(m.total <= MARK_BUDGET, `${page}: ${m.total} marks (${JSON.stringify(m)})`);
  }
});
