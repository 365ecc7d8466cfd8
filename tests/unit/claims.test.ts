// The claims syntax (docs/claims.md) through the site's one Markdown pipeline: what :cite, :reading,
// :::reading and :::intro render to, inline (YAML fields) and as a page, at "/" and under a sub-path;
// that text which only looks like a directive comes out as written; and what the page scan reads
// from the parsed tree (citations, and prose with neither a citation nor a reading mark).
// Cite targets are FIXTURES made here, never rendered on the site.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as cheerio from 'cheerio';
import { markdownConfig } from '../../src/lib/markdown-pipeline.ts';
import { siteRender } from '../../src/lib/content/render.ts';
import { renderInline } from '../../src/lib/content/inline.ts';
import { citeTargets } from '../../src/lib/content/citations.ts';
import { CITE_COMPONENT, CITE_PLACEHOLDER } from '../../src/lib/claims/syntax.ts';
import { remarkClaims } from '../../src/lib/remark-claims.ts';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
import remarkDirective from 'remark-directive';
import { visit } from 'unist-util-visit';
import type {} from 'mdast-util-mdx-jsx';
import { scanPage, scanInline } from '../../src/lib/claims/page-scan.ts';
import type { ContentData } from '../../src/lib/content/collections.ts';

const commit = 'f'.repeat(40);
const targets = citeTargets({
  sources: [
    {
      id: 'fixture-kep',
      label: 'KEP-FIXTURE',
      title: 'FIXTURE KEP',
      repo: 'o/r',
      path: 'keps/f/README.md',
      commit,
      license: 'x',
      quotable: true,
      page: 'keps/fixture',
      file: 'f',
      index: 0,
    },
  ],
  excerpts: [
    {
      id: 'one',
      source: 'fixture-kep',
      section: 'S',
      lines: [98, 102],
      quote: 'q',
      answers: 'a',
      file: 'f',
      index: 0,
      html: { quote: 'q', answers: 'a' },
    },
    {
      id: 'meta',
      source: 'fixture-kep',
      section: 'S',
      lines: [7, 7],
      path: 'kep.yaml',
      quote: 'q',
      answers: 'a',
      file: 'f',
      index: 1,
      html: { quote: 'q', answers: 'a' },
    },
  ],
  axes: [
    {
      id: 'fixture-row',
      question: 'can it FIXTURE?',
      summary: 's',
      cells: {},
      file: 'f',
      index: 0,
      html: { summary: 's', cells: {} },
    },
  ],
  evidence: [],
} as unknown as Pick<ContentData, 'sources' | 'excerpts' | 'axes' | 'evidence'>);
const render = (base = '/') => siteRender(markdownConfig(base));
const inline = (md: string, base = '/') => renderInline(render(base), md);
const page = async (md: string, base = '/') => cheerio.load(await render(base)(md), null, false);

/** The ids each citation placeholder of rendered HTML holds, in order. */
const placeholders = (html: string) => [...html.matchAll(CITE_PLACEHOLDER)].map((m) => m[1]);

// The links themselves are rendered where a page renders (components/Cite.astro) and tested on the
// built site (tests/dist/citations.test.ts): href, name, bracket group, base.
test(':cite in a YAML field leaves one placeholder per citation, holding its ids in order, and no link', async () => {
  const html = await inline('IPVS NATs the packet itself :cite[fixture-kep/one fixture-kep/meta row/fixture-row].');
  assert.deepEqual(placeholders(html), ['fixture-kep/one fixture-kep/meta row/fixture-row']);
  assert.ok(html.startsWith('IPVS NATs the packet itself <site-cite'), html);
  assert.doesNotMatch(html, /<a /, 'the pipeline knows no targets');
  const $ = await page('A claim :cite[row/fixture-row].\n\n- item :cite[fixture-kep/one]', '/sub/');
  assert.deepEqual(placeholders($.html()), ['row/fixture-row', 'fixture-kep/one']);
});

test(':cite in an MDX page becomes the Cite component, with its ids', () => {
  const tree = unified()
    .use(remarkParse)
    .use(remarkMdx)
    .use(remarkDirective)
    .parse('A claim :cite[fixture-kep/one row/fixture-row].');
  remarkClaims()(tree, { path: 'content/pages/fixture.mdx' });
  const found: Array<{ name: unknown; ids: unknown }> = [];
  visit(tree, (node) => {
    if (node.type === 'mdxJsxTextElement')
      found.push({ name: node.name, ids: node.attributes.find((x) => 'name' in x && x.name === 'ids')?.value });
  });
  assert.deepEqual(found, [{ name: CITE_COMPONENT, ids: 'fixture-kep/one row/fixture-row' }]);
});

test('the targets a page renders citations with are every citable id of the content (FIXTURES here)', () => {
  assert.deepEqual([...targets.keys()].sort(), ['fixture-kep/meta', 'fixture-kep/one', 'row/fixture-row']);
  assert.equal(targets.get('fixture-kep/one')?.text, 'KEP-FIXTURE L98–102');
});

test(':reading marks a clause with a visible, spoken label; :::reading a block; :::intro is plain prose', async () => {
  const $ = cheerio.load(await inline('The KEP says X :cite[fixture-kep/one]; :reading[so *Y* follows].'), null, false);
  const reading = $('span.reading');
  assert.equal(reading.length, 1);
  assert.equal(reading.children().first().attr('class'), 'reading-label');
  assert.equal(reading.text(), 'Our reading: so Y follows', 'the label is text, read before the clause');
  assert.equal(reading.find('em').text(), 'Y', 'Markdown inside is rendered');

  const block = await page(
    ":::reading\nFirst of ours :cite[fixture-kep/one].\n\n- and a list item\n:::\n\n:::intro\nThe KEP's own words:\n:::",
  );
  const div = block('div.reading-block');
  assert.equal(div.length, 1);
  assert.equal(div.children().first().text(), 'Our reading', 'a visible label first');
  assert.equal(div.find('site-cite').length, 1, 'citations work inside');
  assert.equal(div.find('li').text(), 'and a list item');
  assert.equal(
    block.html().replace(/\s+/g, ' ').trim().endsWith("</div> <p>The KEP's own words:</p>"),
    true,
    block.html(),
  );
});

test('text that only looks like a directive comes out as written, its label still Markdown', async () => {
  for (const md of [
    'at 10:30, foo:bar and a:b:c, std::move',
    'the label :x[kept *as is*] and :w[a]{#i .c k="v"}',
    'https://example.com/a:b and `code:span`',
  ]) {
    const want = md
      .replace('*as is*', '<em>as is</em>')
      .replace('`code:span`', '<code>code:span</code>')
      .replace(
        /https:\/\/example\.com\/a:b/,
        '<a href="https://example.com/a:b" rel="noopener">https://example.com/a:b</a>',
      );
    assert.equal(await inline(md), want, md);
  }
  assert.equal((await render()('::leaf[t]{a="1"}')).trim(), '<p>::leaf[t]{a="1"}</p>');
  assert.equal(
    (await render()(':::aside[a *b*]{.c}\ninside\n:::')).replace(/\n/g, ''),
    '<p>:::aside[a *b*]{.c}</p><p>inside</p><p>:::</p>',
  );
});

test("where the directive syntax has two spellings, a stray one comes out in mdast-util-directive's", async () => {
  assert.equal(await inline(':y[] and :z{k=v} and ::w'), ':y and :z{k="v"} and ::w');
  assert.equal((await render()('::leaf[t]{a=1}')).trim(), '<p>::leaf[t]{a="1"}</p>');
  // An unclosed container is closed; fences are written at their shortest, three colons.
  assert.equal((await render()(':::aside\ninside')).replace(/\n/g, ''), '<p>:::aside</p><p>inside</p><p>:::</p>');
  assert.equal(
    (await render()('::::outer\n:::inner\nx\n:::\n::::')).replace(/\n/g, ''),
    '<p>:::outer</p><p>:::inner</p><p>x</p><p>:::</p><p>:::</p>',
  );
});

test('scanInline: the ids cited in a field, at line and column; a field with no mark is unmarked', () => {
  assert.deepEqual(scanInline('A :cite[a/b c/d] and\nB :cite[row/x].').cites, [
    { id: 'a/b', line: 1, col: 9 },
    { id: 'c/d', line: 1, col: 13 },
    { id: 'row/x', line: 2, col: 9 },
  ]);
  assert.equal(scanInline('A claim with no mark.').unmarked.length, 1);
  assert.equal(scanInline('A claim :reading[of ours].').unmarked.length, 0);
  assert.equal(
    scanInline('- starts like a list :cite[a/b]').unmarked.length,
    0,
    'parsed as the site renders it: one paragraph',
  );
});

test('scanPage: prose is what the tree says is prose; headings, code, embeds and the frontmatter are not', () => {
  const scan = scanPage(
    [
      '---', // 1
      'title: x', // 2
      '---', // 3
      '', // 4
      '## A heading: not prose', // 5
      '', // 6
      'Unmarked paragraph.', // 7
      '', // 8
      '```sh', // 9
      'a fenced block: not prose', // 10
      '```', // 11
      '', // 12
      '<Excerpt id="k/one" />', // 13
      '', // 14
      '- cited :cite[k/one]', // 15
      '- unmarked item', // 16
      '  - nested, unmarked', // 17
      '', // 18
      '<Callout>', // 19
      '  Inside a component, unmarked.', // 20
      '</Callout>', // 21
      '', // 22
      ':::intro', // 23
      'An introduction.', // 24
      ':::', // 25
      '', // 26
      ':::reading', // 27
      'Ours.', // 28
      '', // 29
      '- also ours', // 30
      ':::', // 31
      '', // 32
      '> A quote, unmarked.', // 33
    ].join('\n'),
  );
  assert.deepEqual(
    scan.unmarked.map((u) => [u.kind, u.line, u.col, u.text]),
    [
      ['paragraph', 7, 1, 'Unmarked paragraph.'],
      ['list item', 16, 1, 'unmarked item'],
      ['list item', 17, 3, 'nested, unmarked'],
      ['paragraph', 20, 3, 'Inside a component, unmarked.'],
      ['paragraph', 33, 3, 'A quote, unmarked.'],
    ],
  );
  assert.deepEqual(scan.cites, [{ id: 'k/one', line: 15, col: 15 }]);
  assert.deepEqual(scan.embeds, [{ id: 'k/one', line: 13 }]);
  assert.deepEqual(scan.headings, [{ id: 'a-heading-not-prose', line: 5 }]);
});
