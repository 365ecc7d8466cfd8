// Each source page shows what the source is pinned to: its repository and file, linked at
// the pinned commit, the commit, and the commit's date only where content records it (committed:,
// copied from a pinned copy's record; never guessed). Expected values come from the model.
// Run after a build, with the build's DIST_DIR (tools/task.sh does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as cheerio from 'cheerio';
import { loadTable } from '../../src/lib/content/load.ts';

const dist = process.env.DIST_DIR ?? 'dist';
const model = await loadTable('content');
const plain = (s: string) => s.replace(/\s+/g, ' ').trim();

test("every source's page shows its pin: repository, file, commit, and the date only where it is recorded", () => {
  assert.ok(
    model.sources.some((s) => s.committed !== undefined) && model.sources.some((s) => s.committed === undefined),
    'both kinds are seen',
  );
  assert.ok(
    model.sources.some((s) => /^v\d/.test(s.commit)) && model.sources.some((s) => /^[0-9a-f]{40}$/.test(s.commit)),
    'pins to a release tag and to a commit are both seen',
  );
  for (const source of model.sources) {
    const page = model.pages.find((p) => p.id === source.page)!;
    const $ = cheerio.load(readFileSync(join(dist, page.path, 'index.html'), 'utf8'));
    const pin = $('.pins li').filter((_, li) => plain($(li).text()).startsWith(`${source.label}:`));
    assert.equal(pin.length, 1, `${page.path} shows the pin of ${source.id}`);
    const text = plain(pin.text());
    assert.equal(pin.find('a').attr('href'), `https://github.com/${source.repo}/blob/${source.commit}/${source.path}`);
    // A release tag is shown whole and named as one; a commit by its first 12 digits.
    const at = /^v\d+\.\d+\.\d+$/.test(source.commit)
      ? `at release tag ${source.commit}`
      : `at commit ${source.commit.slice(0, 12)}`;
    assert.match(
      text,
      new RegExp(`^${source.label}: ${source.repo} ${source.path} ${at.replaceAll('.', '\\.')}( |,|$)`),
    );
    assert.equal(pin.find('code[title]').attr('title'), source.commit);
    if (source.committed === undefined) {
      assert.equal(pin.find('time').length, 0);
      assert.match(text, /\(its date is not recorded\)$/);
    } else {
      assert.equal(pin.find('time').attr('datetime'), source.committed);
      assert.match(text, new RegExp(`, committed ${source.committed}$`));
    }
  }
});

test('pages that read no source show no pins', () => {
  const sourcePages = new Set(model.sources.map((s) => s.page));
  for (const page of model.pages.filter((p) => !sourcePages.has(p.id))) {
    const $ = cheerio.load(readFileSync(join(dist, page.path, 'index.html'), 'utf8'));
    assert.equal($('.pins').length, 0, `${page.path || '/'} has no pins`);
  }
});
