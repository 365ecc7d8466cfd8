// The build's Content-Security-Policy (src/lib/csp.ts): hashes of inline code, the policy, where
// it goes in a page and in _headers, and Shiki's classes. Pages here are small fixtures.
import pagefind from '../../src/integrations/pagefind.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  cspHash,
  inlineHashes,
  inlineAttributes,
  formatPolicy,
  unionHashes,
  withPolicyMeta,
  withPolicyHeader,
  usedShikiCss,
  HEADER_ONLY_POLICY,
} from '../../src/lib/csp.ts';

const page = (head: string, body = '') =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;

test('cspHash is the base64 sha256 of the UTF-8 text, quoted as a source', () => {
  const text = "document.title='é'";
  assert.equal(cspHash(text), `'sha256-${createHash('sha256').update(Buffer.from(text, 'utf8')).digest('base64')}'`);
});

test('inlineHashes hashes inline scripts (any type) and styles, not scripts with src, without duplicates', () => {
  const html = page(
    '<script>a()</script><script type="module">b()</script><script src="/x.js"></script><style>p{}</style>',
    '<script>a()</script>',
  );
  assert.deepEqual(inlineHashes(html), {
    scripts: [cspHash('a()'), cspHash('b()')].sort(),
    styles: [cspHash('p{}')],
  });
  assert.deepEqual(inlineHashes(page('')), { scripts: [], styles: [] });
});

test('inlineAttributes finds style="" and on*="" attributes, and nothing in text or other attributes', () => {
  assert.deepEqual(inlineAttributes(page('', '<p style="color:red">x</p><button onclick="f()">y</button>')), [
    'style',
    'onclick',
  ]);
  assert.deepEqual(
    inlineAttributes(page('', '<p class="a" data-style="b" data-onload="c">style="d" onclick="e"</p>')),
    [],
  );
});

test('formatPolicy adds the hashes to script-src and style-src, never unsafe-inline', () => {
  const policy = formatPolicy({ scripts: ["'sha256-A'"], styles: ["'sha256-B'"] });
  assert.match(
    policy,
    /^default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'sha256-A'; style-src 'self' 'sha256-B'; /,
  );
  assert.doesNotMatch(policy, /unsafe-inline|frame-ancestors/);
  assert.match(formatPolicy({ scripts: [], styles: [] }, HEADER_ONLY_POLICY), /; frame-ancestors 'none'$/);
});

test('unionHashes merges pages, sorted and unique', () => {
  assert.deepEqual(
    unionHashes([
      { scripts: ['b', 'a'], styles: ['s'] },
      { scripts: ['a'], styles: [] },
    ]),
    { scripts: ['a', 'b'], styles: ['s'] },
  );
});

test('withPolicyMeta puts the policy right after <meta charset>, escaped, once', () => {
  const out = withPolicyMeta(page('<title>t</title>'), `script-src 'self' "x"&`);
  assert.match(
    out,
    /<head><meta charset="utf-8"><meta http-equiv="content-security-policy" content="script-src 'self' &quot;x&quot;&amp;"><title>/,
  );
  assert.throws(() => withPolicyMeta(out, 'x'), /already has a policy/);
  assert.throws(() => withPolicyMeta('<html><head></head></html>', 'x'), /meta charset/);
});

test('withPolicyHeader makes the policy the first header of the /* block, replacing an old one', () => {
  const headers = '# comment\n/*\n  X-Frame-Options: DENY\n  Content-Security-Policy: old\n';
  assert.equal(
    withPolicyHeader(headers, 'new'),
    '# comment\n/*\n  Content-Security-Policy: new\n  X-Frame-Options: DENY\n',
  );
  assert.throws(() => withPolicyHeader('/x\n  A: b\n', 'p'), /no \/\* block/);
});

test('usedShikiCss writes the rules of the classes a page uses, and fails on a class with no rule', () => {
  const registry = new Map<string, string | Record<string, string>>([
    ['c-1', '--shiki-light:#000;--shiki-dark:#fff'],
    ['c-2', { 'overflow-x': 'auto' }],
    ['c-3', 'color:red'],
  ]);
  const html = page(
    '',
    '<pre class="astro-code c-2"><span class="c-1">x</span><span class="c-1">y</span></pre><p>c-3</p>',
  );
  assert.equal(usedShikiCss(html, registry, 'c-'), '.c-1{--shiki-light:#000;--shiki-dark:#fff}.c-2{overflow-x:auto}');
  assert.equal(usedShikiCss(page(''), registry, 'c-'), '');
  assert.throws(() => usedShikiCss(page('', '<i class="c-9"></i>'), registry, 'c-'), /c-9 has no rule/);
});

test('the integration order is explicit: pagefind fails the build when csp does not run before it', () => {
  const hook = pagefind({ after: ['csp'] }).hooks['astro:config:done']!;
  const withOrder = (...names: string[]) =>
    ({ config: { integrations: names.map((name) => ({ name, hooks: {} })) } }) as unknown as Parameters<typeof hook>[0];
  assert.throws(() => hook(withOrder('pagefind', 'csp')), /pagefind must come after the "csp" integration/);
  assert.throws(() => hook(withOrder('pagefind')), /after the "csp"/);
  assert.doesNotThrow(() => hook(withOrder('csp', 'pagefind')));
});
