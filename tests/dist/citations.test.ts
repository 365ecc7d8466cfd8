// Citations (:cite[...], docs/claims.md) as built: every citation link on every page goes to its
// target with the deploy base in front, lands on an element with that id on a built page, and is
// named by its source and lines. Targets come from the content folder the build read (CONTENT_DIR,
// else content/), through the same citeTargets() the renderer and the checks use.
// Run after a build, with the build's SITE_BASE (and DIST_DIR), as tools/task.sh does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as cheerio from 'cheerio';
import { loadContent } from '../../src/lib/content/load.ts';
import { citeTargets } from '../../src/lib/content/citations.ts';
import { normaliseBase } from '../../src/lib/base.ts';
import { builtHtmlFiles } from '../../tools/lib/site-pages.ts';

const dist = process.env.DIST_DIR ?? 'dist';
const base = normaliseBase(process.env.SITE_BASE);
const targets = citeTargets(await loadContent(process.env.CONTENT_DIR ?? 'content'));

// A link names its target by its address alone (each target has one of its own, below): the page
// carries no id attribute for the tests, as the home page's first flight has no byte to spare.
const byHref = new Map([...targets.values()].map((t) => [base + t.href.slice(1), t]));

interface Found {
  file: string;
  href: string;
  name: string;
  text: string;
  detail: string;
  group: string;
}
const found: Found[] = [];
for (const file of builtHtmlFiles(dist)) {
  const $ = cheerio.load(readFileSync(join(dist, file), 'utf8'));
  $('a.cite').each((_, a) => {
    found.push({
      file,
      href: $(a).attr('href') ?? '',
      name: $(a).attr('aria-label') ?? '',
      text: $(a).text(),
      detail: $(a).find('.cite-detail').text(),
      group: $(a).closest('.cites').text(),
    });
  });
}

test('the site cites: citation links are built', () => {
  assert.ok(found.length > 0, `no a.cite in ${dist}: the pages cite nothing yet`);
});

test('every citation target has an address of its own', () => {
  assert.equal(byHref.size, targets.size, 'two targets share an address');
});

test('every citation link: href = base + its target, named by source and lines, in a bracket group', () => {
  for (const c of found) {
    const target = byHref.get(c.href);
    assert.ok(target, `${c.file}: cites ${c.href}, the address of no citation target (base ${base})`);
    assert.equal(
      c.name,
      `${target.prefix}${target.text}${target.detail}`,
      `${c.file}: accessible name of ${target.id}`,
    );
    if (target.kind === 'excerpt')
      assert.match(c.text, /^\S+ L\d+(–\d+)?/, `${c.file}: a citation shows its source and lines: ${c.text}`);
    assert.ok(c.name.includes(target.text), `${c.file}: the name holds what the link shows (WCAG 2.5.3)`);
    assert.equal(c.text, `${target.text}${target.detail}`, `${c.file}: the link's text`);
    assert.equal(c.detail, target.detail, `${c.file}: the source's lines are in the part print shows`);
    assert.match(c.group, /^\[.*\]$/, `${c.file}: ${target.id} sits in a bracket group`);
  }
});

test('every citation link lands on an element with its id on a built page', () => {
  for (const c of new Map(found.map((f) => [f.href, f])).values()) {
    assert.ok(c.href.startsWith(base), c.href);
    const [path, fragment] = c.href.slice(base.length).split('#') as [string, string | undefined];
    const page = join(dist, path, 'index.html');
    assert.ok(existsSync(page), `${c.file}: ${c.href} is a built page`);
    if (fragment)
      assert.equal(
        cheerio.load(readFileSync(page, 'utf8'))(`[id="${fragment}"]`).length,
        1,
        `${c.href}: #${fragment} exists`,
      );
  }
});
