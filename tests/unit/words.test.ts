// The word count behind the short answer's limit (schemas.ts): words a reader sees, not markup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plainInline, wordCount } from '../../src/lib/claims/words.ts';

test('plain text of inline Markdown: code spans as written, emphasis, link addresses and tags left out', () => {
  assert.equal(
    plainInline('The `KUBE-SVC-*` chain, **not** _the_ [rule](/rows/x/) <br> here'),
    'The KUBE-SVC-* chain, not the rule here',
  );
});

test('claims syntax: a citation is a small link, not words; our reading reads as its text', () => {
  assert.equal(plainInline('IPVS NATs it :cite[kep-265/service-mapping kep-265/dummy-interface].'), 'IPVS NATs it .');
  assert.equal(wordCount('IPVS NATs it :cite[kep-265/service-mapping kep-265/dummy-interface].'), 3);
  assert.equal(wordCount(':reading[probably linear in Services]'), 4);
  assert.equal(plainInline('x :reading[only the `nat` table, `a[0]` later] y.'), 'x only the nat table, a[0] later y.');
});

test('word count: runs with a letter or digit; punctuation alone is not a word', () => {
  assert.equal(wordCount('Yes; only IPVS drains (weight 0 until connections end), TCP only.'), 11);
  assert.equal(wordCount('a - b — c'), 3);
  assert.equal(wordCount('`numgen random mod N` verdict map'), 6);
  assert.equal(wordCount(''), 0);
});

test('what only looks like a directive is words as the page shows it; HTML, breaks and paragraphs part words', () => {
  assert.equal(
    plainInline('at 10:30, foo:bar and :x[kept *as is*]{k=v}'),
    'at 10:30, foo:bar and :x[kept as is]{k="v"}',
  );
  assert.equal(wordCount('foo:bar'), 1);
  assert.equal(plainInline('a<br>b  \nc\n\nd'), 'a b c d');
  assert.equal(plainInline('a\n* b\n# c'), 'a * b # c', 'block syntax is text, as inline fields render it');
  assert.equal(plainInline('snake_case, 2 * 3 and ~~gone~~ &amp; ![alt](i.png)'), 'snake_case, 2 * 3 and gone & alt');
});
