// The evidence kit, end to end, on FIXTURES only (tests/fixtures/evidence-kit/; never the site's
// content/): the output parser (src/lib/content/evidence-reading.ts), the build's shape, checksum
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
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readIptablesNat, readNftTable, readSyncLog, readOutput, iptablesWords, sha256 } from '../../src/lib/content/evidence-reading.ts';
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

test('readSyncLog: klog multi-line payloads under a CRI prefix, every sync, and the one-line form', () => {
  const t = '2000-01-01T00:00:00Z stderr F ';
  const log = [
    `${t}I0101 00:00:00.0 1 FIXTURE.go:1] "Restoring iptables" rules=<`,
    `${t}\t*nat`, `${t}\t:KUBE-SERVICES - [0:0]`, `${t}\t-A KUBE-SERVICES -j FIXTURE`, `${t}\tCOMMIT`, `${t} >`,
    `${t}I0101 00:00:01.0 1 FIXTURE.go:2] "FIXTURE other line"`,
    `${t}I0101 00:00:02.0 1 FIXTURE.go:1] "Restoring iptables" rules=<`, `${t}\t*nat`, `${t}\tCOMMIT`, `${t} >`,
  ].join('\n');
  const syncs = readSyncLog(log, 'iptables');
  assert.deepEqual(syncs.map((s) => [s.lines.length, s.chains, s.rules]), [[4, 1, 1], [2, 0, 0]]);
  assert.deepEqual(readSyncLog(log, 'nftables'), [], 'another backend\'s marker is not read');
  const inline = 'I0101 FIXTURE.go:1] "Running nftables transaction" transaction="add rule ip kube-proxy x\\nadd element ip kube-proxy y\\n"';
  assert.deepEqual(readSyncLog(inline, 'nftables')[0]!.lines, ['add rule ip kube-proxy x', 'add element ip kube-proxy y']);
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

test('evidence add: usage errors exit 2', () => {
  for (const args of [[], ['remove', 'x'], ['add']]) {
    const run = spawnSync(process.execPath, [join(root, 'tools/evidence.ts'), ...args], { cwd: root, encoding: 'utf8' });
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, /usage: npm run evidence -- add/);
  }
});

// --- the capture script ----------------------------------------------------------------------

const SCRIPT = join(root, 'tools/capture/kube-proxy-evidence.sh');
const SHIMS = join(kit, 'shims');
const have = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const isRoot = process.getuid?.() === 0;
const netns = isRoot && ['unshare', 'iptables-restore', 'iptables-save', 'nft'].every(have)
  && spawnSync('unshare', ['-n', 'nft', 'list', 'tables']).status === 0;
const why = !isRoot ? 'not root' : !netns ? 'no unshare, iptables or nft, or no netfilter in this kernel' : '';
/** Skips with the reason, except in CI, where the kit must be proven on a real kernel. */
const needs = (ok: boolean) => (ok ? {} : process.env.CI === 'true' ? {} : { skip: `${why} (apt-get install iptables nftables; run as root)` });

function capture(env: Record<string, string>, setup: string, args: string[]) {
  const run = spawnSync('unshare', ['-n', 'sh', '-c', `${setup} && exec sh "$0" "$@"`, SCRIPT, ...args], {
    encoding: 'utf8', timeout: 120_000,
    // The FIXTURE kubectl shim writes a whole sync entry before it returns: nothing to wait for.
    env: { ...process.env, PATH: `${SHIMS}:${process.env.PATH}`, FIXTURE_VERSION: 'v0.0.0-fixture', KUBE_PROXY_LOG_SETTLE: '0', ...env },
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

test('capture script: refuses a node in ipvs mode, and an exercise that is not this node\'s mode', needs(isRoot), () => {
  assert.ok(isRoot, why);
  const ipvs = capture({ FIXTURE_MODE: 'ipvs' }, 'true', ['--out', join(scratch, 'cap-ipvs')]);
  assert.equal(ipvs.status, 1, ipvs.output);
  assert.match(ipvs.output, /mode ipvs here: IPVS is read, not run/);
  const wrong = capture({ FIXTURE_MODE: 'iptables' }, 'true', ['--out', join(scratch, 'cap-wrong'), '--exercise', '17']);
  assert.equal(wrong.status, 1, wrong.output);
  assert.match(wrong.output, /exercise 17 dumps the nftables backend, but kube-proxy runs in mode iptables/);
  assert.equal(existsSync(join(scratch, 'cap-ipvs')) || existsSync(join(scratch, 'cap-wrong')), false, 'no capture folder left behind');
});

test('capture script: refuses an empty nat table (no Service chain) and keeps nothing', needs(netns), () => {
  assert.ok(netns, why);
  const run = capture({ FIXTURE_MODE: 'iptables' }, 'true', ['--out', join(scratch, 'cap-empty'), '--exercise', '16']);
  assert.equal(run.status, 1, run.output);
  assert.match(run.output, /no KUBE-SVC-\* chain jumping to a KUBE-SEP-\* chain/);
  assert.equal(existsSync(join(scratch, 'cap-empty')), false);
});

test('on a real kernel: FIXTURE rules in a namespace -> capture script -> evidence add -> the content loads and builds with four Measured cells', needs(netns), async () => {
  assert.ok(netns, why);
  const content = contentCopy('netns');
  const realEvidence = readdirSync(join(root, 'content/evidence'));
  const fx = join(scratch, 'netns-fixture');
  rmSync(fx, { recursive: true, force: true });
  cpSync(join(kit, 'sync-log'), fx, { recursive: true });
  const ex18 = (mode: string, marker: string, key: string, payload: string) => ({
    FIXTURE_MODE: mode, FIXTURE_REPLICAS: '3', FIXTURE_LOG: join(fx, `${mode}.log`), FIXTURE_MARKER: marker, FIXTURE_KEY: key, FIXTURE_PAYLOAD: join(fx, payload),
  });
  writeFileSync(join(fx, 'iptables.log'), '');
  writeFileSync(join(fx, 'nftables.log'), '');

  for (const [mode, setup, env] of [
    ['iptables', `iptables-restore < '${join(kit, 'netns/FIXTURE-iptables-nat.rules')}'`, ex18('iptables', 'Restoring iptables', 'rules', 'FIXTURE-restore-input.txt')],
    ['nftables', `nft -f '${join(kit, 'netns/FIXTURE-kube-proxy.nft')}'`, ex18('nftables', 'Running nftables transaction', 'transaction', 'FIXTURE-nft-transaction.txt')],
  ] as const) {
    const out = join(scratch, `cap-${mode}`);
    const run = capture(env, setup, ['--out', out, '--deployment', 'fixture-ns/fixture-deploy', '--log', env.FIXTURE_LOG]);
    assert.equal(run.status, 0, run.output);
    assert.match(run.output, new RegExp(`captured 2 cell\\(s\\) .*mode ${mode}, kernel `));
    assert.match(run.output, /scaling deployment fixture-ns\/fixture-deploy back to 3 replicas/);
    const env2 = readFileSync(join(out, 'capture.env'), 'utf8');
    assert.match(env2, /^captured_at=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
    assert.match(env2, new RegExp(`^kernel=${spawnSync('uname', ['-r'], { encoding: 'utf8' }).stdout.trim().replace(/[.+]/g, '\\$&')}$`, 'm'));
    assert.match(env2, /^mode_from=GET http:\/\/127\.0\.0\.1:10249\/proxyMode/m);
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
    const { reading, problem } = readOutput(c.evidence.exercise, col, c.evidence.output);
    assert.equal(problem, undefined);
    if (reading?.exercise === 16) {
      assert.match(c.evidence.output, /^# Generated by iptables-save/m, 'the real iptables-save wrote it');
      assert.equal(reading.services[0]!.endpoints.length, 3);
      for (const e of reading.services[0]!.endpoints) assert.ok(Math.abs(e.share! - 1 / 3) < 1e-6);
    } else if (reading?.exercise === 17) {
      assert.match(c.evidence.output, /^table ip kube-proxy \{/m, 'the real nft wrote it');
      assert.equal(reading.services[0]!.modulus, 3);
      assert.equal(reading.services[0]!.endpoints.length, 3);
    } else if (reading?.exercise === 18) {
      const payload = readFileSync(join(kit, 'sync-log', col === 'iptables' ? 'FIXTURE-restore-input.txt' : 'FIXTURE-nft-transaction.txt'), 'utf8');
      assert.deepEqual(reading.syncs.map((s) => s.lines.length), [payload.trimEnd().split('\n').length]);
    } else assert.fail(`no reading for ${row}/${col}`);
  }
  assert.deepEqual(readdirSync(join(root, 'content/evidence')), realEvidence, 'nothing landed in the real content/');

  // The real build of that copy: the evidence pages show what was read.
  const work = join(scratch, 'netns-build');
  const build = astroBuild(content, work);
  assert.equal(build.status, 0, build.output);
  const pages = readdirSync(join(work, 'out/evidence'));
  assert.equal(pages.length, 4, pages.join(', '));
  const ex16 = readFileSync(join(work, 'out/evidence', pages.find((p) => p.startsWith('ex16-'))!, 'index.html'), 'utf8');
  assert.match(ex16, /What the output shows/);
  assert.match(ex16, /3 endpoints/);
  assert.match(ex16, /33\.3 %/);
  const ex17 = readFileSync(join(work, 'out/evidence', pages.find((p) => p.startsWith('ex17-'))!, 'index.html'), 'utf8');
  assert.match(ex17, /random number modulo 3/);
  const home = readFileSync(join(work, 'out/index.html'), 'utf8');
  assert.doesNotMatch(home, /To measure ·/, 'no cell is still to measure');
});
