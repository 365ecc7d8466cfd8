// The drain run's reader (src/lib/evidence/drain.ts) on a FIXTURE transcript: a synthetic one, built
// here in the shape lab/drain.sh writes, never rendered on the site. It must read each case's outcome
// from the raw lines, refuse a case whose change did not happen, and give CI readings that do not
// depend on which endpoint the random pick chose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drainReadings, readDrain, rulesEndpoints, readConntrack } from '../../src/lib/evidence/drain.ts';
import { differences } from '../../src/lib/evidence/summary.ts';
import { compareDrain } from '../../tools/lib/drain-kit.ts';

const CIP = '10.96.0.99';
const EP: Record<string, string> = { ep1: '10.244.251.11', ep2: '10.244.251.12', ep3: '10.244.251.13' };

interface FixtureOptions {
  backend?: 'iptables' | 'nftables';
  /** The endpoint each case's held connection reached. */
  held?: string;
  /** What the held connection's next line got after the removal. */
  heldAfter?: string;
  /** Whether the UDP flow's entry is still listed after the removal's sync. */
  udpKept?: boolean;
  /** Leave the removed endpoint in the stored slice (the change did not happen). */
  sliceUnchanged?: boolean;
  /** Leave out kube-proxy's "Network programming" line. */
  noProgramming?: boolean;
  /** Leave the held flow out of conntrack before the change. */
  noFlowBefore?: boolean;
  /** List an earlier connection's TIME_WAIT entry from the held flow's port (to another endpoint) first. */
  staleFirst?: boolean;
  /** The stop block does not say the server stopped. */
  notStopped?: boolean;
}

/** A FIXTURE transcript with lab/drain.sh's blocks; every value in it is made up for the test. */
function fixture(o: FixtureOptions = {}): string {
  const backend = o.backend ?? 'iptables';
  const x = o.held ?? 'ep1';
  const others = Object.keys(EP).filter((e) => e !== x);
  const svc = `lab/drain-${backend}`;
  const out: string[] = [
    `# Drain cases on lab-node-${backend} (kube-proxy --proxy-mode=${backend}): Service ${svc}, ClusterIP ${CIP}, TCP 80 -> 8080, UDP 53 -> 5353,`,
    '# FIXTURE: synthetic, for the unit test.',
  ];
  const block = (c: string, step: string, command: string, lines: string[], exit = 0) =>
    out.push(`==> ${c}/${step} $ ${command}`, ...lines, `<== ${c}/${step} exit=${exit}`);
  for (const [name, addr] of Object.entries(EP))
    block('setup', `server-${name}`, 'head -n 1 server.log', [`T ${name} listening tcp=${addr}:8080 udp=${addr}:5353`]);
  const rules = (eps: string[], port: string) =>
    backend === 'iptables'
      ? eps.map(
          (e) =>
            `-A KUBE-SVC-FIXTURE${port} -m comment --comment "${svc}:${port} -> ${EP[e]}:${port === 'tcp' ? 8080 : 5353}" -j KUBE-SEP-${e}${port}`,
        )
      : [
          `\tchain service-FIXTURE-${svc}/${port}/${port} {`,
          eps.length === 1
            ? `\t\tmeta l4proto ${port} dnat to ${EP[eps[0]!]}:8080`
            : `\t\tmeta l4proto ${port} dnat ip to numgen random mod ${eps.length} map { ${eps.map((e, i) => `${i} : ${EP[e]} . 8080`).join(', ')} }`,
          '\t}',
        ];
  const both = (eps: string[]) => [...rules(eps, 'tcp'), ...rules(eps, 'udp')];
  const entry = (proto: string, port: number, to: string, state = 'ESTABLISHED') =>
    `${proto} ${proto === 'tcp' ? 6 : 17} 100 ${proto === 'tcp' ? `${state} ` : ''}src=10.244.250.2 dst=${CIP} sport=${port} dport=${proto === 'tcp' ? 80 : 53} src=${EP[to]} dst=10.244.250.2 sport=8080 dport=${port} mark=0 use=1`;
  const slice = (spec: Record<string, string>) => [
    'endpointslice.discovery.k8s.io/fixture configured',
    ...Object.entries(spec).map(
      ([e, s]) =>
        `${EP[e]} ${s === 'ready' ? 'ready=true serving=true terminating=false' : 'ready=false serving=true terminating=true'}`,
    ),
  ];
  const sync = (deleting?: number) => [
    `I0000 "Syncing ${backend} rules" fullSync=false`,
    ...(o.noProgramming ? [] : [`I0000 "Network programming" endpoint="${svc}" elapsed=0.5`]),
    ...(deleting
      ? [
          `I0000 "Deleting conntrack entry" flow="udp\\t17 src=10.244.250.2 dst=${CIP} sport=${deleting} dport=53 packets=0 bytes=0\\tsrc=${EP[x]} dst=10.244.250.2 sport=5353 dport=${deleting}"`,
        ]
      : []),
    'I0000 "SyncProxyRules complete" elapsed="1ms"',
  ];
  const readyOthers = Object.fromEntries(others.map((e) => [e, 'ready']));
  const removedSlice = o.sliceUnchanged ? { [x]: 'ready', ...readyOthers } : readyOthers;
  const news = (to: string[], n = 6) =>
    Array.from({ length: n }, (_, i) => `c${i} reply ${to[i % to.length]} new-${i}`);
  let port = 40000;
  const open = (c: string, udp = false) => {
    port++;
    block(c, udp ? 'flow-open' : 'held-open', 'client: c hold', [
      `c1 ${udp ? 'udpopen' : 'held'} local=10.244.250.2:${port} remote=${CIP}:80`,
    ]);
    block(c, udp ? 'flow-before' : 'held-before', 'client: c send', [`c2 reply ${x} ${c}-1`]);
    block(c, 'rules-before', 'rules', both(Object.keys(EP)));
    const stale = o.staleFirst && !udp ? [entry('tcp', port, others[0]!, 'TIME_WAIT')] : [];
    block(
      c,
      'conntrack-before',
      'conntrack -L',
      o.noFlowBefore ? stale : [...stale, entry(udp ? 'udp' : 'tcp', port, x)],
    );
  };

  open('tcp-removed');
  block('tcp-removed', 'removed-slice', 'kubectl apply', slice(removedSlice));
  block('tcp-removed', 'removed-sync-log', 'grep log', sync());
  block('tcp-removed', 'removed-rules', 'rules', both(others));
  block('tcp-removed', 'conntrack-after', 'conntrack -L', [entry('tcp', port, x)]);
  block('tcp-removed', 'held-after', 'client: c send', [`c3 ${o.heldAfter ?? `reply ${x} tcp-removed-2`}`]);
  block('tcp-removed', 'new', 'client: new', news(others));

  open('terminating');
  block('terminating', 'beside-ready-slice', 'kubectl apply', slice({ [x]: 'terminating', ...readyOthers }));
  block('terminating', 'beside-ready-sync-log', 'grep log', sync());
  block('terminating', 'beside-ready-rules', 'rules', both(others));
  block('terminating', 'beside-ready-new', 'client: new', news(others));
  block('terminating', 'beside-ready-held', 'client: c send', [`c3 reply ${x} t-2`]);
  block('terminating', 'alone-slice', 'kubectl apply', slice({ [x]: 'terminating' }));
  block('terminating', 'alone-sync-log', 'grep log', sync());
  block('terminating', 'alone-rules', 'rules', both([x]));
  block('terminating', 'alone-new', 'client: new', news([x]));
  block('terminating', 'alone-held', 'client: c send', [`c4 reply ${x} t-3`]);

  open('udp-removed', true);
  const udpPort = port;
  block('udp-removed', 'removed-slice', 'kubectl apply', slice(removedSlice));
  block('udp-removed', 'removed-sync-log', 'grep log', sync(o.udpKept ? undefined : udpPort));
  block('udp-removed', 'removed-rules', 'rules', both(others));
  block(
    'udp-removed',
    'conntrack-after',
    'conntrack -L',
    o.udpKept ? [entry('udp', udpPort, x)] : [],
    o.udpKept ? 0 : 1,
  );
  block('udp-removed', 'flow-after', 'client: c udp', [`c3 reply ${o.udpKept ? x : others[0]} udp-2`]);
  block('udp-removed', 'conntrack-end', 'conntrack -L', [entry('udp', udpPort, o.udpKept ? x : others[0]!)]);

  open('server-stopped');
  block('server-stopped', 'stop', 'kill', [
    o.notStopped ? 'kill: no such process' : `drainpoint serve ${x} (pid 1) stopped; the slice is unchanged`,
  ]);
  block('server-stopped', 'held-after', 'client: c send', ['c3 error EOF']);
  block('server-stopped', 'conntrack-after', 'conntrack -L', [entry('tcp', port, x, 'CLOSE')]);
  block('server-stopped', 'new', 'client: new', [
    ...news(others, 4),
    'c9 error dial tcp 10.96.0.99:80: connect: connection refused',
  ]);
  block('server-stopped', 'rules-end', 'rules', both(Object.keys(EP)));
  return out.join('\n') + '\n';
}

const read = (o: FixtureOptions = {}) => readDrain(fixture(o), o.backend ?? 'iptables');
const readingsOf = (o: FixtureOptions = {}) => {
  const r = read(o);
  assert.equal(r.problem, undefined, `the FIXTURE reads (${r.problem})`);
  return drainReadings(r.count!);
};

test('drain: every case read from the FIXTURE transcript, for both backends', () => {
  for (const backend of ['iptables', 'nftables'] as const) {
    const r = readingsOf({ backend });
    assert.equal(r.get('tcp-removed: held connection after the removal'), 'answered by its endpoint');
    assert.equal(r.get("tcp-removed: flow's conntrack entry after the sync"), 'kept (to the removed endpoint)');
    assert.equal(r.get('tcp-removed: removed endpoint in the rules after the sync'), 'no');
    assert.equal(r.get('tcp-removed: new connections after the removal to its endpoint'), 'none');
    assert.equal(r.get('tcp-removed: new connections after the removal, other endpoints reached'), '2 of 2');
    assert.equal(r.get('terminating: beside ready ones: terminating endpoint in the rules'), 'no');
    assert.equal(r.get('terminating: alone: terminating endpoint in the rules'), 'yes');
    assert.equal(r.get('terminating: alone: endpoints in the rules'), '1');
    assert.equal(r.get('terminating: alone: new connections to its endpoint'), 'all');
    assert.equal(r.get("udp-removed: flow's conntrack entry after the sync"), 'gone');
    assert.equal(r.get("udp-removed: kube-proxy logged deleting the flow's entry"), 'yes');
    assert.equal(r.get('udp-removed: next datagram'), 'answered by another endpoint');
    assert.equal(r.get('server-stopped: held connection after the stop'), 'failed');
    assert.equal(r.get("server-stopped: flow's conntrack entry after the stop"), 'not ESTABLISHED (CLOSE)');
    assert.equal(r.get('server-stopped: new connections after the stop that failed'), 'some');
    assert.equal(r.get('server-stopped: stopped endpoint in the rules'), 'yes');
  }
});

test("drain: an earlier TIME_WAIT entry from the held flow's port does not hide the flow", () => {
  assert.equal(read({ staleFirst: true }).problem, undefined);
  assert.deepEqual(differences(readingsOf({ staleFirst: true }), readingsOf()), []);
});

test('drain: other outcomes are read as such (a broken connection, a kept UDP entry)', () => {
  const r = readingsOf({ heldAfter: 'error read: connection reset by peer', udpKept: true });
  assert.equal(r.get('tcp-removed: held connection after the removal'), 'failed');
  assert.equal(r.get("udp-removed: flow's conntrack entry after the sync"), 'kept (to the removed endpoint)');
  assert.equal(r.get("udp-removed: kube-proxy logged deleting the flow's entry"), 'no');
  assert.equal(r.get('udp-removed: next datagram'), 'answered by its endpoint');
  const moved = readingsOf({ heldAfter: 'reply ep3 tcp-removed-2' });
  assert.equal(moved.get('tcp-removed: held connection after the removal'), 'answered by another endpoint');
});

test('drain: refused when the recorded change did not happen', () => {
  assert.match(
    read({ sliceUnchanged: true }).problem!,
    /tcp-removed: the recorded change did not happen: ep1 .* is ready=true/,
  );
  assert.match(read({ noProgramming: true }).problem!, /no sync that programmed lab\/drain-iptables/);
  assert.match(
    read({ noFlowBefore: true }).problem!,
    /tcp-removed: conntrack before the change shows no tcp entry from port \d+ to ep1 \([0-9.]+\): it lists no tcp entry from port \d+ to /,
  );
  assert.match(
    read({ noFlowBefore: true, staleFirst: true }).problem!,
    /to ep1 \([0-9.]+\): from port \d+ it lists TIME_WAIT answered by [0-9.]+$/,
  );
  assert.match(read({ notStopped: true }).problem!, /server-stopped: the block does not show ep1's server stopped/);
  assert.match(readDrain(fixture(), 'nftables').problem!, /mode "iptables", but this is backend "nftables"/);
  const cut = fixture().replace(/==> udp-removed\/flow-after[^]*?<== udp-removed\/flow-after exit=0\n/, '');
  assert.match(readDrain(cut, 'iptables').problem!, /no block udp-removed\/flow-after/);
  assert.match(readDrain(fixture() + 'stray line\n', 'iptables').problem!, /a line outside any block/);
});

test("drain: CI's readings do not depend on which endpoint the pick chose; a changed outcome differs", () => {
  const a = readingsOf({ held: 'ep1' });
  assert.deepEqual(differences(a, readingsOf({ held: 'ep3' })), []);
  const diff = differences(a, readingsOf({ udpKept: true }));
  assert.deepEqual(
    diff.map(([k]) => k),
    [
      "udp-removed: flow's conntrack entry after the sync",
      "udp-removed: kube-proxy logged deleting the flow's entry",
      'udp-removed: next datagram',
      "udp-removed: flow's conntrack entry after the next datagram",
    ].sort(),
  );
});

test('drain: the rules and conntrack readers', () => {
  const ipt = [
    '-A KUBE-SVC-A -m comment --comment "lab/drain-iptables:tcp -> 10.244.251.11:8080" -m statistic --mode random --probability 0.5 -j KUBE-SEP-A',
    '-A KUBE-SVC-A ! -s 10.244.0.0/16 -d 10.96.0.99/32 -p tcp -m comment --comment "lab/drain-iptables:tcp cluster IP" -j KUBE-MARK-MASQ',
    '-A KUBE-SEP-B -p tcp -m comment --comment "lab/drain-iptables:tcp" -m tcp -j DNAT --to-destination 10.244.251.12:8080',
    '-A KUBE-SVC-U -m comment --comment "lab/drain-iptables:udp -> 10.244.251.13:5353" -j KUBE-SEP-U',
  ];
  assert.deepEqual(rulesEndpoints(ipt, 'iptables', 'lab/drain-iptables', 'tcp'), ['10.244.251.11']);
  const nft = [
    '\tchain endpoint-X-lab/drain-nftables/tcp/tcp__10.244.251.12/8080 {',
    '\t\tmeta l4proto tcp dnat to 10.244.251.12:8080',
    '\t}',
    '\tchain service-Y-lab/drain-nftables/tcp/tcp {',
    '\t\tmeta l4proto tcp dnat to 10.244.251.11:8080',
    '\t}',
  ];
  assert.deepEqual(rulesEndpoints(nft, 'nftables', 'lab/drain-nftables', 'tcp'), ['10.244.251.11']);
  const [e] = readConntrack([
    'tcp      6 86399 ESTABLISHED src=10.244.250.2 dst=10.96.0.99 sport=4 dport=80 src=10.244.251.13 dst=10.244.250.2 sport=8080 dport=4 [ASSURED] mark=0 use=1',
  ]);
  assert.deepEqual(e, {
    proto: 'tcp',
    state: 'ESTABLISHED',
    src: '10.244.250.2',
    dst: '10.96.0.99',
    sport: '4',
    dport: '80',
    replySrc: '10.244.251.13',
  });
});

test("lab-check's drain comparison: a fresh run against the committed drain evidence of its mode", () => {
  const committed = read().count!;
  const fresh = (o: FixtureOptions) =>
    ({ mode: 'iptables', count: read(o).count! }) as Parameters<typeof compareDrain>[0];
  const evidence = [
    { id: 'drain-iptables-fixture', kind: 'drain', backend: 'iptables', count: committed },
    { id: 'ex18-iptables-fixture', backend: 'iptables', count: {} },
  ];
  assert.deepEqual(compareDrain(fresh({ held: 'ep2' }), evidence).diff, []);
  const changed = compareDrain(fresh({ heldAfter: 'error EOF' }), evidence);
  assert.equal(changed.id, 'drain-iptables-fixture');
  assert.deepEqual(changed.diff, [
    ['tcp-removed: held connection after the removal', 'answered by its endpoint', 'failed'],
  ]);
  assert.equal(compareDrain(fresh({}), evidence.slice(1)).id, undefined, 'no drain evidence: nothing to compare with');
});
