// astro.config.mjs keeps the pages left at axes' old ids out of the sitemap: it reads axes.yaml
// with the registry's reader and names the page at each former id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCollection } from '../../src/lib/content/collections.ts';
import { movedAxisPaths } from '../../src/lib/content/moved.ts';

test('the pages at the old ids of the axes read (the FIXTURE rename) are named, and none without a rename', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'moved-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync('tests/fixtures/bad-content/valid', dir, { recursive: true });
  assert.deepEqual(movedAxisPaths((await parseCollection('axes', dir)).entries), [], 'valid/ renames no axis');
  cpSync('tests/fixtures/renamed', dir, { recursive: true });
  assert.deepEqual(movedAxisPaths((await parseCollection('axes', dir)).entries), ['rows/fixture-old-axis/']);
});
