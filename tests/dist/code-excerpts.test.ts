// A code note's verbatim lines in the built HTML (issue 44): under the note, as a Go block Shiki
// highlighted at build time (no script), line for line the note's `code` (its shared indentation off),
// with a line that names the file, the lines linked at the pin, the repository, the pin and the
// licence; only where excerpts are embedded, never on the home page. And every excerpt's
// caption names its file once and shows no raw "#<id>".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as cheerio from 'cheerio';
import { loadContent } from '../../src/lib/content/load.ts';
import { dedent } from '../../src/lib/content/code-block.ts';
import { upstreamPath, upstreamUrl } from '../../src/lib/upstream/upstream.ts';

const dist = process.env.DIST_DIR ?? 'dist';
const data = await loadContent(process.env.CONTENT_DIR ?? 'content');
const sources = new Map(data.sources.map((s) => [s.id, s]));
const page = (sitePath: string) => cheerio.load(readFileSync(join(dist, sitePath, 'index.html'), 'utf8'));
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const withCode = data.excerpts.filter((e) => e.code !== undefined);

test('at least eight code notes show code, each at most six lines', () => {
  assert.ok(withCode.length >= 8, `${withCode.length} code notes with code`);
  for (const e of withCode) assert.ok(e.code!.lines[1] - e.code!.lines[0] < 6, `${e.source}/${e.id}`);
});

test('each shows its lines under the note, a highlighted Go block, line for line, with the file, lines, pin and licence', () => {
  for (const e of withCode) {
    const source = sources.get(e.source)!;
    const $ = page(source.page);
    const id = `${e.source}/${e.id}`;
    const figure = $(`figure[data-excerpt="${id}"]`);
    assert.equal(figure.length, 1, `${id}: on ${source.page}`);
    const block = figure.find('.excerpt-note .excerpt-code');
    assert.equal(block.length, 1, `${id}: the code is in the note`);
    const pre = block.find('pre.astro-code');
    assert.equal(pre.length, 1, `${id}: one code block`);
    assert.equal(pre.attr('data-language'), 'go', `${id}: highlighted as Go`);
    assert.ok(pre.find('span[class]').length > 0, `${id}: highlighted (token spans with classes)`);
    assert.equal(pre.find('[style]').length, 0, `${id}: no style attribute (the CSP allows none)`);
    assert.equal(pre.text(), dedent(e.code!.text), `${id}: the lines, verbatim`);
    const credit = block.find('.excerpt-code-credit');
    const [a, b] = e.code!.lines;
    const link = credit.find('a');
    assert.equal(link.attr('href'), upstreamUrl(source, { ...e, lines: [a, b] }), `${id}: links the code's lines`);
    assert.equal(
      squash(credit.text()),
      `Verbatim: ${upstreamPath(source, e)} ${a === b ? `line ${a}` : `lines ${a}–${b}`} at ${source.repo} ${source.commit}, ${source.license} licence`,
      `${id}: attribution`,
    );
  }
});

test('the home page carries no excerpt code: its table links to excerpts; its blocks are our reading of the IPVS settings', () => {
  const $ = page('');
  assert.equal($('.excerpt-code').length, 0);
  // No highlighted block either: Shiki's colour classes would add a style block to the first flight.
  assert.equal($('pre.astro-code').length, 0);
  // The IPVS steps' configuration files are plain, composed by us from cited flags and fields, and
  // say so: the sentence that introduces them ends in an "Our reading" clause.
  const blocks = $('pre');
  assert.ok(blocks.length >= 1, 'the settings written out');
  const intro = blocks.first().prev('p');
  assert.match(squash(intro.find('.reading').last().text()), /^Our reading: Put together .*:$/);
  for (const block of blocks.toArray()) {
    assert.match($(block).text(), /^apiVersion: kubeproxy\.config\.k8s\.io\/v1alpha1\nkind: KubeProxyConfiguration\n/);
    assert.equal($(block).closest('section').attr('aria-labelledby'), 'running-ipvs-what-to-do-before-140');
    assert.ok($(block).prevAll('p').first().is(intro), 'each block follows the reading that introduces them');
  }
});

test('every excerpt caption names its file once and shows no raw "#<id>"', () => {
  const pages = new Set(data.sources.map((s) => s.page));
  let captions = 0;
  for (const sitePath of pages) {
    const $ = page(sitePath);
    for (const el of $('figure.excerpt > figcaption').toArray()) {
      captions++;
      const figure = $(el).parent();
      const caption = squash($(el).text());
      assert.doesNotMatch(caption, /#[a-z0-9-]+/, `${sitePath}: ${caption}`);
      const file = $(el).find('a').first().text().trim().split(' ')[0]!;
      const base = file.split('/').pop()!;
      assert.equal(
        caption.split(base).length - 1,
        1,
        `${sitePath} #${figure.attr('id')}: "${caption}" names ${base} once`,
      );
    }
  }
  assert.ok(captions > 100, `${captions} captions read`);
});
