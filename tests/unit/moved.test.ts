// astro.config.mjs keeps the pages left at rows' old ids out of the sitemap with a plain read of
// axes.yaml (src/lib/content/moved.ts); it must name the same pages as the validated content.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { movedRowPaths } from '../../src/lib/content/moved.ts';
import { loadContent } from '../../src/lib/content/load.ts';
import { routes } from '../../src/lib/routes.ts';

const fromLoader = async (dir: string) =>
  (await loadContent(dir)).axes.flatMap((axis) => (axis.formerly ?? []).map((old) => routes.axisPage(old)));

test('movedRowPaths names the old ids of the validated axes: the FIXTURE rename, and the real content', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'moved-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync('tests/fixtures/bad-content/valid', dir, { recursive: true });
  cpSync('tests/fixtures/renamed', dir, { recursive: true });
  assert.deepEqual(movedRowPaths(dir), ['rows/fixture-old-axis/']);
  assert.deepEqual(movedRowPaths(dir), await fromLoader(dir));
  assert.deepEqual(movedRowPaths('content'), await fromLoader('content'));
});
