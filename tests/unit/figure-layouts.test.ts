// Graphviz's answers kept in files (src/lib/figures/graphviz.ts): the repository's figure-layouts/
// holds exactly the site's figures' layouts, each what Graphviz answers for it now, so a clean
// checkout lays out nothing; a kept answer is read, not recomputed; a changed figure replaces its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContent } from '../../src/lib/content/load.ts';
import { assembleTable } from '../../src/lib/content/model.ts';
import { assembleFigure } from '../../src/lib/figures/model.ts';
import { layoutFigure } from '../../src/lib/figures/layout.ts';
import { COMMITTED_LAYOUTS, keptGraphviz, layoutFile, runGraphviz, type Graphviz } from '../../src/lib/figures/graphviz.ts';

test('figure-layouts/ holds one file per figure of content/, each what Graphviz answers for it now', async () => {
  const data = await loadContent('content');
  const table = assembleTable(data);
  const expected: string[] = [];
  for (const entry of data.figures) {
    const figure = assembleFigure(entry, data.backends, table.excerpts);
    await layoutFigure(figure, async (dot, id) => {
      const file = layoutFile(id, dot);
      expected.push(file);
      const fresh = await runGraphviz(dot, id);
      let kept: unknown;
      try {
        kept = JSON.parse(readFileSync(join(COMMITTED_LAYOUTS, file), 'utf8'));
      } catch {
        assert.fail(`figure-layouts/${file} is missing: build the site (npm run build) and commit figure-layouts/`);
      }
      assert.deepEqual(kept, fresh, `figure-layouts/${file} is Graphviz's answer`);
      return fresh;
    });
  }
  assert.equal(expected.length, data.figures.length);
  assert.deepEqual(readdirSync(COMMITTED_LAYOUTS).sort(), expected.sort(), 'no layout of a figure content/ no longer has');
});

test('keptGraphviz: lays out once, then reads the file; a changed figure replaces only its own file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'figure-layouts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const runs: string[] = [];
  const run: Graphviz = async (dot) => (runs.push(dot), { laidOut: dot });
  const kept = keptGraphviz(join(dir, 'layouts'), run);

  assert.deepEqual(await kept('digraph { a -> b }', 'fixture'), { laidOut: 'digraph { a -> b }' });
  assert.deepEqual(await kept('digraph { a -> b }', 'fixture-other'), { laidOut: 'digraph { a -> b }' });
  assert.equal(runs.length, 2, 'each figure laid out once');
  const first = layoutFile('fixture', 'digraph { a -> b }');
  writeFileSync(join(dir, 'layouts', first), '{"FIXTURE":"read from the file"}\n');
  assert.deepEqual(await kept('digraph { a -> b }', 'fixture'), { FIXTURE: 'read from the file' });
  assert.equal(runs.length, 2, 'a kept layout is not laid out again');

  await kept('digraph { a -> c }', 'fixture');
  assert.equal(runs.length, 3);
  assert.deepEqual(readdirSync(join(dir, 'layouts')).sort(),
    [layoutFile('fixture', 'digraph { a -> c }'), layoutFile('fixture-other', 'digraph { a -> b }')].sort(),
    'the figure\'s old layout is gone; another figure\'s, whose id starts the same, stays');
  assert.notEqual(layoutFile('fixture', 'digraph { a -> b }'), layoutFile('fixture', 'digraph { a -> c }'));
});
