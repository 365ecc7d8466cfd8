// The evidence kit, end to end, on FIXTURES only (tests/fixtures/evidence-kit/; never the site's
// content/): the output counters (src/lib/evidence/), the build's shape, checksum
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
import { unmeasuredContent } from '../support/unmeasured-content.ts';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  readIptablesNat,
  readNftTable,
  serviceEndpoints,
  readings,
  differences,
  countOutput,
  readSyncLog,
  iptablesWords,
  sha256,
} from '../../src/lib/evidence/index.ts';
import { criRecords, goQuote, klogEntry, type Value } from '../fixtures/evidence-kit/FIXTURE-node/FIXTURE-klog-cri.ts';
import {
  fixtureNftSync,
  fixtureNftTransaction,
  fixtureRestoreInput,
} from '../fixtures/evidence-kit/FIXTURE-node/FIXTURE-payloads.ts';
import { impostorElf } from '../fixtures/evidence-kit/FIXTURE-node/FIXTURE-impostor-elf.ts';
import { setMeasureEvidence } from '../../tools/lib/evidence-kit.ts';
import { loadContent, loadTable } from '../../src/lib/content/load.ts';
import { ContentError, type Problem } from '../../src/lib/problems.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const kit = join(root, 'tests/fixtures/evidence-kit');
const RULES = readFileSync(join(kit, 'netns/FIXTURE-iptables-nat.rules'), 'utf8');
const NFT = readFileSync(join(kit, 'netns/FIXTURE-kube-proxy.nft'), 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'evidence-kit-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A fresh copy of the site's content folder, unmeasured, to add evidence to (the real one is never written). */
const contentCopy = (name: string): string => unmeasuredContent(join(scratch, name, 'content'));

/** Every file of a folder with its text, to prove a refusal wrote nothing. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out.set(join(e.parentPath, e.name), readFileSync(join(e.parentPath, e.name), 'utf8'));
  return out;
}

// --- the parser ----------------------------------------------------------------------------

test('iptablesWords: quoted comments stay one word', () => {
  assert.deepEqual(iptablesWords('-A X -m comment --comment "a b -> c" -j Y'), [
    '-A',
    'X',
    '-m',
    'comment',
    '--comment',
    'a b -> c',
    '-j',
    'Y',
  ]);
});

test('readIptablesNat: the FIXTURE Service chain, its three endpoints, the statistic cascade and DNAT targets', () => {
  const [svc, ...rest] = readIptablesNat(RULES);
  assert.equal(rest.length, 0);
  assert.equal(svc!.chain, 'KUBE-SVC-FIXTURE3ENDPOINTS');
  assert.equal(svc!.service, 'fixture-ns/fixture-svc:http');
  assert.deepEqual(
    svc!.endpoints.map((e) => [e.chain, e.dnat]),
    [
      ['KUBE-SEP-FIXTUREENDPOINT1', '10.244.1.11:8080'],
      ['KUBE-SEP-FIXTUREENDPOINT2', '10.244.1.12:8080'],
      ['KUBE-SEP-FIXTUREENDPOINT3', '10.244.2.13:8080'],
    ],
  );
  assert.deepEqual(
    svc!.picks.map((p) => [p.kind, p.probability]),
    [
      ['random', '0.3333333333'],
      ['random', '0.5000000000'],
      ['rest', undefined],
    ],
  );
  for (const e of svc!.endpoints) assert.ok(Math.abs(e.share! - 1 / 3) < 1e-6, `${e.chain}: ${e.share}`);
  assert.ok(!svc!.picks.some((p) => p.rule.includes('KUBE-MARK-MASQ')), 'the masquerade jump is not an endpoint pick');
});

test('readIptablesNat: a recent-match rule is session affinity, not part of the random cascade; other tables are ignored', () => {
  const dump = [
    '*filter',
    '-A KUBE-SVC-FIXTUREFILTER -j KUBE-SEP-FIXTUREIGNORED',
    'COMMIT',
    '*nat',
    '-A KUBE-SVC-FIXTUREAFFINITY -m comment --comment "fixture-ns/a:p -> 10.0.0.1:80" -m recent --name KUBE-SEP-FIXTUREA --mask 255.255.255.255 --rsource --rcheck --seconds 10800 --reap -j KUBE-SEP-FIXTUREA',
    '-A KUBE-SVC-FIXTUREAFFINITY -m comment --comment "fixture-ns/a:p -> 10.0.0.1:80" -j KUBE-SEP-FIXTUREA',
    'COMMIT',
  ].join('\n');
  const services = readIptablesNat(dump);
  assert.deepEqual(
    services.map((s) => s.chain),
    ['KUBE-SVC-FIXTUREAFFINITY'],
  );
  assert.deepEqual(
    services[0]!.picks.map((p) => p.kind),
    ['affinity', 'rest'],
  );
  assert.equal(services[0]!.endpoints.length, 1);
  assert.equal(services[0]!.endpoints[0]!.share, 1);
});

test('readNftTable: the FIXTURE numgen verdict map, its three endpoint chains and their DNAT targets', () => {
  const [svc, ...rest] = readNftTable(NFT);
  assert.equal(rest.length, 0);
  assert.equal(svc!.chain, 'service-FIXTURE0-fixture-ns/fixture-svc/tcp/http');
  assert.equal(svc!.modulus, 3);
  assert.deepEqual(
    svc!.endpoints.map((e) => [e.index, e.verdict, e.dnat]),
    [
      [0, 'goto', '10.244.1.11:8080'],
      [1, 'goto', '10.244.1.12:8080'],
      [2, 'goto', '10.244.2.13:8080'],
    ],
  );
  assert.match(svc!.rule, /^numgen random mod 3 vmap \{/);
});

// kube-proxy v1.37 writes a Service without session affinity as a map straight to its endpoints'
// addresses (pkg/proxy/nftables/proxier.go, writeServiceToEndpointRules): no endpoint chains. The
// shape below is that rule's, as `nft list table` prints it; the addresses are FIXTURES.
const NFT_MAP = [
  'table ip kube-proxy {',
  '\tchain service-FIXTURE1-fixture-ns/fixture-svc/tcp/http {',
  '\t\tip daddr 10.96.0.10 tcp dport 80 ip saddr != 10.244.0.0/16 jump mark-for-masquerade',
  '\t\tmeta l4proto tcp dnat ip to numgen random mod 3 map { 0 : 10.244.1.11 . 8080, 1 : 10.244.1.12 . 8080, 2 : 10.244.2.13 . 8080 }',
  '\t}',
  '}',
].join('\n');

test('readNftTable: the FIXTURE address map (no session affinity): its three endpoints, each DNATed to its address', () => {
  const [svc, ...rest] = readNftTable(NFT_MAP);
  assert.equal(rest.length, 0);
  assert.deepEqual(
    { chain: svc!.chain, form: svc!.form, modulus: svc!.modulus },
    { chain: 'service-FIXTURE1-fixture-ns/fixture-svc/tcp/http', form: 'map', modulus: 3 },
  );
  assert.deepEqual(
    svc!.endpoints.map((e) => [e.index, e.target, e.dnat, e.chain]),
    [
      [0, '10.244.1.11 . 8080', '10.244.1.11:8080', undefined],
      [1, '10.244.1.12 . 8080', '10.244.1.12:8080', undefined],
      [2, '10.244.2.13 . 8080', '10.244.2.13:8080', undefined],
    ],
  );
  assert.match(svc!.rule, /^meta l4proto tcp dnat ip to numgen random mod 3 map \{/);
  assert.equal(countOutput(17, 'nftables', NFT_MAP).problem, undefined, 'exercise 17 counts it');
});

test('readings: what CI compares (lab-check); a count edited by one endpoint differs, with both readings', () => {
  const committed = readings(countOutput(17, 'nftables', NFT_MAP).count!);
  assert.deepEqual(Object.fromEntries(committed), {
    'endpoints of service fixture-ns/fixture-svc/tcp/http': '3',
    'numgen rule of service fixture-ns/fixture-svc/tcp/http': 'map',
  });
  const edited = NFT_MAP.replace('mod 3 map { 0 : 10.244.1.11 . 8080, ', 'mod 2 map { ');
  const fresh = readings(countOutput(17, 'nftables', edited).count!);
  assert.deepEqual(differences(committed, fresh), [['endpoints of service fixture-ns/fixture-svc/tcp/http', '3', '2']]);
  assert.deepEqual(differences(committed, committed), []);
});

test('a Service chain with one endpoint (no numgen, a plain dnat) counts as one endpoint, and its growth to two shows', () => {
  const one = NFT_MAP.replace(/meta l4proto tcp dnat ip to numgen .*$/m, 'meta l4proto tcp dnat to 10.244.1.11:8080');
  const [svc] = readNftTable(one);
  assert.deepEqual(
    { form: svc!.form, endpoints: svc!.endpoints.map((e) => e.target) },
    { form: 'single', endpoints: ['10.244.1.11 . 8080'] },
  );
  assert.deepEqual(serviceEndpoints(one, 'nftables', 'fixture-ns/fixture-svc', true)[0]!.endpoints, [
    '10.244.1.11 . 8080',
  ]);
  const tx =
    'add rule ip kube-proxy service-FIXTURE1-fixture-ns/fixture-svc/tcp/http meta l4proto tcp dnat ip addr . port to numgen random mod 2 map { 0 : 10.244.1.11 . 8080 , 1 : 10.244.1.12 . 8080 }';
  assert.deepEqual(serviceEndpoints(tx, 'nftables', 'fixture-ns/fixture-svc', false)[0]!.endpoints, [
    '10.244.1.11 . 8080',
    '10.244.1.12 . 8080',
  ]);
  assert.match(
    countOutput(17, 'nftables', one).problem ?? '',
    /numgen/,
    'exercise 17 still needs a numgen rule to show',
  );
});

test('serviceEndpoints: a transaction that writes the FIXTURE address map, and the listing, name the same endpoints', () => {
  const tx = [
    'add chain ip kube-proxy service-FIXTURE1-fixture-ns/fixture-svc/tcp/http',
    'flush chain ip kube-proxy service-FIXTURE1-fixture-ns/fixture-svc/tcp/http',
    'add rule ip kube-proxy service-FIXTURE1-fixture-ns/fixture-svc/tcp/http meta l4proto tcp dnat ip addr . port to numgen random mod 2 map { 0 : 10.244.1.11 . 8080 , 1 : 10.244.1.12 . 8080 }',
  ].join('\n');
  assert.deepEqual(serviceEndpoints(tx, 'nftables', 'fixture-ns/fixture-svc', false), [
    {
      chain: 'service-FIXTURE1-fixture-ns/fixture-svc/tcp/http',
      endpoints: ['10.244.1.11 . 8080', '10.244.1.12 . 8080'],
    },
  ]);
  assert.deepEqual(serviceEndpoints(NFT_MAP, 'nftables', 'fixture-ns/fixture-svc', true)[0]!.endpoints.length, 3);
});

// --- exercise 18: kube-proxy's log, as klog prints it and a container runtime stores it ---------
// The logs below are written by FIXTURE-klog-cri.ts (klog's and the CRI's formats, from their
// upstream sources), and each count is checked against the test's own count of the payload.

/** Lines, chains declared and rules of a payload, counted here, independently of the counter. */
function countPayload(backend: 'iptables' | 'nftables', payload: string) {
  const lines = payload.replace(/\n$/, '').split('\n');
  return backend === 'iptables'
    ? {
        lines: lines.length,
        chains: lines.filter((l) => l[0] === ':').length,
        rules: lines.filter((l) => l.startsWith('-A ')).length,
      }
    : {
        lines: lines.length,
        chains: lines.filter((l) => /^(add|create) chain /.test(l)).length,
        rules: lines.filter((l) => /^(add|insert|replace) rule /.test(l)).length,
      };
}
const restoreEntry = (payload: string, pairs: Array<[string, Value]> = [['ipFamily', 'IPv4']]) =>
  klogEntry(
    'Reloading service iptables data',
    [
      ['ipFamily', 'IPv4'],
      ['numServices', 3],
    ],
    1,
  ) + klogEntry('Restoring iptables', [...pairs, ['rules', { bytes: Buffer.from(payload) }]], 2);
// The syncs as logged (readSyncLog); countOutput(18) also needs the change they show (below).
const sync18 = (backend: string, output: string) => {
  const { count, problem, line } = readSyncLog(output, backend);
  assert.equal(problem, undefined, `${problem} (line ${line})`);
  return count!;
};

test('exercise 18, iptables: the payload is read by its key, "rules", after the logger\'s ipFamily (fault 1)', () => {
  const payload = fixtureRestoreInput(3);
  const [sync, ...rest] = sync18('iptables', criRecords(restoreEntry(payload), false));
  assert.equal(rest.length, 0);
  assert.deepEqual(sync!.lines, payload.replace(/\n$/, '').split('\n'), 'the payload, decoded line for line');
  assert.deepEqual(
    { lines: sync!.lines.length, chains: sync!.chains, rules: sync!.rules },
    countPayload('iptables', payload),
  );
  assert.equal(sync!.ipFamily, 'IPv4');
});

test('exercise 18, iptables: the form of the pinned commit (klog.V(9).InfoS, no ipFamily) and the older multi-line string form', () => {
  const payload = fixtureRestoreInput(2);
  const pinned = klogEntry('Restoring iptables', [['rules', { bytes: Buffer.from(payload) }]], 1);
  const older = klogEntry('Restoring iptables', [['rules', payload]], 1);
  assert.match(older, /rules=<\n\t\*filter\n/);
  for (const log of [pinned, older]) {
    const [sync] = sync18('iptables', log);
    assert.deepEqual(
      { lines: sync!.lines.length, chains: sync!.chains, rules: sync!.rules },
      countPayload('iptables', payload),
    );
  }
});

test('exercise 18: Go\'s quoting is decoded exactly (\\n \\t \\" \\\\ \\u \\U \\x, and octal)', () => {
  const payload = '*nat\n-A KUBE-SVC-FIXTURE -m comment --comment "a\\\\b\tc é 😀 \x01" -j KUBE-SEP-FIXTURE\nCOMMIT\n';
  const quoted = goQuote(Buffer.from(payload), true);
  assert.match(quoted, /\\"a\\\\\\\\b\\tc \\u00e9 \\U0001f600 \\x01\\"/, 'the FIXTURE writer quotes as %+q does');
  const [sync] = sync18('iptables', klogEntry('Restoring iptables', [['rules', { bytes: Buffer.from(payload) }]], 1));
  assert.deepEqual(sync!.lines, payload.replace(/\n$/, '').split('\n'));
  // Go's strconv.Unquote also reads octal (\101) and \x bytes that form UTF-8 together.
  const octal =
    'I0101 00:00:00.000000       1 FIXTURE.go:1] "Restoring iptables" rules="*nat\\n\\101 \\xc3\\xa9\\n-A KUBE-SVC-FIXTURE -j KUBE-SEP-FIXTURE\\n"';
  assert.deepEqual(sync18('iptables', octal)[0]!.lines, ['*nat', 'A é', '-A KUBE-SVC-FIXTURE -j KUBE-SEP-FIXTURE']);
});

test('exercise 18, nftables: the multi-line "transaction" value, every sync in order', () => {
  const payload = fixtureNftTransaction(3);
  const log = criRecords(
    klogEntry('Running nftables transaction', [['transaction', payload]], 1) +
      klogEntry('FIXTURE other', [], 2) +
      klogEntry('Running nftables transaction', [['transaction', payload]], 3),
    false,
  );
  const syncs = sync18('nftables', log);
  assert.equal(syncs.length, 2);
  for (const s of syncs)
    assert.deepEqual({ lines: s.lines.length, chains: s.chains, rules: s.rules }, countPayload('nftables', payload));
  assert.ok(syncs[0]!.line < syncs[1]!.line, 'each sync says where it starts in the output');
  assert.match(countOutput(18, 'iptables', log).problem!, /Restoring iptables/, "another backend's marker is not read");
});

test('exercise 18: a line longer than a CRI record, split into P records, is joined (fault 2)', () => {
  for (const [backend, payload, entry] of [
    ['iptables', fixtureRestoreInput(120), (p: string) => restoreEntry(p)],
    [
      'nftables',
      fixtureNftTransaction(300),
      (p: string) => klogEntry('Running nftables transaction', [['transaction', p]], 1),
    ],
  ] as const) {
    const log = criRecords(entry(payload), false);
    assert.ok(/ stderr P /.test(log), `${backend}: the FIXTURE log holds P records`);
    const [sync] = sync18(backend, log);
    assert.deepEqual(
      { lines: sync!.lines.length, chains: sync!.chains, rules: sync!.rules },
      countPayload(backend, payload),
      backend,
    );
  }
});

test('exercise 18: refused, located, when it counts nothing or cannot read it whole', () => {
  const refused = (backend: string, output: string, want: RegExp, line?: number) => {
    const { count, problem, line: at } = countOutput(18, backend, output);
    assert.equal(count, undefined, `accepted: ${JSON.stringify(count)?.slice(0, 200)}`);
    assert.match(problem ?? '', want);
    if (line !== undefined) assert.equal(at, line, problem);
  };
  // A partial line whose last record never came: the log was copied mid-line.
  const cut = criRecords(restoreEntry(fixtureRestoreInput(120)), true);
  refused('iptables', cut, /partial CRI record .* never ended by an F record/, 2);
  // An entry with no payload under the key the exercise reads.
  refused(
    'iptables',
    klogEntry('Restoring iptables', [['ipFamily', 'IPv4']], 1),
    /"Restoring iptables" .*no rules= value/,
    1,
  );
  // A payload with no rules (and an empty one).
  refused(
    'iptables',
    '# FIXTURE\n' + klogEntry('Restoring iptables', [['rules', { bytes: Buffer.from('*nat\nCOMMIT\n') }]], 1),
    /counts no rules/,
    2,
  );
  refused(
    'iptables',
    klogEntry('Restoring iptables', [['rules', { bytes: Buffer.from('') }]], 1),
    /empty|counts no rules/,
    1,
  );
  refused(
    'nftables',
    klogEntry('Running nftables transaction', [['transaction', 'add table ip kube-proxy\n']], 1),
    /counts no rules/,
    1,
  );
  // Quoting that Go would not have written.
  refused(
    'iptables',
    'I0101 00:00:00.000000       1 FIXTURE.go:1] "Restoring iptables" rules="*nat\\q"',
    /rules=.*\\q/,
    1,
  );
  refused(
    'iptables',
    'I0101 00:00:00.000000       1 FIXTURE.go:1] "Restoring iptables" rules="*nat',
    /rules=.*not closed/,
    1,
  );
  // A multi-line value that never ends.
  refused(
    'nftables',
    'I0101 00:00:00.000000       1 FIXTURE.go:1] "Running nftables transaction" transaction=<\n\tadd rule ip kube-proxy x y\n',
    /transaction=<.*not closed/,
    1,
  );
});

// --- exercise 18: the change the syncs must show ------------------------------------------------

/**
 * A FIXTURE exercise-18 output in the capture script's layout: what it recorded doing ("# change:"
 * lines, kubectl's messages), the rules before the scale (the FIXTURE netns rules: fixture-ns/fixture-svc
 * with 3 endpoints), and the log. `drop` leaves out each line it matches.
 */
function ex18Output(
  backend: 'iptables' | 'nftables',
  log: string,
  o: { replicas?: [number, number]; scaleExit?: number; drop?: RegExp } = {},
): string {
  const [before, after] = o.replicas ?? [3, 4];
  const dump = backend === 'iptables' ? ['iptables-save -t nat', RULES] : ['nft list table ip kube-proxy', NFT];
  return [
    '# change: deployment=fixture-ns/fixture-deploy',
    '# change: service=fixture-ns/fixture-svc',
    `# change: replicas_before=${before}`,
    `# ==> rules before the scale: ${dump[0]}`,
    dump[1]!.replace(/\n$/, ''),
    '# <== rules before the scale',
    '# kubeproxy_sync_* metrics before',
    '# metrics unreachable at http://127.0.0.1:10249/metrics: FIXTURE',
    `# change: scale_to=${after}`,
    `# change: scale_exit=${o.scaleExit ?? 0}`,
    '# kubectl: deployment.apps/fixture-deploy scaled (FIXTURE)',
    '# change: rollout_exit=0',
    '# kubectl: FIXTURE rollout complete',
    `# change: replicas_after=${after}`,
    `# change: ready_after=${after}`,
    '# FIXTURE log from byte 1',
    log.replace(/\n$/, ''),
    '',
  ]
    .filter((l) => !o.drop?.test(l))
    .join('\n');
}
/** A logged sync whose payload writes fixture-ns/fixture-svc with `endpoints` endpoints (and 2 or 3 other Services). */
const syncWriting = (backend: 'iptables' | 'nftables', endpoints: number, line = 1) =>
  backend === 'iptables'
    ? klogEntry(
        'Restoring iptables',
        [
          ['ipFamily', 'IPv4'],
          ['rules', { bytes: Buffer.from(fixtureRestoreInput(2, endpoints)) }],
        ],
        line,
      )
    : klogEntry('Running nftables transaction', [['transaction', fixtureNftSync(3, endpoints)]], line);
/** The output line a text starts on. */
const lineOf = (output: string, text: string) => output.slice(0, output.indexOf(text)).split('\n').length;
/** The output lines the logged syncs start on (CRI record or plain klog line). */
const syncLines = (output: string) =>
  output
    .split('\n')
    .flatMap((l, i) =>
      /^(\S+ stderr F )?I\d{4} .*"(Restoring iptables|Running nftables transaction)"/.test(l) ? [i + 1] : [],
    );

test("exercise 18 shows the change: the Service's endpoints before (the rules before the scale) and after (the sync), and that sync's cost", () => {
  for (const backend of ['iptables', 'nftables'] as const) {
    // A periodic sync that still writes the 3 endpoints, then the one that writes 4.
    const log = criRecords(syncWriting(backend, 3, 1) + syncWriting(backend, 4, 2), false);
    const { count, problem } = countOutput(18, backend, ex18Output(backend, log));
    assert.equal(problem, undefined, problem);
    assert.ok(count?.exercise === 18);
    const { change, syncs } = count;
    const chain =
      backend === 'iptables' ? 'KUBE-SVC-FIXTURE3ENDPOINTS' : 'service-FIXTURE0-fixture-ns/fixture-svc/tcp/http';
    assert.deepEqual(
      change.before.map((c) => [c.chain, c.endpoints.length]),
      [[chain, 3]],
      backend,
    );
    assert.deepEqual(
      change.after.map((c) => [c.chain, c.endpoints.length]),
      [[chain, 4]],
      backend,
    );
    assert.deepEqual(
      [change.replicasBefore, change.replicasAfter, change.delta, change.scaleExit, change.rolloutExit],
      [3, 4, 1, 0, 0],
    );
    assert.deepEqual(change.kubectl, ['deployment.apps/fixture-deploy scaled (FIXTURE)', 'FIXTURE rollout complete']);
    assert.equal(change.sync, 1, 'the second sync is the one that shows the change');
    assert.deepEqual(
      syncs.map((s) => s.service?.map((c) => c.endpoints.length)),
      [[3], [4]],
    );
    const payload = backend === 'iptables' ? fixtureRestoreInput(2, 4) : fixtureNftSync(3, 4);
    assert.deepEqual(
      { lines: syncs[1]!.lines.length, chains: syncs[1]!.chains, rules: syncs[1]!.rules },
      countPayload(backend, payload),
    );
    const added =
      backend === 'iptables'
        ? 'KUBE-SEP-FIXTUREENDPOINT4'
        : 'endpoint-FIXTURE4-fixture-ns/fixture-svc/tcp/http__10.244.1.14/8080';
    assert.deepEqual(
      change.after[0]!.endpoints.filter((e) => !change.before[0]!.endpoints.includes(e)),
      [added],
      'one endpoint chain added',
    );
    assert.deepEqual(
      change.before[0]!.endpoints.filter((e) => !change.after[0]!.endpoints.includes(e)),
      [],
      'none removed',
    );
  }
});

test('exercise 18 refuses, located, a capture whose syncs do not show the endpoint count moving as recorded', () => {
  const refused = (backend: 'iptables' | 'nftables', output: string, want: RegExp, line: number) => {
    const { count, problem, line: at } = countOutput(18, backend, output);
    assert.equal(count, undefined, `accepted: ${JSON.stringify(count)?.slice(0, 200)}`);
    assert.match(problem ?? '', want);
    assert.equal(at, line, problem);
  };
  for (const backend of ['iptables', 'nftables'] as const) {
    // The scale was refused (RBAC), and the capture kept the next periodic sync: 3 endpoints, as before.
    const still = ex18Output(backend, syncWriting(backend, 3));
    refused(
      backend,
      still,
      /no sync writes \S+ of service fixture-ns\/fixture-svc with the 4 endpoints .*scaled 3 -> 4 .*written: sync 1: 3\): the syncs do not show the change/,
      syncLines(still)[0]!,
    );
    // A sync that writes another count than the recorded change gives.
    const five = ex18Output(backend, syncWriting(backend, 3) + syncWriting(backend, 5, 2));
    refused(
      backend,
      five,
      /sync 2 writes \S+ of service fixture-ns\/fixture-svc with 5 endpoints, but the capture recorded deployment fixture-ns\/fixture-deploy scaled 3 -> 4/,
      syncLines(five)[1]!,
    );
  }
  // A sync that writes other Services only (a partial sync).
  const other = ex18Output(
    'iptables',
    klogEntry('Restoring iptables', [['rules', { bytes: Buffer.from(fixtureRestoreInput(2)) }]], 1),
  );
  refused(
    'iptables',
    other,
    /no sync writes KUBE-SVC-FIXTURE3ENDPOINTS .*no sync writes that chain/,
    syncLines(other)[0]!,
  );
  // kubectl scale failed; the record is missing; the rules before do not show the Service.
  const failed = ex18Output('iptables', syncWriting('iptables', 4), { scaleExit: 1 });
  refused(
    'iptables',
    failed,
    /kubectl scale exited 1: the Deployment was not scaled/,
    lineOf(failed, '# change: scale_exit=1'),
  );
  refused(
    'iptables',
    ex18Output('iptables', syncWriting('iptables', 4), { drop: /^# change: replicas_after/ }),
    /does not record the change it measures \(no "# change:" line for replicas_after\)/,
    1,
  );
  const elsewhere = ex18Output('iptables', syncWriting('iptables', 4)).replaceAll(
    'fixture-ns/fixture-svc:http',
    'fixture-ns/FIXTURE-other:http',
  );
  refused(
    'iptables',
    elsewhere,
    /the rules before the scale \(iptables-save -t nat\) show no endpoints of service fixture-ns\/fixture-svc/,
    lineOf(elsewhere, '# ==> rules before'),
  );
  // The log's own problems come first, located as before.
  refused(
    'iptables',
    ex18Output('iptables', criRecords(restoreEntry(fixtureRestoreInput(120)), true)),
    /partial CRI record/,
    lineOf(ex18Output('iptables', criRecords(restoreEntry(fixtureRestoreInput(120)), true)), ' stderr P '),
  );
});

test("countOutput: each exercise's shape, and an iptables dump is not exercise 17 nor an nft listing exercise 16", () => {
  assert.equal(countOutput(16, 'iptables', RULES).count?.exercise, 16);
  assert.equal(countOutput(17, 'nftables', NFT).count?.exercise, 17);
  assert.match(countOutput(17, 'nftables', RULES).problem!, /numgen random mod N/);
  assert.match(countOutput(16, 'iptables', NFT).problem!, /KUBE-SVC-/);
  assert.match(countOutput(18, 'nftables', RULES).problem!, /Running nftables transaction/);
  assert.deepEqual(countOutput(1, 'iptables', 'anything'), {}, 'no counter: no claim either way');
});

// --- axes.yaml edited in place ---------------------------------------------------------------

test("setMeasureEvidence: adds one line under the cell's measure and changes nothing else", () => {
  const text = readFileSync(join(contentCopy('set-measure'), 'comparison/axes.yaml'), 'utf8');
  const next = setMeasureEvidence(text, 2, 'nftables', 'fixture-evidence-id');
  const added = next.split('\n').filter((l, i, all) => !text.split('\n').includes(l) || all.indexOf(l) !== i);
  assert.deepEqual(
    added.filter((l) => l.includes('fixture-evidence-id')),
    ['        evidence: fixture-evidence-id'],
  );
  assert.equal(
    next.replace('        evidence: fixture-evidence-id\n', ''),
    text,
    'every other byte, comments and folded lines included, is as it was',
  );
});

// --- build-time checks on an evidence file ---------------------------------------------------

/** content/ copy + the valid FIXTURE capture added, then `mutate` applied to the evidence file. */
async function evidenceProblems(
  name: string,
  mutate: (text: string) => string,
): Promise<{ problems: Problem[]; file: string }> {
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
  const { problems } = await evidenceProblems('check-edited', (t) =>
    t
      .replace('--probability 0.50000000000', '--probability 0.90000000000')
      .replace('--probability 0.5000000000', '--probability 0.9000000000'),
  );
  const p = problems.find((x) => /edited after capture/.test(x.problem));
  assert.ok(p, JSON.stringify(problems));
  assert.match(p.file, /evidence\/ex16-iptables-2000-01-01\.yaml$/);
  assert.deepEqual(p.item, { kind: 'axis', id: 'endpoint-selection' });
  assert.equal(p.backend, 'iptables');
  assert.equal(p.field, 'output');
  assert.ok(p.line! > 1);
});

test('build check: exercise 16 evidence whose output has no KUBE-SVC chain fails, naming the file and output', async () => {
  const { problems } = await evidenceProblems('check-shape', (t) => {
    const output = 'FIXTURE: not a nat dump\n';
    return t
      .replace(/^output: [\s\S]*?(?=^mode:)/m, `output: |\n  FIXTURE: not a nat dump\n`)
      .replace(/^sha256: .*$/m, `sha256: ${sha256(output)}`);
  });
  assert.equal(problems.length, 1, JSON.stringify(problems));
  assert.match(problems[0]!.problem, /does not show what exercise 16 looks at: expected a KUBE-SVC-/);
  assert.equal(problems[0]!.field, 'output');
});

test('build check: a recorded mode that is not the column fails, naming mode', async () => {
  const { problems } = await evidenceProblems('check-mode', (t) => t.replace(/^mode: iptables$/m, 'mode: nftables'));
  assert.equal(problems.length, 1, JSON.stringify(problems));
  assert.equal(problems[0]!.field, 'mode');
  assert.match(problems[0]!.problem, /mode "nftables", but this is evidence for backend "iptables"/);
});

// --- npm run evidence -- add: accepted, and each refusal --------------------------------------

function runAdd(capture: string, content: string) {
  const run = spawnSync(process.execPath, [join(root, 'tools/evidence.ts'), 'add', capture, '--content', content], {
    cwd: root,
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

test('evidence add: the valid FIXTURE capture becomes an evidence file and the cell turns Measured', async () => {
  const content = contentCopy('add-valid');
  const { status, output } = runAdd(join(kit, 'captures/valid'), content);
  assert.equal(status, 0, output);
  assert.match(
    output,
    /added .*evidence\/ex16-iptables-2000-01-01\.yaml .*axis "endpoint-selection", backend "iptables" at .*comparison\/axes\.yaml:\d+:\d+/,
  );
  const table = await loadTable(content);
  const cell = table.axes.find((r) => r.id === 'endpoint-selection')!.cells.find((c) => c.backend.id === 'iptables')!;
  assert.equal(cell.provenance, 'measured');
  assert.equal(
    cell.provenance === 'measured' && cell.evidence.sha256,
    sha256(readFileSync(join(kit, 'captures/valid/ex16-iptables/output'), 'utf8')),
  );
  assert.equal(
    cell.provenance === 'measured' && cell.evidence.output,
    readFileSync(join(kit, 'captures/valid/ex16-iptables/output'), 'utf8'),
    'the output byte for byte',
  );
  const again = runAdd(join(kit, 'captures/valid'), content);
  assert.equal(again.status, 1, 'adding the same capture twice is refused');
  assert.match(again.output, /already has evidence/);
});

const REFUSALS: Array<{ name: string; want: RegExp; what: string }> = [
  {
    name: 'mode-not-column',
    what: 'a capture whose mode is not its column',
    want: /content\/comparison\/axes\.yaml:\d+:\d+: axis "endpoint-selection", backend "iptables", field "measure": the capture was taken with kube-proxy in mode "nftables" \(.*capture\.env:6\), but this is backend "iptables"/,
  },
  {
    name: 'column-not-run',
    what: 'a column that was not run',
    want: /content\/comparison\/axes\.yaml:\d+:\d+: axis "endpoint-selection", backend "ipvs", field "measure": backend "ipvs" was not run in this study/,
  },
  {
    name: 'exercise-not-this-cell',
    what: 'an exercise that does not measure the cell',
    want: /content\/comparison\/axes\.yaml:\d+:\d+: axis "endpoint-change", backend "iptables", field "measure\.exercise": exercise 16 does not measure this cell; exercise 18 does/,
  },
  {
    name: 'output-edited',
    what: 'output edited after capture',
    want: /captures\/output-edited\/SHA256SUMS:4:66: field "ex16-iptables\/output": ex16-iptables\/output was edited after capture: its sha256 is [0-9a-f]{64}, the capture recorded d6dbf082/,
  },
  {
    name: 'wrong-shape',
    what: 'an iptables dump as exercise 17',
    want: /wrong-shape\/ex17-nftables\/output:1:1: axis "endpoint-selection", backend "nftables", field "output": output does not show what exercise 17 looks at/,
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
function writeCapture(
  dir: string,
  mode: string,
  cells: Array<{ exercise: number; axis: string; output: string }>,
  version = 'v0.0.0-FIXTURE',
): string {
  mkdirSync(dir, { recursive: true });
  const files = new Map<string, string>([
    [
      'capture.env',
      `format=1\ncaptured_at=2000-01-01T00:00:00Z\nkernel=FIXTURE\nkube_proxy_version=${version}\nversion_from=FIXTURE\nmode=${mode}\nmode_from=FIXTURE\n`,
    ],
  ]);
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
    {
      name: 'no-rules',
      output: `# FIXTURE\n${klogEntry(
        'Restoring iptables',
        [
          ['ipFamily', 'IPv4'],
          ['rules', { bytes: Buffer.from('*nat\nCOMMIT\n') }],
        ],
        1,
      )}`,
      want: /ex18-iptables\/output:2:1: axis "endpoint-change", backend "iptables", field "output": .*counts no rules/,
    },
    {
      name: 'wrong-key',
      output: `${klogEntry('Restoring iptables', [['ipFamily', 'IPv4']], 1)}`,
      want: /ex18-iptables\/output:1:1: .*no rules= value/,
    },
    {
      name: 'cut',
      output: criRecords(restoreEntry(fixtureRestoreInput(120)), true),
      want: /ex18-iptables\/output:2:1: .*partial CRI record/,
    },
  ];
  for (const c of cases) {
    const capture = writeCapture(join(scratch, `ex18-${c.name}`), 'iptables', [
      { exercise: 18, axis: 'endpoint-change', output: c.output },
    ]);
    const content = contentCopy(`refuse-ex18-${c.name}`);
    const before = snapshot(content);
    const { status, output } = runAdd(capture, content);
    assert.equal(status, 1, `${c.name}: ${output}`);
    assert.match(output, c.want, output);
    assert.deepEqual(snapshot(content), before, `${c.name}: the content copy is unchanged`);
  }
});

test('evidence add refuses an exercise-18 capture whose syncs do not show the recorded change, located at the sync; accepts the one that does', async () => {
  for (const backend of ['iptables', 'nftables'] as const) {
    const stale = ex18Output(backend, criRecords(syncWriting(backend, 3), false));
    const capture = writeCapture(join(scratch, `ex18-stale-${backend}`), backend, [
      { exercise: 18, axis: 'endpoint-change', output: stale },
    ]);
    const content = contentCopy(`refuse-ex18-stale-${backend}`);
    const before = snapshot(content);
    const refused = runAdd(capture, content);
    assert.equal(refused.status, 1, refused.output);
    assert.match(
      refused.output,
      new RegExp(
        `ex18-${backend}/output:${syncLines(stale)[0]}:1: axis "endpoint-change", backend "${backend}", field "output": no sync writes \\S+ of service fixture-ns/fixture-svc with the 4 endpoints`,
      ),
      refused.output,
    );
    assert.deepEqual(snapshot(content), before, 'the content copy is unchanged');
    const moved = writeCapture(join(scratch, `ex18-moved-${backend}`), backend, [
      {
        exercise: 18,
        axis: 'endpoint-change',
        output: ex18Output(backend, criRecords(syncWriting(backend, 4), false)),
      },
    ]);
    const added = runAdd(moved, content);
    assert.equal(added.status, 0, added.output);
  }
});

test("build check: exercise-18 evidence whose syncs do not show the recorded change fails, naming the file, output and the sync's output line", async () => {
  const content = contentCopy('check-ex18-stale');
  const moved = ex18Output('iptables', syncWriting('iptables', 4));
  const add = runAdd(
    writeCapture(join(scratch, 'ex18-check'), 'iptables', [{ exercise: 18, axis: 'endpoint-change', output: moved }]),
    content,
  );
  assert.equal(add.status, 0, add.output);
  await loadContent(content);
  const file = join(content, 'evidence/ex18-iptables-2000-01-01.yaml');
  // The sync replaced by one that still writes 3 endpoints, with a checksum to match: only the change is missing.
  const stale = ex18Output('iptables', syncWriting('iptables', 3));
  const text = readFileSync(file, 'utf8');
  writeFileSync(
    file,
    text
      .replace(
        /^output: [\s\S]*?(?=^mode:)/m,
        `output: |\n${stale
          .replace(/\n$/, '')
          .split('\n')
          .map((l) => (l ? `  ${l}` : ''))
          .join('\n')}\n`,
      )
      .replace(/^sha256: .*$/m, `sha256: ${sha256(stale)}`),
  );
  try {
    await loadContent(content);
    assert.fail('accepted');
  } catch (error) {
    assert.ok(error instanceof ContentError, String(error));
    assert.equal(error.problems.length, 1, JSON.stringify(error.problems));
    const p = error.problems[0]!;
    assert.match(p.file, /evidence\/ex18-iptables-2000-01-01\.yaml$/);
    assert.deepEqual([p.item, p.backend, p.field], [{ kind: 'axis', id: 'endpoint-change' }, 'iptables', 'output']);
    assert.match(
      p.problem,
      new RegExp(
        `^output line ${syncLines(stale)[0]}: no sync writes KUBE-SVC-FIXTURE3ENDPOINTS of service fixture-ns/fixture-svc with the 4 endpoints`,
      ),
    );
  }
});

test('evidence add: an empty kube_proxy_version is located at its own line of capture.env', () => {
  const capture = writeCapture(
    join(scratch, 'empty-version'),
    'iptables',
    [{ exercise: 16, axis: 'endpoint-selection', output: RULES }],
    '',
  );
  const { status, output } = runAdd(capture, contentCopy('empty-version-content'));
  assert.equal(status, 1, output);
  assert.match(
    output,
    /empty-version\/capture\.env:4:1: field "kube_proxy_version": kube_proxy_version= is empty; capture again/,
  );
});

test('evidence add: usage errors exit 2', () => {
  for (const args of [[], ['remove', 'x'], ['add']]) {
    const run = spawnSync(process.execPath, [join(root, 'tools/evidence.ts'), ...args], {
      cwd: root,
      encoding: 'utf8',
    });
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
const netns =
  isRoot &&
  ['unshare', 'setpriv', 'iptables-restore', 'iptables-save', 'nft', 'ip', 'curl'].every(have) &&
  spawnSync('unshare', ['-n', '-p', '-f', '--mount-proc', 'sh', '-c', 'ip link set lo up && nft list tables'])
    .status === 0;
const why = !isRoot
  ? 'not root'
  : !netns
    ? 'no unshare, setpriv, iptables, nft, ip or curl, or no netfilter or namespaces in this kernel'
    : '';
/** Skips with the reason, except in CI, where the kit must be proven on a real kernel. */
const needs = (ok: boolean) =>
  ok
    ? {}
    : process.env.CI === 'true'
      ? {}
      : { skip: `${why} (apt-get install iptables nftables iproute2 curl; run as root)` };

interface FixtureNode {
  /** kube-proxy's mode, as its FIXTURE --config file states it. */
  mode: string;
  /** Shell run in the namespace first (writes the FIXTURE rules). */
  rules?: string;
  /** kube-proxy's command line after its name; `--config=<file>` is added. false: no kube-proxy process. */
  kubeProxy?: string[] | false;
  /** More lines of its FIXTURE KubeProxyConfiguration file. */
  config?: string;
  /** Programs named kube-proxy started before it: the user (uid) that runs each, and its flags. */
  others?: Array<{ program: string; uid: number; args: string[] }>;
  /** Another user's (uid 65534) FIXTURE metrics server on 127.0.0.1:<port>, started before kube-proxy. */
  listener?: { port: number; mode: string; version: string };
  env?: Record<string, string>;
}

/**
 * Node as a program another user can run (a link in a folder of the test's own that uid 65534 may
 * enter), named fixture-listen, for the FIXTURE listener.
 */
let foreignNode = '';
function nodeForOthers(): string {
  if (foreignNode) return foreignNode;
  const dir = mkdtempSync(join(tmpdir(), 'FIXTURE-listener-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  chmodSync(dir, 0o755);
  foreignNode = join(dir, 'fixture-listen');
  try {
    linkSync(process.execPath, foreignNode);
  } catch {
    copyFileSync(process.execPath, foreignNode);
    chmodSync(foreignNode, 0o755);
  }
  return foreignNode;
}

/** Runs the capture script with `args` on a fresh FIXTURE node; `home` holds the node's files. */
function onNode(home: string, node: FixtureNode, args: string[]) {
  mkdirSync(home, { recursive: true });
  const config = join(home, 'FIXTURE-kube-proxy-config.yaml');
  writeFileSync(
    config,
    `# FIXTURE kube-proxy configuration (tests/unit/evidence-kit.test.ts)\napiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: "${node.mode}"\n${node.config ?? ''}`,
  );
  const pidfile = join(home, 'FIXTURE-kube-proxy.pid');
  const quote = (a: string[]) => a.map((x) => `'${x}'`).join(' ');
  const others = (node.others ?? [])
    .map((o) => `setpriv --reuid=${o.uid} --regid=${o.uid} --clear-groups '${o.program}' ${quote(o.args)} &\n`)
    .join('');
  const listener = node.listener
    ? `setpriv --reuid=65534 --regid=65534 --clear-groups '${nodeForOthers()}' '${join(FIXTURE_NODE, 'FIXTURE-listener.mjs')}' ${node.listener.port} '${node.listener.mode}' '${node.listener.version}' &
     i=0; until curl -fsS -o /dev/null http://127.0.0.1:${node.listener.port}/proxyMode 2>/dev/null; do i=$((i + 1)); [ $i -le 200 ] || { echo 'FIXTURE listener did not start' >&2; exit 97; }; sleep 0.05; done
`
    : '';
  const kubeProxy =
    node.kubeProxy === false
      ? ':'
      : `"${join(FIXTURE_NODE, 'kube-proxy')}" ${quote([...(node.kubeProxy ?? ['--v=9']), `--config=${config}`])} &
     i=0; until [ -s '${pidfile}' ]; do i=$((i + 1)); [ $i -le 200 ] || { echo 'FIXTURE kube-proxy did not start' >&2; exit 97; }; sleep 0.05; done`;
  const setup = `set -e; ip link set lo up; ${node.rules ?? 'true'}\n${others}${listener}${kubeProxy}; exec sh "$0" "$@"`;
  const state = join(home, 'FIXTURE-deployment-replicas');
  const calls = join(home, 'FIXTURE-kubectl-calls');
  if (!node.env?.FIXTURE_LOG && !existsSync(join(home, 'FIXTURE-kube-proxy.log')))
    writeFileSync(join(home, 'FIXTURE-kube-proxy.log'), '');
  const run = spawnSync('unshare', ['-n', '-p', '-f', '--mount-proc', 'sh', '-c', setup, SCRIPT, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      ...process.env,
      PATH: `${SHIMS}:${process.env.PATH}`,
      FIXTURE_NODE: process.execPath,
      FIXTURE_PIDFILE: pidfile,
      FIXTURE_VERSION: 'v0.0.0-FIXTURE',
      FIXTURE_REPLICAS: '3',
      FIXTURE_LOG: join(home, 'FIXTURE-kube-proxy.log'),
      FIXTURE_STATE: state,
      FIXTURE_CALLS: calls,
      // The FIXTURE kube-proxy writes a sync's whole log in one write: nothing more to wait for.
      KUBE_PROXY_LOG_SETTLE: '0',
      ...node.env,
    },
  });
  return {
    status: run.status,
    output: `${run.stdout}${run.stderr}`,
    /** The Deployment's replicas as the FIXTURE cluster holds them now, and every kubectl call. */
    replicas: () => readFileSync(state, 'utf8'),
    calls: () => (existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n') : []),
    /** The replicas of each `kubectl scale`, in order. */
    scales: () =>
      (existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n') : [])
        .filter((c) => c.includes(' scale '))
        .map((c) => c.replace(/.*--replicas=/, '')),
    /** The payloads the FIXTURE kube-proxy logged, in order. */
    payloads: () =>
      readdirSync(home)
        .filter((f) => /^FIXTURE-payload-\d+\.txt$/.test(f))
        .sort((a, b) => parseInt(a.slice(16)) - parseInt(b.slice(16)))
        .map((f) => readFileSync(join(home, f), 'utf8')),
  };
}

const IPTABLES_RULES = `iptables-restore < '${join(kit, 'netns/FIXTURE-iptables-nat.rules')}'`;
const NFT_RULES = `nft -f '${join(kit, 'netns/FIXTURE-kube-proxy.nft')}'`;
const DEPLOY = ['--deployment', 'fixture-ns/fixture-deploy', '--service', 'fixture-svc'];

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

/** A refusal: exit 1 (or `status`), the message, and nothing left where the capture would have gone. */
function refusedOnNode(name: string, node: FixtureNode, args: string[], want: RegExp, status = 1) {
  const parent = join(scratch, `refuse-node-${name}`);
  mkdirSync(parent, { recursive: true });
  const log = join(parent, 'FIXTURE-kube-proxy.log');
  if (node.env?.FIXTURE_LOG === undefined && !existsSync(log)) writeFileSync(log, '');
  const out = join(parent, 'capture');
  if (args.includes('--deployment') && !args.includes('--log')) args = [...args, '--log', log];
  const run = onNode(join(scratch, `node-${name}`), { ...node, env: { FIXTURE_LOG: log, ...node.env } }, [
    '--out',
    out,
    ...args,
  ]);
  assert.equal(run.status, status, `${name}: ${run.output}`);
  assert.match(run.output, want, name);
  assert.deepEqual(
    readdirSync(parent).filter((f) => !f.startsWith('FIXTURE-kube-proxy.log')),
    [],
    `${name}: no capture folder, finished or not, is left behind`,
  );
  return run;
}

test('capture script: --help ends at the help text; an exercise given twice gets its own message', () => {
  const help = spawnSync('sh', [SCRIPT, '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^Captures the evidence/);
  assert.match(
    help.stdout,
    /the whole entry is in the log before it is copied\.\n$/,
    'the last line of the help text is the last line printed',
  );
  assert.doesNotMatch(help.stdout, /set -eu/);
  const twice = spawnSync('sh', [SCRIPT, '--exercise', '16', '--exercise', '16'], { encoding: 'utf8' });
  assert.equal(twice.status, 1);
  assert.match(twice.stderr, /--exercise 16 is given twice/);
});

test(
  "capture script: refuses a node in ipvs mode, an exercise that is not this node's mode, and an empty nat table, keeping nothing",
  needs(netns),
  () => {
    assert.ok(netns, why);
    refusedOnNode('ipvs', { mode: 'ipvs' }, [], /mode ipvs here: IPVS is read, not run/);
    refusedOnNode(
      'wrong-exercise',
      { mode: 'iptables' },
      ['--exercise', '17'],
      /exercise 17 dumps the nftables backend, but kube-proxy runs in mode iptables/,
    );
    refusedOnNode(
      'empty-nat',
      { mode: 'iptables' },
      ['--exercise', '16'],
      /no KUBE-SVC-\* chain jumping to a KUBE-SEP-\* chain/,
    );
  },
);

test(
  'capture script: every exercise-18 precondition is checked before the first command; a refusal leaves no folder (fault 3)',
  needs(netns),
  () => {
    assert.ok(netns, why);
    // Each would have failed after exercise 16 had run and written its half of a capture.
    refusedOnNode(
      'v2',
      { mode: 'iptables', rules: IPTABLES_RULES, kubeProxy: ['--v=2'] },
      DEPLOY,
      /kube-proxy \(pid \d+\) runs at verbosity 2 \(--v on its command line\); it logs what it writes to the kernel only at 9/,
    );
    refusedOnNode(
      'no-deployment',
      { mode: 'iptables', rules: IPTABLES_RULES, env: { FIXTURE_NO_DEPLOYMENT: '1' } },
      DEPLOY,
      /kubectl cannot read deployment fixture-ns\/fixture-deploy/,
    );
    refusedOnNode(
      'no-service',
      { mode: 'iptables', rules: IPTABLES_RULES, env: { FIXTURE_NO_SERVICE: '1' } },
      DEPLOY,
      /kubectl cannot read service fixture-ns\/fixture-svc/,
    );
    refusedOnNode(
      'no-log',
      { mode: 'iptables', rules: IPTABLES_RULES },
      [...DEPLOY, '--log', join(scratch, 'FIXTURE-no-such.log')],
      /cannot read kube-proxy's log .*FIXTURE-no-such\.log/,
    );
    refusedOnNode(
      'no-kubectl',
      { mode: 'iptables', rules: IPTABLES_RULES, env: { PATH: pathWithout('kubectl') } },
      DEPLOY,
      /exercise 18 needs kubectl on this node/,
    );
    refusedOnNode(
      'bad-deployment',
      { mode: 'iptables', rules: IPTABLES_RULES },
      ['--deployment', 'fixture-deploy'],
      /--deployment must be NAMESPACE\/NAME/,
    );
  },
);

test(
  'capture script: a sync line the runtime cut into P records is joined; one whose F record never came is refused, keeping nothing (fault 2)',
  needs(netns),
  () => {
    assert.ok(netns, why);
    const run = refusedOnNode(
      'cut',
      { mode: 'iptables', rules: IPTABLES_RULES, env: { FIXTURE_CUT_PARTIAL: '1' } },
      ['--exercise', '18', ...DEPLOY],
      /ends inside a partial line/,
    );
    assert.equal(run.replicas(), '3', 'and the Deployment is scaled back');
  },
);

test(
  'capture script: mode from the --config file when the metrics port has no /proxyMode; version from kubernetes_build_info',
  needs(netns),
  () => {
    assert.ok(netns, why);
    const out = join(scratch, 'cap-config-mode');
    const run = onNode(
      join(scratch, 'node-config-mode'),
      { mode: 'iptables', rules: IPTABLES_RULES, env: { FIXTURE_NO_PROXYMODE: '1' } },
      ['--out', out, '--exercise', '16'],
    );
    assert.equal(run.status, 0, run.output);
    const env = readFileSync(join(out, 'capture.env'), 'utf8');
    assert.match(env, /^mode=iptables$/m);
    assert.match(env, /^mode_from=mode in kube-proxy's --config file .*FIXTURE-kube-proxy-config\.yaml \(pid \d+\)$/m);
    assert.match(env, /^kube_proxy_version=v0\.0\.0-FIXTURE$/m);
    assert.match(env, /^version_from=git_version of kubernetes_build_info in http:\/\/127\.0\.0\.1:10249\/metrics$/m);
  },
);

test(
  "capture script: a refused scale, or a failed rollout, stops the capture: nothing kept, the Deployment untouched or scaled back, kubectl's message shown",
  needs(netns),
  () => {
    assert.ok(netns, why);
    // RBAC allows get but not scale; kube-proxy keeps syncing every 300 ms, as a real one does every 30 s.
    const forbidden = refusedOnNode(
      'scale-forbidden',
      { mode: 'iptables', rules: IPTABLES_RULES, env: { FIXTURE_SCALE_FORBIDDEN: '1', FIXTURE_PERIODIC_MS: '300' } },
      ['--exercise', '18', ...DEPLOY],
      /kubectl scale deployment fixture-ns\/fixture-deploy failed \(exit 1\), so nothing changed and nothing was kept; kubectl said:\nError from server \(Forbidden\)/,
    );
    assert.equal(forbidden.replicas(), '3', 'the Deployment is untouched');
    assert.deepEqual(
      forbidden.calls().filter((c) => c.includes(' scale ')),
      ['-n fixture-ns scale deployment fixture-deploy --replicas=4'],
      'one scale, refused; no scale back of what did not change',
    );
    const rollout = refusedOnNode(
      'rollout-fails',
      { mode: 'iptables', rules: IPTABLES_RULES, env: { FIXTURE_ROLLOUT_FAIL: '1' } },
      ['--exercise', '18', ...DEPLOY],
      /kubectl rollout status deployment fixture-ns\/fixture-deploy failed \(exit 1\); kubectl said:\nerror: timed out waiting for the condition/,
    );
    assert.match(
      rollout.output,
      /scaled to 4: scaling it back to 3 replicas[\s\S]*deployment fixture-ns\/fixture-deploy is back at 3 replicas/,
    );
    assert.equal(rollout.replicas(), '3', 'the Deployment is scaled back');
  },
);

test(
  'capture script: an interrupt (INT) or a kill (TERM) after the scale scales the Deployment back, saying so, and keeps nothing',
  needs(netns),
  () => {
    assert.ok(netns, why);
    for (const [signal, status] of [
      ['INT', 130],
      ['TERM', 143],
    ] as const) {
      const run = refusedOnNode(
        `signal-${signal}`,
        { mode: 'iptables', rules: IPTABLES_RULES, env: { FIXTURE_SIGNAL: signal } },
        ['--exercise', '18', ...DEPLOY],
        signal === 'INT' ? /interrupted \(SIGINT\): nothing is kept/ : /terminated \(SIGTERM\): nothing is kept/,
        status,
      );
      assert.match(run.output, /scaled to 4: scaling it back to 3 replicas/, signal);
      assert.equal(run.replicas(), '3', `${signal}: the Deployment is back where it was`);
      assert.deepEqual(
        run
          .calls()
          .filter((c) => c.includes(' scale '))
          .map((c) => c.replace(/.*--replicas=/, '')),
        ['4', '3'],
        signal,
      );
    }
  },
);

test(
  'capture script: a hangup (SIGHUP: a dropped ssh -t or kubectl exec -it) after the scale, or a second Ctrl-C, a hangup or a kill during the scale back, still scales the Deployment back and leaves no temporary folder',
  needs(netns),
  () => {
    assert.ok(netns, why);
    // [name, FIXTURE signals, exit status, message, the scale calls' replicas]
    const cases: Array<[string, Record<string, string>, number, RegExp, string[]]> = [
      ['hup', { FIXTURE_SIGNAL: 'HUP' }, 129, /hung up \(SIGHUP\): nothing is kept/, ['4', '3']],
      [
        'int-then-int',
        { FIXTURE_SIGNAL: 'INT', FIXTURE_SIGNAL_SCALE_BACK: 'INT' },
        130,
        /interrupted \(SIGINT\): nothing is kept/,
        ['4', '3'],
      ],
      [
        'int-then-hup',
        { FIXTURE_SIGNAL: 'INT', FIXTURE_SIGNAL_SCALE_BACK: 'HUP' },
        130,
        /interrupted \(SIGINT\): nothing is kept/,
        ['4', '3'],
      ],
      // kubectl (Go) dies of a SIGTERM sent to the whole group even when the script ignores it: tried again.
      [
        'int-then-term',
        { FIXTURE_SIGNAL: 'INT', FIXTURE_SIGNAL_SCALE_BACK: 'TERM' },
        130,
        /kubectl scale was ended by signal 15 \(exit 143\): trying again/,
        ['4', '3', '3'],
      ],
    ];
    for (const [name, env, status, want, scales] of cases) {
      const run = refusedOnNode(
        `signals-${name}`,
        { mode: 'iptables', rules: IPTABLES_RULES, env },
        ['--exercise', '18', ...DEPLOY],
        want,
        status,
      );
      assert.match(run.output, /scaled to 4: scaling it back to 3 replicas/, name);
      assert.match(run.output, /deployment fixture-ns\/fixture-deploy is back at 3 replicas/, name);
      assert.equal(run.replicas(), '3', `${name}: the Deployment is back where it was`);
      assert.deepEqual(run.scales(), scales, name);
    }
  },
);

test(
  'capture script: SIGTERM to the script alone ends it promptly, the running kubectl with it, and scales back',
  needs(netns),
  () => {
    assert.ok(netns, why);
    // `kubectl rollout status` sends SIGTERM to the script (PID 1 of the namespace) only, then waits 45 s.
    const started = Date.now();
    const run = refusedOnNode(
      'term-alone',
      { mode: 'iptables', rules: IPTABLES_RULES, env: { FIXTURE_ROLLOUT_HANG: '45' } },
      ['--exercise', '18', ...DEPLOY],
      /terminated \(SIGTERM\): nothing is kept/,
      143,
    );
    const seconds = (Date.now() - started) / 1000;
    assert.ok(seconds < 25, `it acted on SIGTERM after ${seconds} s, not when the 45 s kubectl ended`);
    assert.ok(
      run.calls().includes('FIXTURE kubectl rollout status: ended by SIGTERM'),
      `the running kubectl was ended, not left running: ${run.calls().join(' | ')}`,
    );
    assert.equal(run.replicas(), '3', 'the Deployment is back where it was');
  },
);

test(
  'capture script: a scale applied although kubectl exited non-zero is read back, scaled back, and said so',
  needs(netns),
  () => {
    assert.ok(netns, why);
    const run = refusedOnNode(
      'scale-applied-failed',
      { mode: 'iptables', rules: IPTABLES_RULES, env: { FIXTURE_SCALE_APPLIED_FAIL: '1' } },
      ['--exercise', '18', ...DEPLOY],
      /kubectl scale deployment fixture-ns\/fixture-deploy exited 1, yet the Deployment now has 4 replicas \(it had 3\): the scale was applied, so it is scaled back; nothing was kept; kubectl said:\nerror: FIXTURE: the connection to the server was lost/,
    );
    assert.doesNotMatch(run.output, /nothing changed/);
    assert.match(run.output, /scaling it back to 3 replicas[\s\S]*is back at 3 replicas/);
    assert.equal(run.replicas(), '3', 'the Deployment is back where it was');
    assert.deepEqual(run.scales(), ['4', '3']);
  },
);

test(
  "capture script: the metrics server is asked only when the trusted kube-proxy owns its socket; another user's listener there is refused, named",
  needs(netns),
  () => {
    assert.ok(netns, why);
    // kube-proxy's config says iptables; its port was taken by another user's program that says nftables.
    const foreign = { mode: 'nftables', version: 'v0.0.0-FIXTURE-FOREIGN' };
    const took = refusedOnNode(
      'foreign-listener',
      {
        mode: 'iptables',
        rules: `${IPTABLES_RULES}; ${NFT_RULES}`,
        listener: { port: 10249, ...foreign },
        env: { FIXTURE_NO_METRICS_SERVER: '1' },
      },
      [],
      /http:\/\/127\.0\.0\.1:10249 is served by process \d+ \(fixture-listen, uid 65534\), not by kube-proxy \(pid \d+\): refusing to believe its mode and version/,
    );
    assert.doesNotMatch(took.output, /captured/);
    // kube-proxy serves 10249; --metrics names another user's port.
    refusedOnNode(
      'foreign-metrics-url',
      { mode: 'iptables', rules: `${IPTABLES_RULES}; ${NFT_RULES}`, listener: { port: 10259, ...foreign } },
      ['--metrics', 'http://127.0.0.1:10259'],
      /http:\/\/127\.0\.0\.1:10259 is served by process \d+ \(fixture-listen, uid 65534\), not by kube-proxy \(pid \d+\)/,
    );
    // The trusted one's own socket: believed, and said so.
    const out = join(scratch, 'cap-own-socket');
    const own = onNode(join(scratch, 'node-own-socket'), { mode: 'iptables', rules: IPTABLES_RULES }, [
      '--out',
      out,
      '--exercise',
      '16',
      '--metrics',
      'http://localhost:10249',
    ]);
    assert.equal(own.status, 0, own.output);
    assert.match(own.output, /metrics server http:\/\/localhost:10249 is kube-proxy's own \(pid \d+ listens on it\)/);
    assert.match(readFileSync(join(out, 'capture.env'), 'utf8'), /^mode_from=GET http:\/\/localhost:10249\/proxyMode/m);
  },
);

test(
  'capture script: a json-file log that was empty when the capture started is refused with the json-file message, once kube-proxy writes to it',
  needs(netns),
  () => {
    assert.ok(netns, why);
    const run = refusedOnNode(
      'json-file-empty',
      { mode: 'iptables', rules: IPTABLES_RULES, env: { FIXTURE_LOG_FORMAT: 'json-file' } },
      ['--exercise', '18', ...DEPLOY],
      /kube-proxy's log .*FIXTURE-kube-proxy\.log\) is written by Docker's json-file logging driver \(cri-dockerd\), whose \{"log":\.\.\.\} lines this kit does not read/,
    );
    assert.doesNotMatch(run.output, /is kube-proxy at verbosity 9/, 'not the verbosity message');
    assert.match(run.output, /scaling it back to 3 replicas/);
    assert.equal(run.replicas(), '3');
  },
);

test(
  'capture script: a process named kube-proxy that another user runs is neither executed nor believed; two that root runs are refused, named',
  needs(netns),
  () => {
    assert.ok(netns, why);
    if (process.arch !== 'x64') assert.fail(`the FIXTURE impostor is an x86-64 program; this is ${process.arch}`);
    const dir = mkdtempSync(join(tmpdir(), 'FIXTURE-impostor-'));
    try {
      chmodSync(dir, 0o755);
      const marker = join(dir, 'FIXTURE-executed');
      const theirs = join(dir, 'nobody', 'kube-proxy');
      mkdirSync(dirname(theirs), { mode: 0o755 });
      writeFileSync(theirs, impostorElf(marker), { mode: 0o755 });
      chownSync(theirs, 65534, 65534);
      // Another user's kube-proxy, started first (the old script took the first in /proc), says --v=0
      // and mode ipvs, and answers --version as kube-proxy would.
      const out = join(scratch, 'cap-impostor');
      const run = onNode(
        join(scratch, 'node-impostor'),
        {
          mode: 'iptables',
          rules: IPTABLES_RULES,
          others: [{ program: theirs, uid: 65534, args: ['--v=0', '--proxy-mode=ipvs'] }],
        },
        [
          '--out',
          out,
          '--exercise',
          '16',
          '--exercise',
          '18',
          ...DEPLOY,
          '--log',
          join(scratch, 'node-impostor', 'FIXTURE-kube-proxy.log'),
        ],
      );
      assert.equal(run.status, 0, run.output);
      assert.match(
        run.output,
        /ignoring process \d+ named kube-proxy: it runs as uid 65534, not root \(neither executed nor believed\)/,
      );
      assert.match(
        run.output,
        /kube-proxy \(pid \d+\) runs at verbosity 9 \(--v on its command line\)/,
        "the verbosity is the real one's",
      );
      assert.ok(!existsSync(marker), "the other user's program was not executed");
      const env = readFileSync(join(out, 'capture.env'), 'utf8');
      assert.match(env, /^kube_proxy_version=v0\.0\.0-FIXTURE$/m);
      assert.doesNotMatch(env, /IMPOSTOR|ipvs/);
      // Root runs it, but from a binary others can write (anyone could have replaced it): ignored too.
      const writable = join(dir, 'writable', 'kube-proxy');
      mkdirSync(dirname(writable), { mode: 0o755 });
      writeFileSync(writable, impostorElf(marker));
      chmodSync(writable, 0o757);
      // With no kubernetes_build_info the script asks a binary for its version: only the trusted one
      // (the FIXTURE kube-proxy's, Node, which does not answer as kube-proxy, so the capture is refused).
      const run2 = onNode(
        join(scratch, 'node-writable'),
        {
          mode: 'iptables',
          rules: IPTABLES_RULES,
          env: { FIXTURE_NO_BUILD_INFO: '1' },
          others: [
            { program: writable, uid: 0, args: ['--v=9'] },
            { program: theirs, uid: 65534, args: ['--v=9'] },
          ],
        },
        ['--out', join(scratch, 'cap-writable'), '--exercise', '16'],
      );
      assert.match(
        run2.output,
        /ignoring process \d+ named kube-proxy: its binary .*writable\/kube-proxy \(mode 757\) can be written by users other than root/,
      );
      assert.match(run2.output, /ignoring process \d+ named kube-proxy: it runs as uid 65534/);
      assert.equal(run2.status, 1, run2.output);
      assert.match(run2.output, /The binary of kube-proxy \(pid \d+, \/\S+\) answered --version/);
      assert.doesNotMatch(run2.output, /IMPOSTOR/);
      assert.ok(
        !existsSync(marker),
        "neither the other user's program nor a root-run one from a binary others can write was executed",
      );
      // A second kube-proxy that root runs from a binary root owns: two candidates, refused, named.
      const ours = join(dir, 'root', 'kube-proxy');
      mkdirSync(dirname(ours), { mode: 0o755 });
      writeFileSync(ours, impostorElf(marker), { mode: 0o755 });
      refusedOnNode(
        'two-kube-proxies',
        { mode: 'iptables', rules: IPTABLES_RULES, others: [{ program: ours, uid: 0, args: ['--v=9'] }] },
        ['--exercise', '16'],
        /more than one process named kube-proxy runs as root from a root-owned binary:\n {2}pid \d+ \(.*root\/kube-proxy\)\n {2}pid \d+ \(\/.*\)\nRefusing to pick one/,
      );
      assert.ok(!existsSync(marker), 'nor was it executed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'capture script: the version from the binary only when the metrics server has none, and a refusal quotes what the binary answered',
  needs(netns),
  () => {
    assert.ok(netns, why);
    // The FIXTURE kube-proxy's binary is Node, which answers --version with its own version, not as kube-proxy.
    refusedOnNode(
      'no-build-info',
      { mode: 'iptables', rules: IPTABLES_RULES, env: { FIXTURE_NO_BUILD_INFO: '1' } },
      ['--exercise', '16'],
      /cannot read kube-proxy's version: no kubernetes_build_info at http:\/\/127\.0\.0\.1:10249\/metrics\. The binary of kube-proxy \(pid \d+, \/\S+\) answered --version with exit status 0 and "v\d[^"]*", not "Kubernetes v\.\.\."/,
    );
  },
);

test(
  'capture script: verbosity from logging.verbosity in kube-proxy\'s config file; the metrics server unreachable for the "before" snapshot is recorded as such',
  needs(netns),
  () => {
    assert.ok(netns, why);
    const home = join(scratch, 'node-config-verbosity');
    const out = join(scratch, 'cap-config-verbosity');
    // The 2nd /metrics request (the 1st is for the version) is the "before" snapshot: it gets a 503.
    const run = onNode(
      home,
      {
        mode: 'nftables',
        rules: NFT_RULES,
        kubeProxy: [],
        config: 'logging:\n  format: text\n  verbosity: 9\n',
        env: { FIXTURE_METRICS_FAIL: '2' },
      },
      ['--out', out, '--exercise', '18', ...DEPLOY, '--log', join(home, 'FIXTURE-kube-proxy.log')],
    );
    assert.equal(run.status, 0, run.output);
    assert.match(
      run.output,
      /runs at verbosity 9 \(logging\.verbosity in its --config file .*FIXTURE-kube-proxy-config\.yaml\)/,
    );
    const output = readFileSync(join(out, 'ex18-nftables/output'), 'utf8');
    assert.match(
      output,
      /^# kubeproxy_sync_\* metrics before\n# metrics unreachable at http:\/\/127\.0\.0\.1:10249\/metrics: curl: \(22\) .*503/m,
    );
    assert.match(output, /^# kubeproxy_sync_\* metrics after\nkubeproxy_sync_proxy_rules_last_timestamp_seconds \d/m);
  },
);

test(
  'capture script: verbosity from the short flag with its value attached (-v9) and from a flow-style logging map in the config file',
  needs(netns),
  () => {
    assert.ok(netns, why);
    const cases: Array<[string, Partial<FixtureNode>, RegExp]> = [
      ['short-flag', { kubeProxy: ['-v9'] }, /runs at verbosity 9 \(--v on its command line\)/],
      [
        'flow-config',
        { kubeProxy: [], config: 'logging: {format: text, verbosity: 9}\n' },
        /runs at verbosity 9 \(logging\.verbosity in its --config file /,
      ],
    ];
    for (const [name, node, from] of cases) {
      const home = join(scratch, `node-verbosity-${name}`);
      const run = onNode(home, { mode: 'nftables', rules: NFT_RULES, ...node }, [
        '--out',
        join(scratch, `cap-verbosity-${name}`),
        '--exercise',
        '18',
        ...DEPLOY,
        '--log',
        join(home, 'FIXTURE-kube-proxy.log'),
      ]);
      assert.equal(run.status, 0, `${name}: ${run.output}`);
      assert.match(run.output, from, name);
    }
  },
);

test(
  "capture script: a log in Docker's json-file format is refused, saying so, before anything runs",
  needs(netns),
  () => {
    assert.ok(netns, why);
    const parent = join(scratch, 'refuse-node-json-file');
    mkdirSync(parent, { recursive: true });
    writeFileSync(
      join(parent, 'FIXTURE-kube-proxy.log'),
      `${JSON.stringify({ log: 'I0101 00:00:00.000000       1 FIXTURE.go:1] "FIXTURE earlier entry"\n', stream: 'stderr', time: '2000-01-01T00:00:00Z' })}\n`,
    );
    const run = refusedOnNode(
      'json-file',
      { mode: 'iptables', rules: IPTABLES_RULES, env: { FIXTURE_LOG_FORMAT: 'json-file' } },
      ['--exercise', '18', ...DEPLOY],
      /kube-proxy's log .* is written by Docker's json-file logging driver \(cri-dockerd\), whose \{"log":\.\.\.\} lines this kit does not read/,
    );
    assert.deepEqual(
      run.calls().filter((c) => c.includes(' scale ')),
      [],
      'nothing was scaled',
    );
  },
);

test(
  'capture script: a log the kubelet rotates during the capture is refused, saying so; nothing kept, the Deployment scaled back',
  needs(netns),
  () => {
    assert.ok(netns, why);
    const parent = join(scratch, 'refuse-node-rotated');
    mkdirSync(parent, { recursive: true });
    // What kube-proxy logged before: the capture reads only what comes after it.
    writeFileSync(
      join(parent, 'FIXTURE-kube-proxy.log'),
      criRecords(klogEntry('FIXTURE earlier entry', [['pad', 'x'.repeat(4000)]], 1).repeat(30), false),
    );
    const run = refusedOnNode(
      'rotated',
      { mode: 'iptables', rules: IPTABLES_RULES, env: { FIXTURE_ROTATE: '1' } },
      ['--exercise', '18', ...DEPLOY],
      /kube-proxy log .*FIXTURE-kube-proxy\.log was rotated \(by the kubelet\) during the capture/,
    );
    assert.match(run.output, /scaling it back to 3 replicas/);
    assert.equal(run.replicas(), '3');
  },
);

test(
  'on a real kernel: a sync that does not show the change it would measure is captured as logged, and refused by evidence add, located',
  needs(netns),
  () => {
    assert.ok(netns, why);
    const home = join(scratch, 'node-stale');
    const out = join(scratch, 'cap-stale');
    // kube-proxy keeps writing the Service's 3 endpoints: the change did not reach it.
    const run = onNode(home, { mode: 'iptables', rules: IPTABLES_RULES, env: { FIXTURE_STALE: '1' } }, [
      '--out',
      out,
      '--exercise',
      '18',
      ...DEPLOY,
      '--log',
      join(home, 'FIXTURE-kube-proxy.log'),
    ]);
    assert.equal(run.status, 0, run.output);
    const output = readFileSync(join(out, 'ex18-iptables/output'), 'utf8');
    const content = contentCopy('refuse-stale');
    const before = snapshot(content);
    const add = runAdd(out, content);
    assert.equal(add.status, 1, add.output);
    assert.match(
      add.output,
      new RegExp(
        `ex18-iptables/output:${syncLines(output)[0]}:1: axis "endpoint-change", backend "iptables", field "output": no sync writes KUBE-SVC-FIXTURE3ENDPOINTS of service fixture-ns/fixture-svc with the 4 endpoints`,
      ),
    );
    assert.deepEqual(snapshot(content), before, 'nothing written');
  },
);

test(
  'on a real kernel: a FIXTURE node -> capture script -> evidence add -> the content loads and builds with four Measured cells, exercise 18 showing the change and counted as the payload holds',
  needs(netns),
  async () => {
    assert.ok(netns, why);
    const content = contentCopy('netns');
    const realEvidence = readdirSync(join(root, 'content/evidence'));
    const payloads: Record<string, string> = {};
    for (const [mode, rules] of [
      ['iptables', IPTABLES_RULES],
      ['nftables', NFT_RULES],
    ] as const) {
      const home = join(scratch, `node-${mode}`);
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, 'FIXTURE-kube-proxy.log'), '');
      const out = join(scratch, `cap-${mode}`);
      const setting = join(home, 'FIXTURE-setting');
      writeFileSync(setting, 'FIXTURE setting: a fixture node in a network namespace of the test.\n');
      const run = onNode(home, { mode, rules }, [
        '--out',
        out,
        '--setting',
        setting,
        ...DEPLOY,
        '--log',
        join(home, 'FIXTURE-kube-proxy.log'),
      ]);
      assert.equal(run.status, 0, run.output);
      assert.match(run.output, new RegExp(`captured 2 cell\\(s\\) .*mode ${mode}, kernel `));
      assert.match(run.output, /scaling deployment fixture-ns\/fixture-deploy back to 3 replicas/);
      assert.equal(run.replicas(), '3');
      assert.match(
        readFileSync(join(home, 'FIXTURE-kube-proxy.log'), 'utf8'),
        / stderr P /,
        'the log held a line cut into P records',
      );
      payloads[mode] = run.payloads()[0]!;
      const env = readFileSync(join(out, 'capture.env'), 'utf8');
      assert.match(env, /^captured_at=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
      assert.match(
        env,
        new RegExp(
          `^kernel=${spawnSync('uname', ['-r'], { encoding: 'utf8' }).stdout.trim().replace(/[.+]/g, '\\$&')}$`,
          'm',
        ),
      );
      assert.match(env, /^mode_from=GET http:\/\/127\.0\.0\.1:10249\/proxyMode/m);
      assert.match(env, /^iptables_version=iptables v\d/m, "the node's iptables, as it names itself");
      assert.match(env, /^nft_version=nftables v\d/m);
      assert.equal(readFileSync(join(out, 'setting'), 'utf8'), readFileSync(setting, 'utf8'), 'the setting, kept');
      assert.match(readFileSync(join(out, 'SHA256SUMS'), 'utf8'), / setting$/m, 'and checked like the rest');
      assert.match(env, /^version_from=git_version of kubernetes_build_info/m);
      assert.deepEqual(
        readdirSync(scratch).filter((f) => f.startsWith('.kube-proxy-')),
        [],
        'no temporary folder left',
      );
      // The capture can be copied by a user other than root (scp -r): every folder 755, every file readable.
      for (const e of [out, ...readdirSync(out, { recursive: true }).map((f) => join(out, String(f)))]) {
        const mode8 = statSync(e).mode & 0o777;
        assert.equal(
          mode8 & (statSync(e).isDirectory() ? 0o555 : 0o444),
          statSync(e).isDirectory() ? 0o555 : 0o444,
          `${e}: mode ${mode8.toString(8)}`,
        );
      }
      const output = readFileSync(join(out, `ex18-${mode}/output`), 'utf8');
      assert.match(
        output,
        /^# change: replicas_before=3$[\s\S]*^# change: scale_exit=0$\n^# kubectl: deployment\.apps\/FIXTURE scaled to 4 \(FIXTURE\)$\n^# change: rollout_exit=0$\n^# kubectl: FIXTURE rollout complete$\n^# change: replicas_after=4$/m,
      );
      // `add` with a path relative to where the user stands (npm sets INIT_CWD), not the checkout.
      const add = spawnSync(
        process.execPath,
        [join(root, 'tools/evidence.ts'), 'add', `cap-${mode}`, '--content', content],
        { cwd: root, encoding: 'utf8', env: { ...process.env, INIT_CWD: scratch } },
      );
      assert.equal(add.status, 0, `${add.stdout}${add.stderr}`);
    }

    const table = await loadTable(content);
    assert.equal(table.counts.measured, 4, 'the four measurable cells are Measured');
    assert.equal(table.counts['to-measure'], 0);
    const cell = (row: string, col: string) =>
      table.axes.find((r) => r.id === row)!.cells.find((c) => c.backend.id === col)!;
    for (const [row, col] of [
      ['endpoint-selection', 'iptables'],
      ['endpoint-selection', 'nftables'],
      ['endpoint-change', 'iptables'],
      ['endpoint-change', 'nftables'],
    ] as const) {
      const c = cell(row, col);
      assert.equal(c.provenance, 'measured', `${row}/${col}`);
      if (c.provenance !== 'measured') continue;
      assert.equal(c.evidence.mode, col);
      assert.equal(c.evidence.setting, 'FIXTURE setting: a fixture node in a network namespace of the test.');
      assert.match(c.evidence.nft ?? '', /^nftables v\d/);
      // The measured cell carries the count made once, when its evidence file loaded.
      const { count } = c.evidence;
      assert.deepEqual(count, countOutput(c.evidence.exercise!, col, c.evidence.output).count);
      if (count?.exercise === 16) {
        assert.match(c.evidence.output, /^# Generated by iptables-save/m, 'the real iptables-save wrote it');
        assert.equal(count.services[0]!.endpoints.length, 3);
        for (const e of count.services[0]!.endpoints) assert.ok(Math.abs(e.share! - 1 / 3) < 1e-6);
      } else if (count?.exercise === 17) {
        assert.match(c.evidence.output, /^table ip kube-proxy \{/m, 'the real nft wrote it');
        assert.equal(count.services[0]!.modulus, 3);
        assert.equal(count.services[0]!.endpoints.length, 3);
      } else if (count?.exercise === 18) {
        assert.deepEqual(
          count.syncs.map((s) => ({ lines: s.lines.length, chains: s.chains, rules: s.rules })),
          [countPayload(col, payloads[col]!)],
        );
        // Before: the rules the real iptables-save or nft printed before the scale; after: the sync.
        assert.match(
          c.evidence.output,
          col === 'iptables'
            ? /^# ==> rules before the scale: iptables-save -t nat\n# Generated by iptables-save/m
            : /^# ==> rules before the scale: nft list table ip kube-proxy\ntable ip kube-proxy \{/m,
        );
        assert.deepEqual(
          [
            count.change.before.map((c) => c.endpoints.length),
            count.change.after.map((c) => c.endpoints.length),
            count.change.sync,
          ],
          [[3], [4], 0],
        );
      } else assert.fail(`no count for ${row}/${col}`);
    }
    assert.deepEqual(readdirSync(join(root, 'content/evidence')), realEvidence, 'nothing landed in the real content/');

    // The real build of that copy: the evidence pages show what was counted.
    const work = join(scratch, 'netns-build');
    const build = astroBuild(content, work);
    assert.equal(build.status, 0, build.output);
    // The four captures' pages (the copy keeps the drain run's evidence and content/growth/: their pages
    // are there too).
    const pages = readdirSync(join(work, 'out/evidence')).filter((p) => p.startsWith('ex'));
    assert.equal(pages.length, 4, pages.join(', '));
    const page = (prefix: string) =>
      readFileSync(
        join(
          work,
          'out/evidence',
          pages.find((p) => p.startsWith(prefix))!,
          'index.html',
        ),
        'utf8',
      );
    const ex16 = page('ex16-');
    assert.match(ex16, /What the output shows/);
    assert.match(ex16, /3 endpoints/);
    assert.match(ex16, /33\.3 %/);
    assert.match(page('ex17-'), /random number modulo 3/);
    // Exercise 18's pages: what changed (the endpoint count before and after) next to what it cost,
    // counted as the test counted the payload the FIXTURE kube-proxy logged.
    for (const col of ['iptables', 'nftables'] as const) {
      const { lines, chains, rules } = countPayload(col, payloads[col]!);
      assert.ok(rules > 0 && chains > 0);
      const html = page(`ex18-${col}`).replace(/<!--.*?-->/g, '');
      assert.match(
        html,
        new RegExp(`<td>${lines}</td><td>${chains}</td><td>${rules}</td></tr>`),
        `ex18-${col}: ${lines} lines, ${chains} chains, ${rules} rules`,
      );
      const chain =
        col === 'iptables' ? 'KUBE-SVC-FIXTURE3ENDPOINTS' : 'service-FIXTURE0-fixture-ns/fixture-svc/tcp/http';
      const added =
        col === 'iptables'
          ? 'KUBE-SEP-FIXTUREENDPOINT4'
          : 'endpoint-FIXTURE4-fixture-ns/fixture-svc/tcp/http__10.244.1.14/8080';
      assert.match(
        html,
        new RegExp(
          `<td><code>${chain}</code></td><td>3</td><td>4</td>\\s*<td><code>${added}</code></td>\\s*<td>none</td>`,
        ),
        `ex18-${col}: the Service's endpoints, 3 before, 4 after, one chain added`,
      );
      assert.match(html, /scaled from 3 to 4 replicas/);
      assert.match(html, new RegExp(`handed the kernel ${lines} lines`));
      // EVIDENCE_KIT_PAGES_TO=<dir> keeps these FIXTURE pages to look at (never part of the site).
      if (process.env.EVIDENCE_KIT_PAGES_TO)
        writeFileSync(join(process.env.EVIDENCE_KIT_PAGES_TO, `FIXTURE-ex18-${col}.html`), html);
    }
    const home = readFileSync(join(work, 'out/index.html'), 'utf8');
    assert.doesNotMatch(home, /To measure ·/, 'no cell is still to measure');
    // The measured endpoint-change cells say, in the table, what changed and what it cost.
    for (const col of ['iptables', 'nftables'] as const) {
      const { lines, chains, rules } = countPayload(col, payloads[col]!);
      const cell = /<td id="endpoint-change--(\w+)"[\s\S]*?<\/td>/g;
      const html = [...home.matchAll(cell)].find((m) => m[1] === col)?.[0] ?? '';
      assert.match(
        html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' '),
        new RegExp(
          `What changed: Service fixture-ns/fixture-svc went from 3 to 4 endpoints \\(Deployment scaled 3 to 4\\)\\. What it cost: sync \\d+ wrote ${lines} lines: ${chains} chains, ${rules} rules\\.`,
        ),
        `endpoint-change/${col}: the change and its cost in the cell`,
      );
    }
  },
);
