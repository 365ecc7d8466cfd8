// How a cell's or a figure step's citations are grouped for reading (src/lib/view/model.ts, bySource):
// each source once, where its first citation came, its citations in their own order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bySource } from '../../src/lib/view/model.ts';

const cite = (label: string, n: number) => ({ source: { label }, n });

test('bySource: sources in the order of their first citation, each citation kept in its order within its source', () => {
  const groups = bySource([
    cite('FIXTURE-a.go', 1),
    cite('FIXTURE-KEP', 2),
    cite('FIXTURE-a.go', 3),
    cite('FIXTURE-b.go', 4),
  ]);
  assert.deepEqual(
    groups.map((g) => [g.label, g.cites.map((c) => c.n)]),
    [
      ['FIXTURE-a.go', [1, 3]],
      ['FIXTURE-KEP', [2]],
      ['FIXTURE-b.go', [4]],
    ],
  );
  assert.deepEqual(bySource([]), []);
});

test("bySource: an excerpt of another file than its source's own is a group of its own, named by the file", () => {
  const groups = bySource([
    { source: { label: 'FIXTURE-KEP' }, excerpt: { path: 'kep.yaml' }, n: 1 },
    { source: { label: 'FIXTURE-KEP' }, excerpt: {}, n: 2 },
    { source: { label: 'FIXTURE-KEP' }, excerpt: { path: 'kep.yaml' }, n: 3 },
  ]);
  assert.deepEqual(
    groups.map((g) => [g.label, g.cites.map((c) => c.n)]),
    [
      ['FIXTURE-KEP kep.yaml', [1, 3]],
      ['FIXTURE-KEP', [2]],
    ],
  );
});
