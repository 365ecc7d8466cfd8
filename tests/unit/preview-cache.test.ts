// preview-images/ (src/lib/preview-cache.ts): after a build of the project's own content it keeps
// exactly the images the build wrote; builds of any other content folder never touch it. The PNG
// bytes here are FIXTURES (a few bytes each), not images.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pruneUnused } from '../../src/lib/preview-cache.ts';

test('pruneUnused keeps the PNGs whose bytes a build wrote and removes the rest', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'preview-cache-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cache = join(dir, 'preview-images');
  const out = join(dir, 'out/og');
  mkdirSync(cache, { recursive: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(join(cache, 'fixture-kept.png'), 'FIXTURE card a');
  writeFileSync(join(cache, 'fixture-stale.png'), 'FIXTURE card b, since changed');
  writeFileSync(join(cache, 'notes.txt'), 'not an image: left alone');
  writeFileSync(join(out, 'home.png'), 'FIXTURE card a');
  writeFileSync(join(out, 'row.png'), 'FIXTURE card c');
  assert.deepEqual(pruneUnused(cache, [join(out, 'home.png'), join(out, 'row.png')]), ['fixture-stale.png']);
  assert.deepEqual(readdirSync(cache).sort(), ['fixture-kept.png', 'notes.txt']);
  assert.deepEqual(pruneUnused(join(dir, 'missing'), []), []);
});

test("only a run on the project's own content folder counts as own content", () => {
  const own = (env: Record<string, string>) => {
    const { CONTENT_DIR: _, ...rest } = process.env;
    return spawnSync(
      process.execPath,
      ['-e', "import('./src/lib/preview-cache.ts').then((m) => process.stdout.write(String(m.isOwnContent())))"],
      { env: { ...rest, ...env }, encoding: 'utf8' },
    ).stdout;
  };
  assert.equal(own({}), 'true');
  assert.equal(own({ CONTENT_DIR: 'content' }), 'true');
  assert.equal(own({ CONTENT_DIR: join(process.cwd(), 'content') }), 'true');
  assert.equal(own({ CONTENT_DIR: 'tests/fixtures/bad-content/valid' }), 'false');
});
