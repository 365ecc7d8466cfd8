// The growth sweep's reader (src/lib/evidence/growth.ts) and the build's check of a growth evidence
// file (src/lib/content/evidence-checks.ts, checkGrowth), on a named FIXTURE: the header, the first
// size (10 Services) and the end of a real sweep of lab/growth.sh, cut by tools (head/awk) and never
// rendered on the site. The expected counts were taken from the fixture independently of the parser:
// awk over each "# ==> sync log" block, the payload's lines split at klog's "\n" escapes (iptables) or
// the tab-indented lines of its "transaction=<" block (nftables), `:`/`-A` lines (iptables) and
// "add|create chain"/"add|insert|replace rule" lines (nftables) counted (see the test's comments).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  goDuration,
  growthFields,
  growthReadings,
  iptablesServiceChain,
  quantile,
  readGrowth,
  summarize,
} from '../../src/lib/evidence/growth.ts';
import { checkGrowth } from '../../src/lib/content/evidence-checks.ts';
import { sha256 } from '../../src/lib/evidence/shared.ts';
import type { Growth } from '../../src/lib/content/schemas.ts';
import type { YamlFile } from '../../src/lib/content/yaml.ts';

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURE = readFileSync(join(here, '../fixtures/growth/FIXTURE-growth-sweep.txt'), 'utf8');
const EXPECTED = JSON.parse(readFileSync(join(here, '../fixtures/growth/FIXTURE-expected.json'), 'utf8')) as {
  services: number;
  changes: Array<{
    from: number;
    to: number;
    iptables: string;
    nftables: string;
    secondsIptables: number;
    secondsNftables: number;
  }>;
  full: { iptables: string; nftables: string };
  connections: number;
};
const least = { changes: 5, fulls: 1, connections: 20 };

test('kube-proxy names lab/web port 80 KUBE-SVC-JVHYC5ZONEZCMFDP, as the committed ex18 iptables evidence shows', () => {
  assert.equal(iptablesServiceChain('lab/web', 'tcp'), 'KUBE-SVC-JVHYC5ZONEZCMFDP');
  const ex18 = readFileSync(join(here, '../../content/evidence/ex18-iptables-2026-12-02.yaml'), 'utf8');
  assert.match(ex18, /"lab\/web cluster IP" -m tcp --dport 80 -j KUBE-SVC-JVHYC5ZONEZCMFDP/);
});

test('Go durations and quantiles', () => {
  assert.equal(goDuration('59.156296ms'), 0.059156296);
  assert.equal(goDuration('1.5s'), 1.5);
  assert.equal(goDuration('850µs'), 0.00085);
  assert.equal(goDuration('1m2s'), 62);
  assert.equal(goDuration('fast'), undefined);
  assert.equal(quantile([1, 2, 3, 4, 5], 0.5), 3);
  assert.equal(quantile([1, 2, 3, 4], 0.1), 1.3);
});

test('the FIXTURE sweep reads into the counts taken from it independently', () => {
  const r = readGrowth(FIXTURE, least);
  assert.ok(r.count, r.problem);
  const [size] = r.count.sizes;
  assert.equal(r.count.sizes.length, 1);
  assert.equal(size!.size, 10);
  assert.equal(size!.services, EXPECTED.services);
  assert.equal(size!.walk, EXPECTED.services);
  assert.equal(size!.changes.length, EXPECTED.changes.length);
  size!.changes.forEach((c, i) => {
    const want = EXPECTED.changes[i]!;
    assert.deepEqual([c.from, c.to], [want.from, want.to], `change ${i + 1}`);
    const got = (m: 'iptables' | 'nftables') => `${c.modes[m].lines}/${c.modes[m].chains}/${c.modes[m].rules}`;
    assert.equal(got('iptables'), want.iptables, `change ${i + 1}, iptables`);
    assert.equal(got('nftables'), want.nftables, `change ${i + 1}, nftables`);
    assert.ok(Math.abs(c.modes.iptables.seconds - want.secondsIptables) < 1e-9, `change ${i + 1}, iptables elapsed`);
    assert.ok(Math.abs(c.modes.nftables.seconds - want.secondsNftables) < 1e-9, `change ${i + 1}, nftables elapsed`);
    assert.equal(c.modes.iptables.full, false);
  });
  // Change 2 (4 -> 3): nftables' second sync sent an empty transaction (`transaction=""`), read as a
  // sync that wrote nothing; the change's own sync is the first.
  assert.match(FIXTURE, /"Running nftables transaction" transaction=""\n/);
  assert.equal(size!.changes[1]!.modes.nftables.syncs, 2);
  const f = size!.fulls[0]!.modes;
  assert.equal(`${f.iptables.lines}/${f.iptables.chains}/${f.iptables.rules}`, EXPECTED.full.iptables);
  assert.equal(`${f.nftables.lines}/${f.nftables.chains}/${f.nftables.rules}`, EXPECTED.full.nftables);
  assert.equal(f.iptables.full, true);
  for (const m of ['iptables', 'nftables'] as const)
    for (const t of ['first', 'middle', 'last', 'pod', 'floor'] as const)
      assert.equal(size!.connections[m][t].us.length, EXPECTED.connections, `${m} ${t}`);
});

/** The fixture with its first occurrence of `from` replaced, which must exist. */
const edit = (from: string | RegExp, to: string) => {
  const out = FIXTURE.replace(from, to);
  assert.notEqual(out, FIXTURE, `the fixture holds ${from}`);
  return out;
};

test('a sweep whose log and metrics disagree on a sync is refused', () => {
  const r = readGrowth(edit(/("SyncProxyRules complete" ipFamily="IPv4" elapsed=")[0-9.]+ms"/, '$1999ms"'), least);
  assert.equal(r.count, undefined);
  assert.match(r.problem!, /by its metrics/);
});

/** The fixture with its first IPv4 sync's logged elapsed= moved by `ms` milliseconds. */
const shiftElapsed = (ms: number) => {
  const out = FIXTURE.replace(
    /("SyncProxyRules complete" ipFamily="IPv4" elapsed=")([0-9.]+)ms"/,
    (_, head: string, v: string) => `${head}${(Number(v) + ms).toFixed(6)}ms"`,
  );
  assert.notEqual(out, FIXTURE);
  return out;
};

test('a sync whose log ends a little after its metrics is read (v1.37.2 logs after it observes)', () => {
  assert.equal(readGrowth(shiftElapsed(2), least).problem, undefined);
});

test('a sync whose log ends before its metrics is refused: the metrics are observed first', () => {
  const r = readGrowth(shiftElapsed(-0.5), least);
  assert.equal(r.count, undefined);
  assert.match(r.problem!, /by its metrics/);
});

test("a sweep whose change's sync does not show the change is refused", () => {
  // The iptables payload of change 1 (3 -> 4) without one of lab/web's endpoint jumps: no IPv4 sync shows 4.
  const jump = /\\n-A KUBE-SVC-JVHYC5ZONEZCMFDP -m comment --comment \\"lab\/web -> [0-9.:]+\\" -j KUBE-SEP-[A-Z0-9]+/;
  const r = readGrowth(edit(jump, ''), least);
  assert.equal(r.count, undefined);
  assert.match(r.problem!, /no IPv4 sync of iptables in the log shows it/);
});

test('a sweep with fewer changes than a point needs, or failed connections, is refused', () => {
  assert.match(readGrowth(FIXTURE, { ...least, changes: 7 }).problem!, /fewer than the 7 a point needs/);
  assert.match(readGrowth(edit(/ ok=(\d+) failed=0 ns:/, ' ok=$1 failed=1 ns:'), least).problem!, /failed connection/);
  assert.match(readGrowth(FIXTURE.replace(/^# finished: .*$/m, ''), least).problem!, /did not run to its end/);
});

/** An evidence file as tools/growth-evidence.ts writes it, for the FIXTURE. */
function file(output: string): Growth {
  const r = readGrowth(output, least);
  assert.ok(r.count, r.problem);
  return {
    ...growthFields(r.count),
    output: 'fixture.output.gz',
    sha256: sha256(output),
    summary: JSON.parse(JSON.stringify(summarize(r.count))) as Growth['summary'],
  };
}
const yaml = { file: 'FIXTURE-growth.yaml', at: () => ({}) } as unknown as YamlFile;

test('the build accepts a growth file whose every number follows from its output', () => {
  const { problems, points } = checkGrowth(file(FIXTURE), yaml, FIXTURE);
  assert.deepEqual(problems, []);
  assert.equal(points?.[0]?.modes.iptables.writes['3 -> 4'], EXPECTED.changes[0]!.iptables);
});

test('the build refuses a growth file with a number that does not follow, an edited output or a wrong field', () => {
  const g = file(FIXTURE);
  const point = g.summary[0] as { modes: { nftables: { writes: Record<string, string> } } };
  point.modes.nftables.writes['3 -> 4'] = '4/1/2';
  const edited = checkGrowth(g, yaml, FIXTURE).problems;
  assert.equal(edited.length, 1);
  assert.equal(edited[0]!.field, 'summary');
  assert.match(edited[0]!.problem, /summary\[0\]\.modes\.nftables\.writes\.3 -> 4 does not follow/);
  const output = checkGrowth(file(FIXTURE), yaml, FIXTURE.replace('# loadavg: ', '# loadavg:  ')).problems;
  assert.ok(output.some((p) => /changed after the sweep/.test(p.problem)));
  const kernel = checkGrowth({ ...file(FIXTURE), kernel: '1.0' }, yaml, FIXTURE).problems;
  assert.deepEqual(
    kernel.map((p) => p.field),
    ['kernel'],
  );
  assert.match(checkGrowth(file(FIXTURE), yaml, undefined).problems[0]!.problem, /missing or is not gzip/);
});

test("CI's readings: counts only, per size, mode and direction of the change", () => {
  const r = readGrowth(FIXTURE, least);
  const readings = growthReadings(r.count!);
  assert.equal(readings.get('size 10: Services'), String(EXPECTED.services));
  assert.equal(readings.get('size 10, iptables, change 3 -> 4: lines/chains/rules'), EXPECTED.changes[0]!.iptables);
  assert.equal(readings.get('size 10, nftables, full sync: lines/chains/rules'), EXPECTED.full.nftables);
  assert.ok(![...readings.keys()].some((k) => /second|time|µs/.test(k)));
});
