// `npm run lab -- check` (and CI): the lab's fresh captures against the committed evidence. For each
// cell a capture backs, the numbers its evidence states (src/lib/evidence/summary.ts: endpoints per
// Service chain or map, the one-endpoint sync's lines, chains and rules, endpoints before and after)
// are counted in the fresh output and in the committed output, by the site's own counters, and must
// be equal. Durations are never compared. A difference fails with both readings side by side.
//   node tools/lab-check.ts <folder of capture folders> [--content <dir>]
//   node tools/lab-check.ts --drain <lab/out/drain> [--content <dir>]: the drain run's outcomes per mode
//     (src/lib/evidence/drain.ts, drainReadings: connection kept or not, where new connections went,
//     the conntrack entry deleted or not) against the committed drain evidence's
// With --growth <raw output> instead, a short rerun of lab/growth.sh (its smallest sizes) against the
// committed sweep (content/growth/): per size, mode and direction of the change, the lines, chains
// and rules its sync wrote, and the full sync's, must be equal (src/lib/evidence/growth.ts,
// growthReadings); the rerun's durations must be there (the reader refuses a sync without one), and
// are not compared.
//   node tools/lab-check.ts --growth <raw output> [--content <dir>]
// Exit 0 when every cell matches, 1 when one differs or cannot be read, 2 on a usage error.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, type Problem } from '../src/lib/problems.ts';
import { loadContent } from '../src/lib/content/load.ts';
import { countOutput, differences, growthReadings, readGrowth, readings } from '../src/lib/evidence/index.ts';
import { readCapture } from './lib/evidence-kit.ts';
import { compareDrain, drainFolders, readDrainCapture } from './lib/drain-kit.ts';

const argv = process.argv.slice(2);
const drain = argv[0] === '--drain';
const growth = argv[0] === '--growth' ? argv[1] : undefined;
const [root, ...rest] = growth ? argv.slice(2) : drain ? argv.slice(1) : argv;
if (growth === undefined && (!root || root.startsWith('-'))) {
  console.error(
    'usage: node tools/lab-check.ts [--drain] <folder of capture folders> [--content <dir>] | --growth <raw output> [--content <dir>]',
  );
  process.exit(2);
}
const at = (growth ? argv : rest).indexOf('--content');
const content = resolve(at >= 0 ? (growth ? argv : rest)[at + 1]! : (process.env.CONTENT_DIR ?? 'content'));

if (growth !== undefined) process.exit(await checkGrowthRerun(growth, content));

/** The rerun's counts against the newest committed sweep's, for the sizes the rerun has. */
async function checkGrowthRerun(raw: string, dir: string): Promise<number> {
  const fresh = readGrowth(readFileSync(raw, 'utf8'), { changes: 2, fulls: 1, connections: 20 });
  if (!fresh.count) {
    console.log(`lab-check: growth: the rerun ${raw} cannot be read: line ${fresh.line ?? 1}: ${fresh.problem}`);
    return 1;
  }
  const sweeps = (await loadContent(dir)).growth
    .filter((g) => g.sweep)
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const committed = sweeps[0];
  if (!committed?.sweep) {
    console.log(`lab-check: growth: no committed sweep in ${dir}/growth to compare with`);
    return 1;
  }
  const sizes = fresh.count.sizes.map((s) => s.size);
  const missing = sizes.filter((s) => !committed.sweep!.sizes.some((c) => c.size === s));
  if (missing.length > 0) {
    console.log(`lab-check: growth: ${committed.id} has no size ${missing.join(', ')} to compare with`);
    return 1;
  }
  const diff = differences(growthReadings(committed.sweep, sizes), growthReadings(fresh.count));
  if (diff.length === 0) {
    console.log(
      `lab-check: growth: sizes ${sizes.join(', ')}: ${growthReadings(fresh.count).size} counts equal ${committed.id}'s (durations present, not compared)`,
    );
    return 0;
  }
  console.log(`lab-check: growth: the rerun differs from ${committed.id}:`);
  const width = Math.max(...diff.map(([k]) => k.length), 7);
  console.log(`  ${'reading'.padEnd(width)}  committed  fresh`);
  for (const [k, a, b] of diff) console.log(`  ${k.padEnd(width)}  ${a.padEnd(9)}  ${b}`);
  return 1;
}

const data = await loadContent(content);
if (drain) {
  let bad = false;
  const folders = drainFolders(root);
  if (folders.length === 0) {
    console.log(`lab-check: no drain capture folder under ${root}`);
    process.exit(1);
  }
  for (const folder of folders) {
    const problems: Problem[] = [];
    const fresh = readDrainCapture(folder, problems);
    for (const p of problems) console.log(`lab-check: drain: ${describe(p)}`);
    if (!fresh) {
      bad = true;
      continue;
    }
    const { id, diff, size } = compareDrain(fresh, data.evidence);
    if (!id) {
      bad = true;
      console.log(
        `lab-check: drain, ${fresh.mode}: no committed drain evidence (npm run evidence -- add-drain ${root})`,
      );
    } else if (diff.length === 0) console.log(`lab-check: drain, ${fresh.mode}: ${size} readings equal ${id}`);
    else {
      bad = true;
      console.log(`lab-check: drain, ${fresh.mode}: the fresh run differs from ${id}:`);
      const width = Math.max(...diff.map(([k]) => k.length), 7);
      console.log(`  ${'reading'.padEnd(width)}  committed  fresh`);
      for (const [k, a, b] of diff) console.log(`  ${k.padEnd(width)}  ${a.padEnd(9)}  ${b}`);
    }
  }
  console.log(`lab-check: drain: ${folders.length} mode(s) compared, ${bad ? 'FAILED' : 'all equal'}`);
  process.exit(bad ? 1 : 0);
}
const folders = readdirSync(root, { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join(root, e.name, 'capture.env')))
  .map((e) => join(root, e.name));
let failed = false;
let compared = 0;
const fail = (line: string) => {
  failed = true;
  console.log(line);
};
if (folders.length === 0) fail(`lab-check: no capture folder under ${root}`);
for (const folder of folders) {
  const problems: Problem[] = [];
  const capture = readCapture(folder, problems);
  for (const p of problems) fail(`lab-check: ${describe(p)}`);
  for (const cell of capture?.cells ?? []) {
    const what = `exercise ${cell.exercise}, ${cell.backend} (${cell.axis})`;
    const axis = data.axes.find((a) => a.id === cell.axis);
    const id = axis?.cells[cell.backend]?.measure?.evidence;
    const committed = data.evidence.find((e) => e.id === id);
    if (!committed?.count) {
      fail(`lab-check: ${what}: no committed evidence to compare with (npm run evidence -- add ${folder})`);
      continue;
    }
    const fresh = countOutput(cell.exercise, cell.backend, cell.output);
    if (!fresh.count) {
      fail(`lab-check: ${what}: the fresh capture cannot be counted: ${fresh.problem}`);
      continue;
    }
    const diff = differences(readings(committed.count), readings(fresh.count));
    compared++;
    if (diff.length === 0) {
      console.log(`lab-check: ${what}: ${readings(fresh.count).size} readings equal ${committed.id}`);
      continue;
    }
    fail(`lab-check: ${what}: the fresh capture differs from ${committed.id}:`);
    const width = Math.max(...diff.map(([k]) => k.length), 7);
    console.log(`  ${'reading'.padEnd(width)}  committed  fresh`);
    for (const [k, a, b] of diff) console.log(`  ${k.padEnd(width)}  ${a.padEnd(9)}  ${b}`);
  }
}
console.log(`lab-check: ${compared} cell(s) compared, ${failed ? 'FAILED' : 'all equal'}`);
process.exit(failed ? 1 : 0);
