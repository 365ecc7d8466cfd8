// The repository's front door: the licence a reader finds matches package.json's, and the README
// stays a page a newcomer reads in two minutes (the rest lives in docs/, linked from it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const read = (f: string) => readFileSync(join(root, f), 'utf8');

test('LICENSE is the licence package.json names', () => {
  const { license } = JSON.parse(read('package.json')) as { license: string };
  assert.equal(license, 'Apache-2.0');
  assert.match(read('LICENSE'), /^Apache License\s+Version 2\.0, January 2004/);
});

test('README is at most 150 lines, and every docs/ page it links exists', () => {
  const readme = read('README.md');
  assert.ok(readme.split('\n').length <= 150, `README.md has ${readme.split('\n').length} lines`);
  for (const [, path] of readme.matchAll(/\]\((docs\/[^)#\s]+)/g))
    assert.ok(existsSync(join(root, path!)), `${path} exists`);
});
