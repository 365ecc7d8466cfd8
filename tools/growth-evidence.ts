// A growth sweep's raw output (lab/growth.sh) made evidence: content/growth/growth-<date>.yaml, what
// the output gives (src/lib/evidence/growth.ts, read by code, never typed), and beside it the output
// itself, gzipped, which the build reads again and checks every number of the file against.
//   node tools/growth-evidence.ts add <raw output> [--content <dir>]
// Writes nothing unless the output reads as a whole sweep (at least 5 one-endpoint changes and a full
// sync per size, 20 connections per address and mode) and no sweep of that id is there yet.
// Exit 0 when added, 1 when refused, 2 on a usage error.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { stringify } from 'yaml';
import { growthFields, readGrowth, sha256, summarize } from '../src/lib/evidence/index.ts';

const USAGE = 'usage: node tools/growth-evidence.ts add <raw output of lab/growth.sh> [--content <dir>]';
const argv = process.argv.slice(2);
if (argv[0] !== 'add' || !argv[1] || argv[1].startsWith('-')) {
  console.error(USAGE);
  process.exit(2);
}
const at = argv.indexOf('--content');
const content = resolve(at >= 0 ? argv[at + 1]! : (process.env.CONTENT_DIR ?? 'content'));
const raw = resolve(process.env.INIT_CWD ?? process.cwd(), argv[1]);
const output = readFileSync(raw, 'utf8');
const read = readGrowth(output);
if (!read.count) {
  console.error(`growth-evidence: refused, nothing written: ${raw} line ${read.line ?? 1}: ${read.problem}`);
  process.exit(1);
}
const fields = growthFields(read.count);
const id = `growth-${fields.captured}`;
const dir = join(content, 'growth');
const file = join(dir, `${id}.yaml`);
if (existsSync(file)) {
  console.error(`growth-evidence: refused, nothing written: ${file} exists (remove it first to replace that sweep)`);
  process.exit(1);
}
const gz = `${id}.output.gz`;
const doc = {
  ...fields,
  output: gz,
  sha256: sha256(output),
  summary: summarize(read.count),
};
const HEADER = `# Growth sweep ${id}: lab/growth.sh's raw output is ${gz} beside this file; every field and number
# here was written from it by tools/growth-evidence.ts, and the build reads the output again and refuses
# this file when one does not follow from it. Do not edit either by hand: run the sweep again.
`;
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, gz), gzipSync(Buffer.from(output, 'utf8'), { level: 9 }));
writeFileSync(file, HEADER + stringify(doc, { lineWidth: 0, blockQuote: 'literal' }));
console.log(
  `growth-evidence: added ${file} and ${gz} (${read.count.sizes.map((s) => s.size).join(', ')} Services; ${output.length} characters of output)`,
);
