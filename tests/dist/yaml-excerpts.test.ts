// A kep.yaml excerpt quoted as whole lines reads as its fields: a definition list of the keys the
// pinned lines hold, with no quotation marks around YAML (tests/dist: what the built HTML shows).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as cheerio from 'cheerio';
import { parse } from 'yaml';
import { loadContent } from '../../src/lib/content/load.ts';

const dist = process.env.DIST_DIR ?? 'dist';
const data = await loadContent(process.env.CONTENT_DIR ?? 'content');
const pages = new Map(data.sources.map((s) => [s.id, s.page]));

test('each whole-lines kep.yaml excerpt is a definition list of its keys (or a list of its items)', () => {
  const yamlExcerpts = data.excerpts.filter((e) => e.path === 'kep.yaml' && e.quote !== undefined && !e.cut);
  assert.ok(yamlExcerpts.length > 0, 'the content quotes kep.yaml');
  for (const e of yamlExcerpts) {
    const $ = cheerio.load(readFileSync(join(dist, pages.get(e.source)!, 'index.html'), 'utf8'));
    const quote = $(`figure[id="${e.id}"] blockquote.yaml-quote`);
    assert.equal(quote.length, 1, `${e.source}/${e.id}: shown as fields`);
    const parsed = parse(e.quote!) as object;
    if (Array.isArray(parsed)) {
      const items = quote
        .children('ul')
        .children('li')
        .map((_, li) => $(li).text())
        .get();
      assert.deepEqual(items, parsed.map(String), `${e.source}/${e.id}: its items, in order`);
    } else {
      const keys = quote
        .children('dl')
        .children('dt')
        .map((_, dt) => $(dt).text())
        .get();
      assert.deepEqual(keys, Object.keys(parsed), `${e.source}/${e.id}: its keys, in order`);
    }
    assert.doesNotMatch(quote.text(), /["“”]/, `${e.source}/${e.id}: no quotation marks around YAML values`);
  }
});
