// astro.config.mjs keeps the pages left at rows' old ids out of the sitemap: the content reader
// computes them from the rows it read (src/lib/content/reader.ts), with no second read of axes.yaml.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContentReader } from '../../src/lib/content/reader.ts';

test('the reader names the pages at the old ids of the axes it read (the FIXTURE rename), once it read them', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'moved-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync('tests/fixtures/bad-content/valid', dir, { recursive: true });
  const reader = new ContentReader(dir);
  assert.throws(() => reader.movedAxisPaths(), /no axes read yet/);
  await reader.parsed('axes');
  assert.deepEqual(reader.movedAxisPaths(), [], 'valid/ renames no axis');
  cpSync('tests/fixtures/renamed', dir, { recursive: true });
  await reader.reread('axes', async (md) => md);
  assert.deepEqual(reader.movedAxisPaths(), ['rows/fixture-old-axis/']);
});
