// `npm run evidence -- add <capture> [--content <dir>]`: turns a capture made on a node by
// tools/capture/kube-proxy-evidence.sh into evidence files under <content>/evidence/ and sets
// `measure.evidence` on each matching cell of <content>/comparison/axes.yaml. It checks first
// and writes nothing unless every cell of the capture passes (tools/lib/evidence-kit.ts), then
// loads the whole content as the build does, and undoes its writes if that fails.
// Exit 0 when added, 1 when refused (each problem located: file:line:column, axis, backend, field),
// 2 on a usage error. `add-drain <lab/out/drain>`: the drain run's folders (tools/lib/drain-kit.ts)
// as evidence files, one per mode; no cell's measure is set (the drain row is cited, and cites them).
import { ContentError, describe } from '../src/lib/problems.ts';
import { resolve } from 'node:path';
import { addCapture } from './lib/evidence-kit.ts';
import { addDrain } from './lib/drain-kit.ts';

const USAGE =
  'usage: npm run evidence -- add <capture folder> [--content <dir>]\n' +
  '       npm run evidence -- add-drain <drain run folder, lab/out/drain> [--content <dir>]';

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
if (argv[0] !== 'add' && argv[0] !== 'add-drain')
  usage(argv[0] === undefined ? 'say what to do: add or add-drain' : `unknown command "${argv[0]}"`);
let capture: string | undefined;
let content = process.env.CONTENT_DIR ?? 'content';
for (let i = 1; i < argv.length; i++) {
  const arg = argv[i]!;
  if (arg === '--content') content = argv[++i] ?? usage('--content needs a directory');
  else if (arg.startsWith('--content=')) content = arg.slice('--content='.length);
  else if (arg.startsWith('-')) usage(`unknown option ${arg}`);
  else if (capture === undefined) capture = arg;
  else usage(`one capture folder at a time (got ${capture} and ${arg})`);
}
if (!capture) usage('name the capture folder the capture script wrote');
// A relative path is the user's: from where they ran npm (INIT_CWD), not the checkout's root.
capture = resolve(process.env.INIT_CWD ?? process.cwd(), capture);

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
  console.error(
    `evidence: refused, nothing written (${error.problems.length} problem${error.problems.length === 1 ? '' : 's'}):`,
  );
  for (const p of error.problems) console.error(`  ${describe(p)}`);
  process.exit(1);
}
