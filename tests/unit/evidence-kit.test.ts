// The evidence kit, end to end, on FIXTURES only (tests/fixtures/evidence-kit/; never the site's
// content/): the output readers (src/lib/content/evidence/), the build's shape, checksum
// and mode checks on evidence files, every refusal of `npm run evidence -- add`, the capture
// script's own refusals, and the whole path on a real kernel: FIXTURE rules shaped like
// kube-proxy's are written with the real iptables-restore and nft -f into a network namespace of
// the test's own (unshare -n), the capture script dumps them, `evidence add` puts the capture
// into a temporary copy of content/, and that copy loads and builds with the cells Measured.
// Needs root, unshare, iptables and nft for the namespace tests; without them they skip and say
// so, except under CI=true, where they fail (.ci/run installs iptables and nftables).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { astroBuild } from '../support/astro-build.ts';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readIptablesNat, readNftTable, readOutput, iptablesWords, sha256 } from '../../src/lib/content/evidence/index.ts';
import { criRecords, goQuote, klogEntry, type Value } from '../fixtures/evidence-kit/FIXTURE-node/FIXTURE-klog-cri.ts';
import { fixtureNftTransaction, fixtureRestoreInput } from '../fixtures/evidence-kit/FIXTURE-node/FIXTURE-payloads.ts';
import { setMeasureEvidence } from '../../tools/lib/evidence-kit.ts';
import { loadContent, loadTable } from '../../src/lib/content/load.ts';
import { ContentError, type Problem } from '../../src/lib/content/errors.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const kit = join(root, 'tests/fixtures/evidence-kit');
const RULES = readFileSync(join(kit, 'netns/FIXTURE-iptables-nat.rules'), 'utf8');
const NFT = readFileSync(join(kit, 'netns/FIXTURE-kube-proxy.nft'), 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'evidence-kit-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A fresh copy of the site's content folder to add evidence to (the real one is never written). */
function contentCopy(name: string): string {
  const dir = join(scratch, name, 'content');
  cpSync(join(root, 'content'), dir, { recursive: true });
  return dir;
}

/** Every file of a folder with its text, to prove a refusal wrote nothing. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out.set(join(e.parentPath, e.name), readFileSync(join(e.parentPath, e.name), 'utf8'));
  return out;
}

// --- the parser ----------------------------------------------------------------------------

test('iptablesWords: quoted comments stay one word', () => {
  assert.deepEqual(iptablesWords('-A X -m comment --comment "a b -> c" -j Y'), ['-A', 'X', '-m', 'comment', '--comment', 'a b -> c', '-j', 'Y']);
});

test('readIptablesNat: the FIXTURE Service chain, its three endpoints, the statistic cascade and DNAT targets', () => {
  const [svc, ...rest] = readIptablesNat(RULES);
  assert.equal(rest.length, 0);
  assert.equal(svc!.chain, 'KUBE-SVC-FIXTURE3ENDPOINTS');
  assert.equal(svc!.service, 'fixture-ns/fixture-svc:http');
  assert.deepEqual(svc!.endpoints.map((e) => [e.chain, e.dnat]), [
    ['KUBE-SEP-FIXTUREENDPOINT1', '10.244.1.11:8080'],
    ['KUBE-SEP-FIXTUREENDPOINT2', '10.244.1.12:8080'],
    ['KUBE-SEP-FIXTUREENDPOINT3', '10.244.2.13:8080'],
  ]);
  assert.deepEqual(svc!.picks.map((p) => [p.kind, p.probability]), [['random', '0.3333333333'], ['random', '0.5000000000'], ['rest', undefined]]);
  for (const e of svc!.endpoints) assert.ok(Math.abs(e.share! - 1 / 3) < 1e-6, `${e.chain}: ${e.share}`);
  assert.ok(!svc!.picks.some((p) => p.rule.includes('KUBE-MARK-MASQ')), 'the masquerade jump is not an endpoint pick');
});

test('readIptablesNat: a recent-match rule is session affinity, not part of the random cascade; other tables are ignored', () => {
  const dump = [
    '*filter', '-A KUBE-SVC-FIXTUREFILTER -j KUBE-SEP-FIXTUREIGNORED', 'COMMIT',
    '*nat',
    '-A KUBE-SVC-FIXTUREAFFINITY -m comment --comment "fixture-ns/a:p -> 10.0.0.1:80" -m recent --name KUBE-SEP-FIXTUREA --mask 255.255.255.255 --rsource --rcheck --seconds 10800 --reap -j KUBE-SEP-FIXTUREA',
    '-A KUBE-SVC-FIXTUREAFFINITY -m comment --comment "fixture-ns/a:p -> 10.0.0.1:80" -j KUBE-SEP-FIXTUREA',
    'COMMIT',
  ].join('\n');
  const services = readIptablesNat(dump);
  assert.deepEqual(services.map((s) => s.chain), ['KUBE-SVC-FIXTUREAFFINITY']);
  assert.deepEqual(services[0]!.picks.map((p) => p.kind), ['affinity', 'rest']);
  assert.equal(services[0]!.endpoints.length, 1);
  assert.equal(services[0]!.endpoints[0]!.share, 1);
});

test('readNftTable: the FIXTURE numgen verdict map, its three endpoint chains and their DNAT targets', () => {
  const [svc, ...rest] = readNftTable(NFT);
  assert.equal(rest.length, 0);
  assert.equal(svc!.chain, 'service-FIXTURE0-fixture-ns/fixture-svc/tcp/http');
  assert.equal(svc!.modulus, 3);
  assert.deepEqual(svc!.endpoints.map((e) => [e.index, e.verdict, e.dnat]), [[0, 'goto', '10.244.1.11:8080'], [1, 'goto', '10.244.1.12:8080'], [2, 'goto', '10.244.2.13:8080']]);
  assert.match(svc!.rule, /^numgen random mod 3 vmap \{/);
});

// --- exercise 18: kube-proxy's log, as klog prints it and a container runtime stores it ---------
// The logs below are written by FIXTURE-klog-cri.ts (klog's and the CRI's formats, from their
// upstream sources), and each count is checked against the test's own count of the payload.

/** Lines, chains declared and rules of a payload, counted here, independently of the reader. */
function countPayload(backend: 'iptables' | 'nftables', payload: string) {
  const lines = payload.replace(/\n$/, '').split('\n');
  return backend === 'iptables'
    ? { lines: lines.length, chains: lines.filter((l) => l[0] === ':').length, rules: lines.filter((l) => l.startsWith('-A ')).length }
    : { lines: lines.length, chains: lines.filter((l) => /^(add|create) chain /.test(l)).length, rules: lines.filter((l) => /^(add|insert|replace) rule /.test(l)).length };
}
const restoreEntry = (payload: string, pairs: Array<[string, Value]> = [['ipFamily', 'IPv4']]) =>
  klogEntry('Reloading service iptables data', [['ipFamily', 'IPv4'], ['numServices', 3]], 1) +
  klogEntry('Restoring iptables', [...pairs, ['rules', { bytes: Buffer.from(payload) }]], 2);
const sync18 = (backend: string, output: string) => {
  const { reading, problem, line } = readOutput(18, backend, output);
  assert.equal(problem, undefined, `${problem} (line ${line})`);
  assert.equal(reading?.exercise, 18);
  return reading!.exercise === 18 ? reading!.syncs : [];
};

test('exercise 18, iptables: the payload is read by its key, "rules", after the logger\'s ipFamily (fault 1)', () => {
  const payload = fixtureRestoreInput(3);
  const [sync, ...rest] = sync18('iptables', criRecords(restoreEntry(payload), false));
  assert.equal(rest.length, 0);
  assert.deepEqual(sync!.lines, payload.replace(/\n$/, '').split('\n'), 'the payload, decoded line for line');
  assert.deepEqual({ lines: sync!.lines.length, chains: sync!.chains, rules: sync!.rules }, countPayload('iptables', payload));
  assert.equal(sync!.ipFamily, 'IPv4');
});

test('exercise 18, iptables: the form of the pinned commit (klog.V(9).InfoS, no ipFamily) and the older multi-line string form', () => {
  const payload = fixtureRestoreInput(2);
  const pinned = klogEntry('Restoring iptables', [['rules', { bytes: Buffer.from(payload) }]], 1);
  const older = klogEntry('Restoring iptables', [['rules', payload]], 1);
  assert.match(older, /rules=<\n\t\*filter\n/);
  for (const log of [pinned, older]) {
    const [sync] = sync18('iptables', log);
    assert.deepEqual({ lines: sync!.lines.length, chains: sync!.chains, rules: sync!.rules }, countPayload('iptables', payload));
  }
});

test('exercise 18: Go\'s quoting is decoded exactly (\\n \\t \\" \\\\ \\u \\U \\x, and octal)', () => {
  const payload = '*nat\n-A KUBE-SVC-FIXTURE -m comment --comment "a\\\\b\tc é 😀 \x01" -j KUBE-SEP-FIXTURE\nCOMMIT\n';
  const quoted = goQuote(Buffer.from(payload), true);
  assert.match(quoted, /\\"a\\\\\\\\b\\tc \\u00e9 \\U0001f600 \\x01\\"/, 'the FIXTURE writer quotes as %+q does');
  const [sync] = sync18('iptables', klogEntry('Restoring iptables', [['rules', { bytes: Buffer.from(payload) }]], 1));
  assert.deepEqual(sync!.lines, payload.replace(/\n$/, '').split('\n'));
  // Go's strconv.Unquote also reads octal (\101) and \x bytes that form UTF-8 together.
  const octal = 'I0101 00:00:00.000000       1 FIXTURE.go:1] "Restoring iptables" rules="*nat\\n\\101 \\xc3\\xa9\\n-A KUBE-SVC-FIXTURE -j KUBE-SEP-FIXTURE\\n"';
  assert.deepEqual(sync18('iptables', octal)[0]!.lines, ['*nat', 'A é', '-A KUBE-SVC-FIXTURE -j KUBE-SEP-FIXTURE']);
});

test('exercise 18, nftables: the multi-line "transaction" value, every sync in order', () => {
  const payload = fixtureNftTransaction(3);
  const log = criRecords(klogEntry('Running nftables transaction', [['transaction', payload]], 1) + klogEntry('FIXTURE other', [], 2) +
    klogEntry('Running nftables transaction', [['transaction', payload]], 3), false);
  const syncs = sync18('nftables', log);
  assert.equal(syncs.length, 2);
  for (const s of syncs) assert.deepEqual({ lines: s.lines.length, chains: s.chains, rules: s.rules }, countPayload('nftables', payload));
  assert.ok(syncs[0]!.line < syncs[1]!.line, 'each sync says where it starts in the output');
  assert.match(readOutput(18, 'iptables', log).problem!, /Restoring iptables/, 'another backend\'s marker is not read');
});

test('exercise 18: a line longer than a CRI record, split into P records, is joined (fault 2)', () => {
  for (const [backend, payload, entry] of [
    ['iptables', fixtureRestoreInput(120), (p: string) => restoreEntry(p)],
    ['nftables', fixtureNftTransaction(300), (p: string) => klogEntry('Running nftables transaction', [['transaction', p]], 1)],
  ] as const) {
    const log = criRecords(entry(payload), false);
    assert.ok(/ stderr P /.test(log), `${backend}: the FIXTURE log holds P records`);
    const [sync] = sync18(backend, log);
    assert.deepEqual({ lines: sync!.lines.length, chains: sync!.chains, rules: sync!.rules }, countPayload(backend, payload), backend);
  }
});

test('exercise 18: refused, located, when it counts nothing or cannot read it whole', () => {
  const refused = (backend: string, output: string, want: RegExp, line?: number) => {
    const { reading, problem, line: at } = readOutput(18, backend, output);
    assert.equal(reading, undefined, `accepted: ${JSON.stringify(reading)?.slice(0, 200)}`);
    assert.match(problem ?? '', want);
    if (line !== undefined) assert.equal(at, line, problem);
  };
  // A partial line whose last record never came: the log was copied mid-line.
  const cut = criRecords(restoreEntry(fixtureRestoreInput(120)), true);
  refused('iptables', cut, /partial CRI record .* never ended by an F record/, 2);
  // An entry with no payload under the key the exercise reads.
  refused('iptables', klogEntry('Restoring iptables', [['ipFamily', 'IPv4']], 1), /"Restoring iptables" .*no rules= value/, 1);
  // A payload with no rules (and an empty one).
  refused('iptables', '# FIXTURE\n' + klogEntry('Restoring iptables', [['rules', { bytes: Buffer.from('*nat\nCOMMIT\n') }]], 1), /counts no rules/, 2);
  refused('iptables', klogEntry('Restoring iptables', [['rules', { bytes: Buffer.from('') }]], 1), /empty|counts no rules/, 1);
  refused('nftables', klogEntry('Running nftables transaction', [['transaction', 'add table ip kube-proxy\n']], 1), /counts no rules/, 1);
  // Quoting that Go would not have written.
  refused('iptables', 'I0101 00:00:00.000000       1 FIXTURE.go:1] "Restoring iptables" rules="*nat\\q"', /rules=.*\\q/, 1);
  refused('iptables', 'I0101 00:00:00.000000       1 FIXTURE.go:1] "Restoring iptables" rules="*nat', /rules=.*not closed/, 1);
  // A multi-line value that never ends.
  refused('nftables', 'I0101 00:00:00.000000       1 FIXTURE.go:1] "Running nftables transaction" transaction=<\n\tadd rule ip kube-proxy x y\n', /transaction=<.*not closed/, 1);
});

test('readOutput: each exercise\'s shape, and an iptables dump is not exercise 17 nor an nft listing exercise 16', () => {
  assert.equal(readOutput(16, 'iptables', RULES).reading?.exercise, 16);
  assert.equal(readOutput(17, 'nftables', NFT).reading?.exercise, 17);
  assert.match(readOutput(17, 'nftables', RULES).problem!, /numgen random mod N/);
  assert.match(readOutput(16, 'iptables', NFT).problem!, /KUBE-SVC-/);
  assert.match(readOutput(18, 'nftables', RULES).problem!, /Running nftables transaction/);
  assert.deepEqual(readOutput(1, 'iptables', 'anything'), {}, 'no reader: no claim either way');
});

// --- axes.yaml edited in place ---------------------------------------------------------------

test('setMeasureEvidence: adds one line under the cell\'s measure and changes nothing else', () => {
  const text = readFileSync(join(root, 'content/comparison/axes.yaml'), 'utf8');
  const next = setMeasureEvidence(text, 2, 'nftables', 'fixture-evidence-id');
  const added = next.split('\n').filter((l, i, all) => !text.split('\n').includes(l) || all.indexOf(l) !== i);
  assert.deepEqual(added.filter((l) => l.includes('fixture-evidence-id')), ['        evidence: fixture-evidence-id']);
  assert.equal(next.replace('        evidence: fixture-evidence-id\n', ''), text, 'every other byte, comments and folded lines included, is as it was');
});

// --- build-time checks on an evidence file ---------------------------------------------------

/** content/ copy + the valid FIXTURE capture added, then `mutate` applied to the evidence file. */
async function evidenceProblems(name: string, mutate: (text: string) => string): Promise<{ problems: Problem[]; file: string }> {
  const content = contentCopy(name);
  const add = runAdd(join(kit, 'captures/valid'), content);
  assert.equal(add.status, 0, add.output);
  const file = join(content, 'evidence/ex16-iptables-2000-01-01.yaml');
  writeFileSync(file, mutate(readFileSync(file, 'utf8')));
  try {
    await loadContent(content);
  } catch (error) {
    assert.ok(error instanceof ContentError, String(error));
    return { problems: error.problems, file };
  }
  assert.fail(`case ${name} was accepted`);
}

test('build check: output edited after capture fails, naming the file, line, row, column and output', async () => {
  const { problems } = await evidenceProblems('check-edited', (t) => t.replace('--probability 0.50000000000', '--probability 0.90000000000').replace('--probability 0.5000000000', '--probability 0.9000000000'));
  const p = problems.find((x) => /edited after capture/.test(x.problem));
  assert.ok(p, JSON.stringify(problems));
  assert.match(p.file, /evidence\/ex16-iptables-2000-01-01\.yaml$/);
  assert.equal(p.row, 'endpoint-selection');
  assert.equal(p.column, 'iptables');
  assert.equal(p.field, 'output');
  assert.ok(p.line! > 1);
});

test('build check: exercise 16 evidence whose output has no KUBE-SVC chain fails, naming the file and output', async () => {
  const { problems } = await evidenceProblems('check-shape', (t) => {
    const output = 'FIXTURE: not a nat dump\n';
    return t.replace(/^output: [\s\S]*?(?=^mode:)/m, `output: |\n  FIXTURE: not a nat dump\n`).replace(/^sha256: .*$/m, `sha256: ${sha256(output)}`);
  });
  assert.equal(problems.length, 1, JSON.stringify(problems));
  assert.match(problems[0]!.problem, /does not show what exercise 16 looks at: expected a KUBE-SVC-/);
  assert.equal(problems[0]!.field, 'output');
});

test('build check: a recorded mode that is not the column fails, naming mode', async () => {
  const { problems } = await evidenceProblems('check-mode', (t) => t.replace(/^mode: iptables$/m, 'mode: nftables'));
  assert.equal(problems.length, 1, JSON.stringify(problems));
  assert.equal(problems[0]!.field, 'mode');
  assert.match(problems[0]!.problem, /mode "nftables", but this is evidence for the "iptables" column/);
});

// --- npm run evidence -- add: accepted, and each refusal --------------------------------------

function runAdd(capture: string, content: string) {
  const run = spawnSync(process.execPath, [join(root, 'tools/evidence.ts'), 'add', capture, '--content', content], { cwd: root, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

test('evidence add: the valid FIXTURE capture becomes an evidence file and the cell turns Measured', async () => {
  const content = contentCopy('add-valid');
  const { status, output } = runAdd(join(kit, 'captures/valid'), content);
  assert.equal(status, 0, output);
  assert.match(output, /added .*evidence\/ex16-iptables-2000-01-01\.yaml .*row "endpoint-selection", column "iptables" at .*comparison\/axes\.yaml:\d+:\d+/);
  const table = await loadTable(content);
  const cell = table.rows.find((r) => r.id === 'endpoint-selection')!.cells.find((c) => c.backend.id === 'iptables')!;
  assert.equal(cell.provenance, 'measured');
  assert.equal(cell.provenance === 'measured' && cell.evidence.sha256, sha256(readFileSync(join(kit, 'captures/valid/ex16-iptables/output'), 'utf8')));
  assert.equal(cell.provenance === 'measured' && cell.evidence.output, readFileSync(join(kit, 'captures/valid/ex16-iptables/output'), 'utf8'), 'the output byte for byte');
  const again = runAdd(join(kit, 'captures/valid'), content);
  assert.equal(again.status, 1, 'adding the same capture twice is refused');
  assert.match(again.output, /already has evidence/);
});

const REFUSALS: Array<{ name: string; want: RegExp; what: string }> = [
  {
    name: 'mode-not-column', what: 'a capture whose mode is not its column',
    want: /content\/comparison\/axes\.yaml:\d+:\d+: row "endpoint-selection", column "iptables", field "measure": the capture was taken with kube-proxy in mode "nftables" \(.*capture\.env:6\), but this is the "iptables" column/,
  },
  {
    name: 'column-not-run', what: 'a column that was not run',
    want: /content\/comparison\/axes\.yaml:\d+:\d+: row "endpoint-selection", column "ipvs", field "measure": column "ipvs" was not run in this phase/,
  },
  {
    name: 'exercise-not-this-cell', what: 'an exercise that does not measure the cell',
    want: /content\/comparison\/axes\.yaml:\d+:\d+: row "endpoint-change", column "iptables", field "measure\.exercise": exercise 16 does not measure this cell; exercise 18 does/,
  },
  {
    name: 'output-edited', what: 'output edited after capture',
    want: /captures\/output-edited\/SHA256SUMS:4:66: field "ex16-iptables\/output": ex16-iptables\/output was edited after capture: its sha256 is [0-9a-f]{64}, the capture recorded d6dbf082/,
  },
  {
    name: 'wrong-shape', what: 'an iptables dump as exercise 17',
    want: /wrong-shape\/ex17-nftables\/output:1:1: row "endpoint-selection", column "nftables", field "output": output does not show what exercise 17 looks at/,
  },
];

for (const r of REFUSALS) {
  test(`evidence add refuses ${r.what} (FIXTURE ${r.name}/): exit 1, located message, nothing written`, () => {
    const content = contentCopy(`refuse-${r.name}`);
    const before = snapshot(content);
    const { status, output } = runAdd(join(kit, 'captures', r.name), content);
    assert.equal(status, 1, output);
    assert.match(output, /evidence: refused, nothing written/);
    assert.match(output, r.want, output);
    assert.deepEqual(snapshot(content), before, 'the content copy is unchanged');
  });
}

/** A capture folder as the script writes it (SHA256SUMS included), for exercise 18's refusals. */
function writeCapture(dir: string, mode: string, cells: Array<{ exercise: number; axis: string; output: string }>): string {
  mkdirSync(dir, { recursive: true });
  const files = new Map<string, string>([['capture.env',
    `format=1\ncaptured_at=2000-01-01T00:00:00Z\nkernel=FIXTURE\nkube_proxy_version=v0.0.0-FIXTURE\nversion_from=FIXTURE\nmode=${mode}\nmode_from=FIXTURE\n`]]);
  for (const c of cells) {
    files.set(`ex${c.exercise}-${mode}/cell`, `exercise=${c.exercise}\naxis=${c.axis}\nbackend=${mode}\n`);
    files.set(`ex${c.exercise}-${mode}/command`, '# FIXTURE\n');
    files.set(`ex${c.exercise}-${mode}/output`, c.output);
  }
  for (const [name, text] of files) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  writeFileSync(join(dir, 'SHA256SUMS'), [...files].map(([name, text]) => `${sha256(text)}  ./${name}\n`).join(''));
  return dir;
}

test('evidence add refuses exercise-18 output that counts nothing or holds a partial line: exit 1, located at the output line, nothing written', () => {
  const cases = [
    { name: 'no-rules', output: `# FIXTURE\n${klogEntry('Restoring iptables', [['ipFamily', 'IPv4'], ['rules', { bytes: Buffer.from('*nat\nCOMMIT\n') }]], 1)}`, want: /ex18-iptables\/output:2:1: row "endpoint-change", column "iptables", field "output": .*counts no rules/ },
    { name: 'wrong-key', output: `${klogEntry('Restoring iptables', [['ipFamily', 'IPv4']], 1)}`, want: /ex18-iptables\/output:1:1: .*no rules= value/ },
    { name: 'cut', output: criRecords(restoreEntry(fixtureRestoreInput(120)), true), want: /ex18-iptables\/output:2:1: .*partial CRI record/ },
  ];
  for (const c of cases) {
    const capture = writeCapture(join(scratch, `ex18-${c.name}`), 'iptables', [{ exercise: 18, axis: 'endpoint-change', output: c.output }]);
    const content = contentCopy(`refuse-ex18-${c.name}`);
    const before = snapshot(content);
    const { status, output } = runAdd(capture, content);
    assert.equal(status, 1, `${c.name}: ${output}`);
    assert.match(output, c.want, output);
    assert.deepEqual(snapshot(content), before, `${c.name}: the content copy is unchanged`);
  }
});

test('evidence add: usage errors exit 2', () => {
  for (const args of [[], ['remove', 'x'], ['add']]) {
    const run = spawnSync(process.execPath, [join(root, 'tools/evidence.ts'), ...args], { cwd: root, encoding: 'utf8' });
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, /usage: npm run evidence -- add/);
  }
});

// --- the capture script, on an imitation of a node ------------------------------------------
// Each run gets network and PID namespaces of its own (unshare -n -p -f --mount-proc): FIXTURE
// rules written there with the real iptables-restore and nft -f; a FIXTURE kube-proxy process
// (tests/fixtures/evidence-kit/FIXTURE-node/) that the script finds in /proc by its name, with
// --v and --config on its command line, serving kube-proxy's metrics port 127.0.0.1:10249 and
// logging each sync in kube-proxy's klog format inside CRI log records; and a FIXTURE kubectl shim
// whose `scale` makes that process log a sync. curl, iptables-save and nft are the real ones.

const SCRIPT = join(root, 'tools/capture/kube-proxy-evidence.sh');
const SHIMS = join(kit, 'shims');
const FIXTURE_NODE = join(kit, 'FIXTURE-node');
const have = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const isRoot = process.getuid?.() === 0;
const netns = isRoot && ['unshare', 'iptables-restore', 'iptables-save', 'nft', 'ip', 'curl'].every(have)
  && spawnSync('unshare', ['-n', '-p', '-f', '--mount-proc', 'sh', '-c', 'ip link set lo up && nft list tables']).status === 0;
const why = !isRoot ? 'not root' : !netns ? 'no unshare, iptables, nft, ip or curl, or no netfilter or namespaces in this kernel' : '';
/** Skips with the reason, except in CI, where the kit must be proven on a real kernel. */
const needs = (ok: boolean) => (ok ? {} : process.env.CI === 'true' ? {} : { skip: `${why} (apt-get install iptables nftables iproute2 curl; run as root)` });

interface FixtureNode {
  /** kube-proxy's mode, as its FIXTURE --config file states it. */
  mode: string;
  /** Shell run in the namespace first (writes the FIXTURE rules). */
  rules?: string;
  /** kube-proxy's command line after its name; `--config=<file>` is added. false: no kube-proxy process. */
  kubeProxy?: string[] | false;
  env?: Record<string, string>;
}

/** Runs the capture script with `args` on a fresh FIXTURE node; `home` holds the node's files. */
function onNode(home: string, node: FixtureNode, args: string[]) {
  mkdirSync(home, { recursive: true });
  const config = join(home, 'FIXTURE-kube-proxy-config.yaml');
  writeFileSync(config, `# FIXTURE kube-proxy configuration (tests/unit/evidence-kit.test.ts)\napiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: "${node.mode}"\n`);
  const pidfile = join(home, 'FIXTURE-kube-proxy.pid');
  const kubeProxy = node.kubeProxy === false ? ':' :
    `"${join(FIXTURE_NODE, 'kube-proxy')}" ${[...(node.kubeProxy ?? ['--v=9']), `--config=${config}`].map((a) => `'${a}'`).join(' ')} &
     i=0; until [ -s '${pidfile}' ]; do i=$((i + 1)); [ $i -le 200 ] || { echo 'FIXTURE kube-proxy did not start' >&2; exit 97; }; sleep 0.05; done`;
  const setup = `set -e; ip link set lo up; ${node.rules ?? 'true'}; ${kubeProxy}; exec sh "$0" "$@"`;
  const run = spawnSync('unshare', ['-n', '-p', '-f', '--mount-proc', 'sh', '-c', setup, SCRIPT, ...args], {
    encoding: 'utf8', timeout: 120_000,
    env: {
      ...process.env, PATH: `${SHIMS}:${process.env.PATH}`, FIXTURE_NODE: process.execPath, FIXTURE_PIDFILE: pidfile,
      FIXTURE_VERSION: 'v0.0.0-FIXTURE', FIXTURE_REPLICAS: '3', FIXTURE_LOG: join(home, 'FIXTURE-kube-proxy.log'),
      // The FIXTURE kube-proxy writes a sync's whole log in one write: nothing more to wait for.
      KUBE_PROXY_LOG_SETTLE: '0', ...node.env,
    },
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const IPTABLES_RULES = `iptables-restore < '${join(kit, 'netns/FIXTURE-iptables-nat.rules')}'`;
const NFT_RULES = `nft -f '${join(kit, 'netns/FIXTURE-kube-proxy.nft')}'`;

/** A PATH with every command of this one but `cmd` (linked into a folder of the test's own). */
function pathWithout(cmd: string): string {
  const dir = join(scratch, `path-without-${cmd}`);
  mkdirSync(dir, { recursive: true });
  for (const d of (process.env.PATH ?? '').split(':')) {
    if (!d || !existsSync(d)) continue;
    for (const n of readdirSync(d)) if (n !== cmd && !existsSync(join(dir, n))) symlinkSync(join(d, n), join(dir, n));
  }
  return dir;
}

/** A refusal: exit 1, the message, and nothing left where the capture would have gone. */
function refusedOnNode(name: string, node: FixtureNode, args: string[], want: RegExp) {
  const parent = join(scratch, `refuse-node-${name}`);
  mkdirSync(parent, { recursive: true });
  if (node.env?.FIXTURE_LOG === undefined) writeFileSync(join(parent, 'FIXTURE-kube-proxy.log'), '');
  const out = join(parent, 'capture');
  if (args.includes('--deployment') && !args.includes('--log')) args = [...args, '--log', join(parent, 'FIXTURE-kube-proxy.log')];
  const run = onNode(join(scratch, `node-${name}`), { ...node, env: { FIXTURE_LOG: join(parent, 'FIXTURE-kube-proxy.log'), ...node.env } }, ['--out', out, ...args]);
  assert.equal(run.status, 1, `${name}: ${run.output}`);
  assert.match(run.output, want, name);
  assert.deepEqual(readdirSync(parent).filter((f) => f !== 'FIXTURE-kube-proxy.log'), [], `${name}: no capture folder, finished or not, is left behind`);
}

test('capture script: refuses a node in ipvs mode, an exercise that is not this node\'s mode, and an empty nat table, keeping nothing', needs(netns), () => {
  assert.ok(netns, why);
  refusedOnNode('ipvs', { mode: 'ipvs' }, [], /mode ipvs here: IPVS is read, not run/);
  refusedOnNode('wrong-exercise', { mode: 'iptables' }, ['--exercise', '17'], /exercise 17 dumps the nftables backend, but kube-proxy runs in mode iptables/);
  refusedOnNode('empty-nat', { mode: 'iptables' }, ['--exercise', '16'], /no KUBE-SVC-\* chain jumping to a KUBE-SEP-\* chain/);
});

test('capture script: every exercise-18 precondition is checked before the first command; a refusal leaves no folder (fault 3)', needs(netns), () => {
  assert.ok(netns, why);
  const deploy = ['--deployment', 'fixture-ns/fixture-deploy'];
  // Each would have failed after exercise 16 had run and written its half of a capture.
  refusedOnNode('v2', { mode: 'iptables', rules: IPTABLES_RULES, kubeProxy: ['--v=2'] }, deploy, /kube-proxy \(pid \d+\) runs at -v=2; it logs what it writes to the kernel only at -v=9/);
  refusedOnNode('no-deployment', { mode: 'iptables', rules: IPTABLES_RULES, env: { FIXTURE_NO_DEPLOYMENT: '1' } }, deploy, /kubectl cannot read deployment fixture-ns\/fixture-deploy/);
  refusedOnNode('no-log', { mode: 'iptables', rules: IPTABLES_RULES }, [...deploy, '--log', join(scratch, 'FIXTURE-no-such.log')], /cannot read kube-proxy's log .*FIXTURE-no-such\.log/);
  refusedOnNode('no-kubectl', { mode: 'iptables', rules: IPTABLES_RULES, env: { PATH: pathWithout('kubectl') } }, deploy, /exercise 18 needs kubectl on this node/);
  refusedOnNode('bad-deployment', { mode: 'iptables', rules: IPTABLES_RULES }, ['--deployment', 'fixture-deploy'], /--deployment must be NAMESPACE\/NAME/);
});

test('capture script: a sync line the runtime cut into P records is joined; one whose F record never came is refused, keeping nothing (fault 2)', needs(netns), () => {
  assert.ok(netns, why);
  const payload = join(scratch, 'FIXTURE-cut-restore-input.txt');
  writeFileSync(payload, fixtureRestoreInput(120));
  refusedOnNode('cut', { mode: 'iptables', rules: IPTABLES_RULES, env: { FIXTURE_PAYLOAD: payload, FIXTURE_CUT_PARTIAL: '1' } },
    ['--exercise', '18', '--deployment', 'fixture-ns/fixture-deploy'], /ends inside a partial line/);
});

test('capture script: mode from the --config file when the metrics port has no /proxyMode; version from kubernetes_build_info', needs(netns), () => {
  assert.ok(netns, why);
  const out = join(scratch, 'cap-config-mode');
  const run = onNode(join(scratch, 'node-config-mode'), { mode: 'iptables', rules: IPTABLES_RULES, env: { FIXTURE_NO_PROXYMODE: '1' } }, ['--out', out, '--exercise', '16']);
  assert.equal(run.status, 0, run.output);
  const env = readFileSync(join(out, 'capture.env'), 'utf8');
  assert.match(env, /^mode=iptables$/m);
  assert.match(env, /^mode_from=mode in kube-proxy's --config file .*FIXTURE-kube-proxy-config\.yaml \(pid \d+\)$/m);
  assert.match(env, /^kube_proxy_version=v0\.0\.0-FIXTURE$/m);
  assert.match(env, /^version_from=git_version of kubernetes_build_info in http:\/\/127\.0\.0\.1:10249\/metrics$/m);
});

test('on a real kernel: a FIXTURE node -> capture script -> evidence add -> the content loads and builds with four Measured cells, exercise 18 counted as the payload holds', needs(netns), async () => {
  assert.ok(netns, why);
  const content = contentCopy('netns');
  const realEvidence = readdirSync(join(root, 'content/evidence'));
  const payloads = { iptables: fixtureRestoreInput(120), nftables: fixtureNftTransaction(300) };
  for (const [mode, rules] of [['iptables', IPTABLES_RULES], ['nftables', NFT_RULES]] as const) {
    const home = join(scratch, `node-${mode}`);
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, `FIXTURE-${mode}-payload.txt`), payloads[mode]);
    writeFileSync(join(home, 'FIXTURE-kube-proxy.log'), '');
    const out = join(scratch, `cap-${mode}`);
    const run = onNode(home, { mode, rules, env: { FIXTURE_PAYLOAD: join(home, `FIXTURE-${mode}-payload.txt`) } },
      ['--out', out, '--deployment', 'fixture-ns/fixture-deploy', '--log', join(home, 'FIXTURE-kube-proxy.log')]);
    assert.equal(run.status, 0, run.output);
    assert.match(run.output, new RegExp(`captured 2 cell\\(s\\) .*mode ${mode}, kernel `));
    assert.match(run.output, /scaling deployment fixture-ns\/fixture-deploy back to 3 replicas/);
    assert.match(readFileSync(join(home, 'FIXTURE-kube-proxy.log'), 'utf8'), / stderr P /, 'the log held a line cut into P records');
    const env = readFileSync(join(out, 'capture.env'), 'utf8');
    assert.match(env, /^captured_at=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
    assert.match(env, new RegExp(`^kernel=${spawnSync('uname', ['-r'], { encoding: 'utf8' }).stdout.trim().replace(/[.+]/g, '\\$&')}$`, 'm'));
    assert.match(env, /^mode_from=GET http:\/\/127\.0\.0\.1:10249\/proxyMode/m);
    assert.match(env, /^version_from=git_version of kubernetes_build_info/m);
    assert.deepEqual(readdirSync(scratch).filter((f) => f.startsWith('.kube-proxy-capture')), [], 'no temporary folder left');
    const add = runAdd(out, content);
    assert.equal(add.status, 0, add.output);
  }

  const table = await loadTable(content);
  assert.equal(table.counts.measured, 4, 'the four measurable cells are Measured');
  assert.equal(table.counts['to-measure'], 0);
  const cell = (row: string, col: string) => table.rows.find((r) => r.id === row)!.cells.find((c) => c.backend.id === col)!;
  for (const [row, col] of [['endpoint-selection', 'iptables'], ['endpoint-selection', 'nftables'], ['endpoint-change', 'iptables'], ['endpoint-change', 'nftables']] as const) {
    const c = cell(row, col);
    assert.equal(c.provenance, 'measured', `${row}/${col}`);
    if (c.provenance !== 'measured') continue;
    assert.equal(c.evidence.mode, col);
    // The measured cell carries the reading made once, when its evidence file loaded.
    const { reading } = c.evidence;
    assert.deepEqual(reading, readOutput(c.evidence.exercise, col, c.evidence.output).reading);
    if (reading?.exercise === 16) {
      assert.match(c.evidence.output, /^# Generated by iptables-save/m, 'the real iptables-save wrote it');
      assert.equal(reading.services[0]!.endpoints.length, 3);
      for (const e of reading.services[0]!.endpoints) assert.ok(Math.abs(e.share! - 1 / 3) < 1e-6);
    } else if (reading?.exercise === 17) {
      assert.match(c.evidence.output, /^table ip kube-proxy \{/m, 'the real nft wrote it');
      assert.equal(reading.services[0]!.modulus, 3);
      assert.equal(reading.services[0]!.endpoints.length, 3);
    } else if (reading?.exercise === 18) {
      assert.deepEqual(reading.syncs.map((s) => ({ lines: s.lines.length, chains: s.chains, rules: s.rules })), [countPayload(col, payloads[col])]);
    } else assert.fail(`no reading for ${row}/${col}`);
  }
  assert.deepEqual(readdirSync(join(root, 'content/evidence')), realEvidence, 'nothing landed in the real content/');

  // The real build of that copy: the evidence pages show what was read.
  const work = join(scratch, 'netns-build');
  const build = astroBuild(content, work);
  assert.equal(build.status, 0, build.output);
  const pages = readdirSync(join(work, 'out/evidence'));
  assert.equal(pages.length, 4, pages.join(', '));
  const page = (prefix: string) => readFileSync(join(work, 'out/evidence', pages.find((p) => p.startsWith(prefix))!, 'index.html'), 'utf8');
  const ex16 = page('ex16-');
  assert.match(ex16, /What the output shows/);
  assert.match(ex16, /3 endpoints/);
  assert.match(ex16, /33\.3 %/);
  assert.match(page('ex17-'), /random number modulo 3/);
  // Exercise 18's pages count what each payload holds, as the test counted it when it wrote it.
  for (const col of ['iptables', 'nftables'] as const) {
    const { lines, chains, rules } = countPayload(col, payloads[col]);
    assert.ok(rules > 0 && chains > 0);
    const html = page(`ex18-${col}`).replace(/<!--.*?-->/g, '');
    assert.match(html, new RegExp(`<td>${lines}</td><td>${chains}</td><td>${rules}</td></tr>`), `ex18-${col}: ${lines} lines, ${chains} chains, ${rules} rules`);
  }
  const home = readFileSync(join(work, 'out/index.html'), 'utf8');
  assert.doesNotMatch(home, /To measure ·/, 'no cell is still to measure');
});
