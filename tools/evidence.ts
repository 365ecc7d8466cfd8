// `npm run evidence -- add <capture> [--content <dir>]`: turns a capture made on a node by
// tools/capture/kube-proxy-evidence.sh into evidence files under <content>/evidence/ and sets
// `measure.evidence` on each matching cell of <content>/comparison/axes.yaml. It checks first
// and writes nothing unless every cell of the capture passes (tools/lib/evidence-kit.ts), then
// loads the whole content as the build does, and undoes its writes if that fails.
// Exit 0 when added, 1 when refused (each problem located: file:line:column, axis, backend, field),
// 2 on a usage error. `add-drain <lab/out/drain>`: the drain run's folders (tools/lib/drain-kit.ts)
// as evidence files, one per mode; no cell's measure is set (the drain row is cited, and cites them).
// `check <folder>…`: what a pull request that publishes a measurement is checked with
// (.github/workflows/measurement.yml): each capture folder (a folder of them: each one in it) gets
// every check of `add` in a copy of <content> (tools/lib/capture-check.ts), then the site is built
// from that copy (tools/task.sh build; OUT_DIR keeps it). Exit 0 when both pass, 1 when refused
// (located as `add` locates it) or when the build fails, 2 on a usage error.
import { ContentError, describe } from '../src/lib/problems.ts';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { displayPath } from '../src/lib/content/load.ts';
import { addCapture } from './lib/evidence-kit.ts';
import { addDrain } from './lib/drain-kit.ts';
import { captureFolders, checkCaptures } from './lib/capture-check.ts';

const USAGE =
  'usage: npm run evidence -- add <capture folder> [--content <dir>]\n' +
  '       npm run evidence -- add-drain <drain run folder, lab/out/drain> [--content <dir>]\n' +
  '       npm run evidence -- check <capture folder, or a folder of them: captures>... [--content <dir>]';
const COMMANDS = ['add', 'add-drain', 'check'];

function usage(message?: string): never {
  if (message) console.error(`evidence: ${message}`);
  console.error(USAGE);
  process.exit(2);
}

const argv = process.argv.slice(2);
if (argv[0] === '-h' || argv[0] === '--help') {
  console.log(USAGE);
  process.exit(0);
}
if (!COMMANDS.includes(argv[0] ?? ''))
  usage(argv[0] === undefined ? 'say what to do: add, add-drain or check' : `unknown command "${argv[0]}"`);
const folders: string[] = [];
let content = process.env.CONTENT_DIR ?? 'content';
for (let i = 1; i < argv.length; i++) {
  const arg = argv[i]!;
  if (arg === '--content') content = argv[++i] ?? usage('--content needs a directory');
  else if (arg.startsWith('--content=')) content = arg.slice('--content='.length);
  else if (arg.startsWith('-')) usage(`unknown option ${arg}`);
  else if (folders.length === 0 || argv[0] === 'check') folders.push(arg);
  else usage(`one capture folder at a time (got ${folders[0]} and ${arg})`);
}
if (folders.length === 0) usage('name the capture folder the capture script wrote');
// A relative path is the user's: from where they ran npm (INIT_CWD), not the checkout's root.
const capture = resolve(process.env.INIT_CWD ?? process.cwd(), folders[0]!);

/** Prints a refusal: each problem located (file:line:column, axis, backend, field). */
function report(error: ContentError, what: string): void {
  const n = error.problems.length;
  console.error(`evidence: ${what} (${n} problem${n === 1 ? '' : 's'}):`);
  for (const p of error.problems) console.error(`  ${describe(p)}`);
}

/** `check`: the capture folders checked in a copy of the content, then the site built from it; its exit status. */
async function check(): Promise<number> {
  const captures = folders.flatMap((f) => captureFolders(resolve(process.env.INIT_CWD ?? process.cwd(), f)));
  const scratch = mkdtempSync(join(tmpdir(), 'evidence-check-'));
  const copy = join(scratch, 'content');
  try {
    let checked;
    try {
      checked = await checkCaptures(captures, resolve(content), copy);
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      report(error, 'check: refused');
      return 1;
    }
    if (checked.length === 0) console.log(`evidence: check: no capture folder in ${folders.join(', ')}`);
    for (const c of checked)
      console.log(
        c.state === 'in-content'
          ? `evidence: check: ${displayPath(c.capture)}: accepted; ${content}/ holds what add writes from it (${c.ids.join(', ')})`
          : `evidence: check: ${displayPath(c.capture)}: accepted (${c.ids.join(', ')}), added to a copy of ${content}/ only: \`npm run evidence -- add ${displayPath(c.capture)}\` adds it to the checkout`,
      );
    const out = process.env.OUT_DIR || join(scratch, 'dist');
    console.log(`evidence: check: building the site from that copy (${copy}) into ${out}`);
    const root = join(dirname(fileURLToPath(import.meta.url)), '..');
    const build = spawnSync('bash', [join(root, 'tools/task.sh'), 'build'], {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        CONTENT_DIR: copy,
        OUT_DIR: out,
        CACHE_DIR: process.env.CACHE_DIR || join(scratch, 'cache'),
      },
    });
    if (build.status !== 0) {
      console.error(
        'evidence: check: refused: the site does not build with the capture(s) (the build says why, above)',
      );
      return 1;
    }
    console.log(`evidence: check: passed: ${checked.length} capture folder(s), and the site builds with them`);
    return 0;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
if (argv[0] === 'check') process.exit(await check());

try {
  if (argv[0] === 'add-drain') {
    for (const f of await addDrain(capture, content)) console.log(`evidence: added ${f}`);
    console.log('evidence: next, cite it in the drain cells and page (:cite[evidence/<id>]); npm run build');
    process.exit(0);
  }
  const added = await addCapture(capture, content);
  for (const a of added) {
    console.log(
      `evidence: added ${a.file} (${a.id}); set measure.evidence on axis "${a.axis}", backend "${a.backend}" at ${a.axesAt}`,
    );
  }
  console.log('evidence: next, npm run build: the cell(s) show as Measured, with what was counted in the output');
} catch (error) {
  if (!(error instanceof ContentError)) throw error;
  report(error, 'refused, nothing written');
  process.exit(1);
}
