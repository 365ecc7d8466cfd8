// Build-time Markdown: base-prefixed links, heading links, and the inline Markdown of YAML
// fields rendered through the site's own pipeline (the one astro.config.mjs configures).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Element, Root } from 'hast';
import { rehypeBaseLinks } from '../../src/lib/rehype-base-links.ts';
import { normaliseBase, joinBase } from '../../src/lib/base.ts';
import { plainText } from '../../src/lib/markdown.ts';
import { markdownConfig } from '../../src/lib/markdown-pipeline.ts';
import { siteRender, isPlainLine } from '../../src/lib/content/render.ts';
import { renderInline } from '../../src/lib/content/inline.ts';
import { readAll } from '../../src/lib/content/collections.ts';

/** A cell's Markdown, rendered as the content loader renders it for a site deployed at `base`. */
const inline = (md: string, base = '/') => renderInline(siteRender(markdownConfig(base)), md);

const tree = (href: string): Root => ({
  type: 'root',
  children: [
    {
      type: 'element',
      tagName: 'p',
      properties: {},
      children: [{ type: 'element', tagName: 'a', properties: { href }, children: [] }],
    },
  ],
});
const hrefOf = (t: Root) => ((t.children[0] as Element).children[0] as Element).properties.href as string;

test('normaliseBase gives "/" or "/a/b/"', () => {
  assert.equal(normaliseBase(undefined), '/');
  assert.equal(normaliseBase(''), '/');
  assert.equal(normaliseBase('/'), '/');
  assert.equal(normaliseBase('kube-proxy-backends'), '/kube-proxy-backends/');
  assert.equal(normaliseBase('/a/b'), '/a/b/');
});

test('joinBase puts the base in front of a site path once', () => {
  assert.equal(joinBase('/sub/', '/rows/drain/'), '/sub/rows/drain/');
  assert.equal(joinBase('/', 'rows/drain/'), '/rows/drain/');
  assert.equal(joinBase('/sub/', '#drain'), '/sub/#drain');
});

test('rehypeBaseLinks prefixes root links and leaves others alone', () => {
  for (const [href, want] of [
    ['/keps/kep-265/', '/sub/keps/kep-265/'],
    ['#x', '#x'],
    ['https://example.com/a', 'https://example.com/a'],
    ['//cdn.example/a', '//cdn.example/a'],
    ['../a/', '../a/'],
  ]) {
    const t = tree(href!);
    rehypeBaseLinks({ base: '/sub/' })(t);
    assert.equal(hrefOf(t), want, href);
  }
});

test('rehypeBaseLinks reaches links inside MDX components and JSX <a> elements', () => {
  // What MDX hands rehype for <Callout>[x](/drain/) <a href="/rows/a/">y</a></Callout>.
  const link = { type: 'element', tagName: 'a', properties: { href: '/drain/' }, children: [] };
  const jsxLink = {
    type: 'mdxJsxTextElement',
    name: 'a',
    attributes: [{ type: 'mdxJsxAttribute', name: 'href', value: '/rows/a/' }],
    children: [],
  };
  const t = {
    type: 'root',
    children: [
      {
        type: 'mdxJsxFlowElement',
        name: 'Callout',
        attributes: [],
        children: [{ type: 'element', tagName: 'p', properties: {}, children: [link, jsxLink] }],
      },
    ],
  };
  rehypeBaseLinks({ base: '/sub/' })(t as unknown as Root);
  assert.equal(link.properties.href, '/sub/drain/');
  assert.equal(jsxLink.attributes[0]!.value, '/sub/rows/a/');
});

test('inline Markdown from YAML: code and links; external links get rel=noopener', async () => {
  assert.equal(await inline('a `b` c'), 'a <code>b</code> c');
  assert.match(await inline('[x](https://example.com)'), /<a href="https:\/\/example.com" rel="noopener">x<\/a>/);
  assert.doesNotMatch(await inline('[x](/rows/a/)'), /noopener/);
});

test('inline Markdown from YAML: a link written from the root gets the deploy base', async () => {
  assert.match(
    await inline('see [the row](/rows/drain/)', '/kube-proxy-backends/'),
    /<a href="\/kube-proxy-backends\/rows\/drain\/">the row<\/a>/,
  );
  assert.match(await inline('see [the row](/rows/drain/)'), /<a href="\/rows\/drain\/">the row<\/a>/);
});

test('inline Markdown from YAML stays verbatim text: no typographic quotes or dashes, no block syntax', async () => {
  assert.equal(await inline(`kube-proxy's --masquerade-all "flag"`), `kube-proxy's --masquerade-all "flag"`);
  assert.equal(await inline('* starts with an asterisk'), '* starts with an asterisk');
  assert.equal(await inline('# not a heading'), '# not a heading');
});

test('plain text drops markup but keeps underscores in identifiers', async () => {
  assert.equal(plainText(await inline('set `expire_nodest_conn` to **1** & go')), 'set expire_nodest_conn to 1 & go');
});

test('plain text leaves out the citation groups the pipeline renders', async () => {
  assert.equal(
    plainText(await inline('a claim :cite[x/y z/w], :reading[ours] :cite[x/y].')),
    'a claim, Our reading: ours.',
  );
});

test('plain text leaves citation groups out, keeps our reading, decodes references, collapses white space', () => {
  assert.equal(
    plainText(
      '<p>IPVS <em>NATs</em> it <span class="cites" data-pagefind-ignore="">[<a class="cite" href="/k/#a">K L1<span class="cite-detail">, x.go</span></a>]</span>;\n' +
        '<span class="reading"><span class="reading-label">Our reading:</span> so &#x3C;Y> &amp; &#169; &mdash; z</span></p>',
    ),
    'IPVS NATs it; Our reading: so <Y> & © — z',
  );
  assert.equal(plainText('<span class="cites other">[x]</span>a <span class="x cites">[y]</span> b'), 'a b');
  assert.equal(plainText('<p title="a>b">one</p>\n\n<p>two</p><!-- a comment -->'), 'one two');
  assert.equal(plainText('  '), '');
});

test('a plain line skips the processor and comes out as the processor renders it: every such field of content/', async () => {
  const config = markdownConfig('/');
  const renderer = config.processor.createRenderer({
    syntaxHighlight: config.syntaxHighlight,
    shikiConfig: config.shikiConfig,
    smartypants: false,
  } as never);
  const processor = async (md: string) => (await (await renderer).render(md, { frontmatter: {} })).code;
  const fields: string[] = [];
  await readAll('content', async (md) => {
    fields.push(md);
    return md;
  });
  const lines = [
    ...fields.filter(isPlainLine),
    'FIXTURE: a "quoted" word, it\'s 50% (x = y + z) a/b',
    'Ünïcode wörds; 1.2',
  ];
  assert.ok(lines.length > 20, `content/ has plain fields (${lines.length})`);
  for (const md of lines)
    assert.equal(await renderInline(siteRender(config), md), await renderInline(processor, md), md);
  for (const md of [
    'a *b*',
    'x < y',
    'x & y',
    'see www.example.org',
    'see https://example.org',
    '`code`',
    'a\nb',
    'a_b',
    'x [y]',
    'mail a@b.c',
    '# h',
    'a | b',
    'a \\ b',
    'tab\there',
    'see :cite',
    'x:y',
  ])
    assert.equal(isPlainLine(md), false, md);
});
