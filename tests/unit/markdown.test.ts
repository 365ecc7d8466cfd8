// Build-time Markdown helpers: base-prefixed links, heading anchors, inline answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Root } from 'hast';
import { rehypeBaseLinks } from '../../src/lib/rehype-base-links.ts';
import { normaliseBase, joinBase } from '../../src/lib/base.ts';
import { inline, plain } from '../../src/lib/markdown.ts';

const tree = (href: string): Root => ({
  type: 'root',
  children: [{ type: 'element', tagName: 'p', properties: {}, children: [{ type: 'element', tagName: 'a', properties: { href }, children: [] }] }],
});
const hrefOf = (t: Root) => ((t.children[0] as any).children[0].properties.href as string);

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
  const jsxLink = { type: 'mdxJsxTextElement', name: 'a', attributes: [{ type: 'mdxJsxAttribute', name: 'href', value: '/rows/a/' }], children: [] };
  const t = { type: 'root', children: [{ type: 'mdxJsxFlowElement', name: 'Callout', attributes: [], children: [{ type: 'element', tagName: 'p', properties: {}, children: [link, jsxLink] }] }] };
  rehypeBaseLinks({ base: '/sub/' })(t as unknown as Root);
  assert.equal(link.properties.href, '/sub/drain/');
  assert.equal(jsxLink.attributes[0]!.value, '/sub/rows/a/');
});

test('inline Markdown: code and links; external links get rel=noopener', () => {
  assert.equal(inline('a `b` c'), 'a <code>b</code> c');
  assert.match(inline('[x](https://example.com)'), /<a href="https:\/\/example.com" rel="noopener">x<\/a>/);
  assert.doesNotMatch(inline('[x](/rows/a/)'), /noopener/);
});

test('plain text drops markup but keeps underscores in identifiers', () => {
  assert.equal(plain('set `expire_nodest_conn` to **1** & go'), 'set expire_nodest_conn to 1 & go');
});
