// The growth figures (src/lib/figures/growth-chart.ts), drawn from the FIXTURE sweep of
// tests/unit/growth.test.ts (tests/fixtures/growth/, never rendered on the site).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readGrowth, summarize } from '../../src/lib/evidence/growth.ts';
import { writesPanels, connectPanels } from '../../src/lib/figures/growth-chart.ts';

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURE = readFileSync(join(here, '../fixtures/growth/FIXTURE-growth-sweep.txt'), 'utf8');
const least = { changes: 5, fulls: 1, connections: 20 };

test('the growth figures: panels 320 px wide (whole in a 360 px window), within the figure budget, one marker per point', () => {
  const points = summarize(readGrowth(FIXTURE, least).count!);
  const panels = [...writesPanels(points), ...connectPanels(points)];
  assert.equal(panels.length, 4);
  for (const svg of panels) {
    assert.match(svg, /^<svg class="fig fig-chart"[^>]* width="320"/);
    assert.ok(gzipSync(svg).length < 8 * 1024, 'within 8 KB gzip');
    // One point (size) per series: 4 series, each with one marker and one legend marker.
    assert.equal((svg.match(/class="fig-mark/g) ?? []).length, 4 * (points.length + 1));
  }
  // The lines panel's nftables change series sits at 3 lines, its iptables one at 51-53 (the spread bar).
  assert.match(panels[0]!, /fig-spread/);
});
