// `npm run lab -- check` (and CI): the lab's fresh captures against the committed evidence. For each
// cell a capture backs, the numbers its evidence states (src/lib/evidence/summary.ts: endpoints per
// Service chain or map, the one-endpoint sync's lines, chains and rules, endpoints before and after)
// are counted in the fresh output and in the committed output, by the site's own counters, and must
// be equal. Durations are never compared. A difference fails with both readings side by side.
//   node tools/lab-check.ts <folder of capture folders> [--content <dir>]
//   node tools/lab-check.ts --drain <lab/out/drain> [--content <dir>]: the drain run's outcomes per mode
//     (src/lib/evidence/drain.ts, drainReadings: connection kept or not, where new connections went,
//     the conntrack entry deleted or not) against the committed drain evidence's
// Exit 0 when every cell matches, 1 when one differs or cannot be read, 2 on a usage error.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, type Problem } from '../src/lib/problems.ts';
import { loadContent } from '../src/lib/content/load.ts';
import { countOutput, differences, readings } from '../src/lib/evidence/index.ts';
import { readCapture } from './lib/evidence-kit.ts';
import { compareDrain, drainFolders, readDrainCapture } from './lib/drain-kit.ts';

const argv = process.argv.slice(2);
const drain = argv[0] === '--drain';
const [root, ...rest] = drain ? argv.slice(1) : argv;
if (!root || root.startsWith('-')) {
  console.error('usage: node tools/lab-check.ts [--drain] <folder of capture folders> [--content <dir>]');
  process.exit(2);
}
const at = rest.indexOf('--content');
const content = resolve(at >= 0 ? rest[at + 1]! : (process.env.CONTENT_DIR ?? 'content'));

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
