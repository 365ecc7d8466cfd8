// How the cost grows (issue 45): the raw output of a sweep of lab/growth.sh, read into numbers.
// The sweep adds Services size by size; at each size it makes one-endpoint changes (Deployment
// lab/web scaled by one, up then down), forces full syncs (a change of the nodes' zone label, which
// sets needFullSync in both proxiers: pkg/proxy/iptables/proxier.go L516-L523, nftables L904-L911 at
// v1.37.2), and times new TCP connections through each node. For each change and mode it keeps the
// node's sync log entries (kube-proxy -v=9) between two readings of its kubeproxy_sync_* metrics:
//   - "Syncing iptables|nftables rules" ipFamily= fullSync= (V(2), at the sync's start);
//   - the payload, counted as exercise 18 counts it (./ex18.ts readSyncLog: lines, chains, rules);
//   - "SyncProxyRules complete" ipFamily= elapsed= (V(2), in the deferred function that also
//     observes the sync's duration in kubeproxy_sync_proxy_rules_duration_seconds and, by
//     fullSync, in kubeproxy_sync_full_ or _partial_proxy_rules_duration_seconds: KEP-3453's
//     metrics; iptables proxier.go L642-L651, nftables L1193-L1202).
// The change's sync is the first IPv4 sync that writes lab/web's Service chain with the replicas
// the Deployment was scaled to (./change.ts serviceEndpoints; the iptables chain named by
// kube-proxy's hash, iptables proxier.go L533-L537, because above 1000 endpoints kube-proxy drops
// the rules' comments, L605-L610). Its duration is the elapsed= kube-proxy logged for it; the
// metrics must agree: as many IPv4 partial (full) syncs as the log shows, and their elapsed= adding
// up to the histograms' sum within 1 ms a sync. Anything else refuses the sweep. Pure, no I/O.
import { createHash } from 'node:crypto';
import { readIptablesNat } from './ex16.ts';
import { readSyncLog, type SyncPayload } from './ex18.ts';
import { serviceEndpoints } from './change.ts';
import { refuse, type CountResult } from './shared.ts';

export const GROWTH_MODES = ['iptables', 'nftables'] as const;
export type GrowthMode = (typeof GROWTH_MODES)[number];
/** The connections' targets: Services at three places in iptables' walk, a Pod through the node, the floor. */
export const TARGETS = ['first', 'middle', 'last', 'pod', 'floor'] as const;
export type Target = (typeof TARGETS)[number];

/** One measured sync of one mode. */
export interface SyncReading {
  lines: number;
  chains: number;
  rules: number;
  /** kube-proxy's own elapsed= for it, in seconds. */
  seconds: number;
  full: boolean;
  /** IPv4 syncs in the window (the change's own, and any the same change caused). */
  syncs: number;
  /** Service chains the payload declares (iptables `:KUBE-SVC-`/`:KUBE-SVL-`; nftables `add chain … service-`). */
  serviceChains: number;
  /** The metrics' IPv4 histogram sums and counts, after less before (partial, full). */
  metrics: { partialCount: number; partialSum: number; fullCount: number; fullSum: number };
  /** The output line of its payload. */
  line: number;
}

export interface ChangeReading {
  index: number;
  from: number;
  to: number;
  modes: Record<GrowthMode, SyncReading>;
}

export interface ConnectionSample {
  addr: string;
  /** Position of the Service's rule in iptables' KUBE-SERVICES walk (1-based), for the ClusterIPs. */
  position?: number;
  /** Set-up times, microseconds, in the order made. */
  us: number[];
}

export interface SizeReading {
  size: number;
  /** What `kubectl get services -A` counted. */
  services: number;
  loadavg: string;
  changes: ChangeReading[];
  fulls: Array<{ index: number; zone: string; modes: Record<GrowthMode, SyncReading> }>;
  /** Rules in iptables' KUBE-SERVICES walk (one per Service port). */
  walk: number;
  connections: Record<GrowthMode, Record<Target, ConnectionSample>>;
}

export interface GrowthSweep {
  command: string;
  started: string;
  finished: string;
  machine: string;
  kernel: string;
  loadavg: string[];
  versions: Record<string, string>;
  setting: string;
  sizes: SizeReading[];
}

/** kube-proxy's iptables chain name for a Service port: KUBE-SVC- and base32(sha256(name + protocol))[:16]. */
export function iptablesServiceChain(servicePort: string, protocol: string): string {
  const hash = createHash('sha256')
    .update(servicePort + protocol)
    .digest();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of hash) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return `KUBE-SVC-${out.slice(0, 16)}`;
}

/** A Go duration as time.Duration's String prints it ("59.156296ms", "1.2s", "850µs"), in seconds. */
export function goDuration(text: string): number | undefined {
  const units: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, μs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
  if (!/^(\d+(\.\d+)?(ns|us|µs|μs|ms|s|m|h))+$/.test(text)) return undefined;
  let total = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|μs|ms|s|m|h)/g)) total += Number(m[1]) * units[m[2]!]!;
  return total;
}

interface Block {
  /** The text after "# ==> ". */
  head: string;
  /** Output line of the head. */
  line: number;
  body: string[];
}

const WEB = 'lab/web';

/** Prometheus text lines as `name{labels}` -> value. */
function readMetrics(lines: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const l of lines) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (\S+)$/.exec(l);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

const FAMILY = '{ip_family="IPv4"}';
/** How much later than its metrics a sync's log may end: a loaded 2-core runner showed 2.3 ms over 2 syncs. */
const LOG_AFTER_METRIC_SECONDS = 0.05;

/** The entries of one sync log block, as each mode's IPv4 syncs: start, payload, end. */
function readWindow(
  mode: GrowthMode,
  body: string[],
  firstLine: number,
  before: Map<string, number>,
  after: Map<string, number>,
  pick: (payload: SyncPayload, full: boolean) => boolean,
  what: string,
  check?: (payload: SyncPayload) => string | undefined,
): CountResult<SyncReading> {
  const at = (i: number) => firstLine + i;
  // A sync that has nothing to send logs an empty transaction (nftables, `transaction=""`): a sync
  // that wrote nothing, read here as a payload of no lines (readSyncLog refuses one, as exercise 18
  // must: it measures nothing).
  const EMPTY = /\] "Running nftables transaction" transaction=""$/;
  const empty = new Set(body.flatMap((l, i) => (EMPTY.test(l) ? [i + 1] : [])));
  const payloads = readSyncLog(body.map((l, i) => (empty.has(i + 1) ? '' : l)).join('\n'), mode);
  if (!payloads.count && empty.size === 0)
    return refuse(`${what}: ${payloads.problem}`, payloads.line && at(payloads.line - 1));
  const byLine = new Map((payloads.count ?? []).map((p) => [p.line, p]));
  for (const line of empty)
    byLine.set(line, {
      marker: 'Running nftables transaction',
      key: 'transaction',
      line,
      form: 'quoted',
      lines: [],
      chains: 0,
      rules: 0,
    });
  // The syncs in the order logged, each family's start, payload and end paired (the IPv6 proxier
  // syncs beside the IPv4 one, and its lines may come between); IPv4's kept.
  type Sync = {
    start: { line: number; full: boolean };
    payload?: SyncPayload;
    end?: { line: number; seconds: number };
  };
  const open = new Map<string, Sync>();
  const syncs: Array<Required<Sync>> = [];
  const family = (p: SyncPayload): string | undefined => {
    if (mode === 'iptables') return p.ipFamily;
    if (p.lines.some((l) => / ip kube-proxy( |$)/.test(l))) return 'IPv4';
    if (p.lines.some((l) => / ip6 kube-proxy( |$)/.test(l))) return 'IPv6';
    const waiting = [...open].filter(([, o]) => !o.payload).map(([f]) => f);
    return waiting.length === 1 ? waiting[0] : undefined;
  };
  for (let i = 0; i < body.length; i++) {
    const l = body[i]!;
    const s = /\] "Syncing (?:iptables|nftables) rules" ipFamily="(IPv[46])" fullSync=(true|false)$/.exec(l);
    const e = /\] "SyncProxyRules complete" ipFamily="(IPv[46])" elapsed="([^"]+)"$/.exec(l);
    const p = byLine.get(i + 1);
    if (s) {
      if (open.has(s[1]!)) return refuse(`${what}: ${mode}'s ${s[1]} sync starts again before it ended`, at(i));
      open.set(s[1]!, { start: { line: i + 1, full: s[2] === 'true' } });
    } else if (p) {
      const f = family(p);
      const o = f === undefined ? undefined : open.get(f);
      if (!o || o.payload) return refuse(`${what}: ${mode}'s payload here belongs to no sync under way`, at(i));
      o.payload = p;
    } else if (e) {
      const o = open.get(e[1]!);
      const seconds = goDuration(e[2]!);
      if (!o?.payload || seconds === undefined)
        return refuse(`${what}: ${mode}'s ${e[1]} sync ends here without a start, a payload or a duration`, at(i));
      open.delete(e[1]!);
      if (e[1] === 'IPv4') syncs.push({ ...o, payload: o.payload, end: { line: i + 1, seconds } });
    }
  }
  if (open.size > 0)
    return refuse(`${what}: ${mode}'s ${[...open.keys()].join(' and ')} sync has not ended in the log`, at(0));
  for (const sync of syncs) {
    const problem = check?.(sync.payload);
    if (problem) return refuse(`${what}: ${problem}`, at(sync.payload.line - 1));
  }
  const delta = (k: string) => (after.get(k) ?? NaN) - (before.get(k) ?? NaN);
  const metrics = {
    partialCount: delta(`kubeproxy_sync_partial_proxy_rules_duration_seconds_count${FAMILY}`),
    partialSum: delta(`kubeproxy_sync_partial_proxy_rules_duration_seconds_sum${FAMILY}`),
    fullCount: delta(`kubeproxy_sync_full_proxy_rules_duration_seconds_count${FAMILY}`),
    fullSum: delta(`kubeproxy_sync_full_proxy_rules_duration_seconds_sum${FAMILY}`),
  };
  for (const [kind, full] of [
    ['partial', false],
    ['full', true],
  ] as const) {
    const mine = syncs.filter((s) => s.start.full === full);
    const count = full ? metrics.fullCount : metrics.partialCount;
    const sum = full ? metrics.fullSum : metrics.partialSum;
    const logged = mine.reduce((a, s) => a + s.end.seconds, 0);
    if (Number.isNaN(count) || Number.isNaN(sum))
      return refuse(`${what}: ${mode}'s metrics before or after have no IPv4 ${kind} sync histogram`, at(0));
    if (count !== mine.length)
      return refuse(
        `${what}: ${mode}'s metrics count ${count} IPv4 ${kind} sync(s) between the two readings, its log ${mine.length}`,
        at(0),
      );
    // v1.37.2's deferred sync end (iptables/proxier.go L642-650, nftables/proxier.go L1193-1201) observes
    // the histograms first and logs elapsed= after them, both from the same start: a metric never exceeds
    // its log, and the log is later by two Observe calls plus whatever the scheduler adds under load.
    const n = Math.max(1, mine.length);
    if (sum > logged + 1e-6 * n || logged - sum > LOG_AFTER_METRIC_SECONDS * n)
      return refuse(
        `${what}: ${mode}'s IPv4 ${kind} syncs took ${sum.toFixed(6)} s by its metrics, ${logged.toFixed(6)} s by its log's elapsed=`,
        at(0),
      );
  }
  const chosen = syncs.find((s) => pick(s.payload, s.start.full));
  if (!chosen) return refuse(`${what}: no IPv4 sync of ${mode} in the log shows it`, at(0));
  const p = chosen.payload;
  const serviceChains = p.lines.filter((l) =>
    mode === 'iptables'
      ? /^:KUBE-(SVC|SVL)-/.test(l)
      : /^add chain ip kube-proxy service-[A-Z0-9]+-[^/ ]+\/[^/ ]+\//.test(l),
  ).length;
  return {
    count: {
      lines: p.lines.length,
      chains: p.chains,
      rules: p.rules,
      seconds: chosen.end.seconds,
      full: chosen.start.full,
      syncs: syncs.length,
      serviceChains,
      metrics,
      line: at(p.line - 1),
    },
  };
}

/** lab/web's endpoints as a payload writes its Service chain: undefined when it does not write it. */
function webEndpoints(payload: SyncPayload, mode: GrowthMode): number | undefined {
  const text = payload.lines.join('\n');
  if (mode === 'iptables') {
    const chain = iptablesServiceChain(WEB, 'tcp');
    return readIptablesNat(text).find((s) => s.chain === chain)?.endpoints.length;
  }
  return serviceEndpoints(text, 'nftables', WEB, false)[0]?.endpoints.length;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
};
/** The q-quantile by linear interpolation between order statistics (R's type 7). */
export function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const h = (s.length - 1) * q;
  const lo = Math.floor(h);
  return s[lo]! + (h - lo) * ((s[Math.min(lo + 1, s.length - 1)] ?? s[lo]!) - s[lo]!);
}
export { median };

/** Splits the output into its "# ==> …" / "# <== …" blocks, nested, each with its lines. */
function splitBlocks(lines: string[], from: number, to: number, line0: number): Block[] {
  const out: Block[] = [];
  let depth = 0;
  let cur: Block | undefined;
  for (let i = from; i < to; i++) {
    const l = lines[i]!;
    if (l.startsWith('# ==> ')) {
      if (depth === 0) cur = { head: l.slice(6), line: line0 + i, body: [] };
      else cur!.body.push(l);
      // A size, change or full block holds further blocks up to its own "# <== "; leaf blocks close alike.
      depth++;
      continue;
    }
    if (l.startsWith('# <== ')) {
      depth--;
      if (depth === 0) {
        out.push(cur!);
        cur = undefined;
      } else cur!.body.push(l);
      continue;
    }
    if (cur) cur.body.push(l);
  }
  return out;
}

/**
 * The sweep's numbers, or the first reason its output does not give them. `changes` and `fulls`
 * are what each size must have at least (the committed sweep: 5 and 1; CI's short rerun may ask less).
 */
export function readGrowth(
  output: string,
  least = { changes: 5, fulls: 1, connections: 20 },
): CountResult<GrowthSweep> {
  const lines = output.split('\n');
  const header = (key: string) => lines.find((l) => l.startsWith(`# ${key}: `))?.slice(key.length + 4);
  const command = lines[0]?.startsWith('# growth sweep: ') ? lines[0].slice('# growth sweep: '.length) : undefined;
  if (!command)
    return refuse('the output does not start with "# growth sweep: <command>": not a sweep of lab/growth.sh', 1);
  const started = header('started');
  const finished = header('finished');
  if (
    !started ||
    !finished ||
    !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(started) ||
    !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ( |$)/.test(finished)
  )
    return refuse('the sweep has no "# started:" or no "# finished:" line: it did not run to its end', 1);
  const versions: Record<string, string> = {};
  for (const l of lines) {
    const v = /^# (kube-proxy \w+|proxyMode \w+|iptables|nft|conntime): (.*)$/.exec(l);
    if (v) versions[v[1]!] = v[2]!;
  }
  for (const m of GROWTH_MODES)
    if (versions[`proxyMode ${m}`] !== m)
      return refuse(`the sweep's ${m} node says its proxyMode is "${versions[`proxyMode ${m}`] ?? 'nothing'}"`, 1);
  const sweep: GrowthSweep = {
    command,
    started,
    finished,
    machine: header('machine') ?? '',
    kernel: header('kernel') ?? '',
    loadavg: lines.filter((l) => l.startsWith('# loadavg: ')).map((l) => l.slice(11)),
    versions,
    setting: lines
      .filter((l) => l.startsWith('# setting:'))
      .map((l) => l.replace(/^# setting: ?/, ''))
      .join('\n'),
    sizes: [],
  };
  for (const size of splitBlocks(lines, 0, lines.length, 1)) {
    const s = /^size (\d+)$/.exec(size.head);
    if (!s) return refuse(`"# ==> ${size.head}" at the top of the sweep is not a size`, size.line);
    const r = readSize(Number(s[1]), size, least);
    if (!r.count) return r;
    sweep.sizes.push(r.count);
  }
  if (sweep.sizes.length === 0) return refuse('the sweep measured no size ("# ==> size N")', 1);
  return { count: sweep };
}

function readSize(
  size: number,
  block: Block,
  least: { changes: number; fulls: number; connections: number },
): CountResult<SizeReading> {
  const what = `size ${size}`;
  const at = (i: number) => block.line + 1 + i;
  const services = /^# services: (\d+) /.exec(block.body.find((l) => l.startsWith('# services: ')) ?? '');
  if (!services) return refuse(`${what}: no "# services: N" line (kubectl get services -A)`, block.line);
  const reading: SizeReading = {
    size,
    services: Number(services[1]),
    loadavg: block.body.find((l) => l.startsWith('# loadavg: '))?.slice(11) ?? '',
    changes: [],
    fulls: [],
    walk: 0,
    connections: {} as SizeReading['connections'],
  };
  const inner = splitBlocks(block.body, 0, block.body.length, block.line + 1);
  const walks: string[][] = [];
  const samples = new Map<string, ConnectionSample>();
  for (const b of inner) {
    const change = /^change (\d+)$/.exec(b.head);
    const full = /^full (\d+)$/.exec(b.head);
    if (change || full) {
      const index = Number((change ?? full)![1]);
      const name = `${what}, ${change ? 'change' : 'full sync'} ${index}`;
      const parts = splitBlocks(b.body, 0, b.body.length, b.line + 1);
      const part = (head: string) => parts.find((p) => p.head.startsWith(head));
      const rec = b.body.find((l) => l.startsWith(change ? '# change: deployment=' : '# full: '));
      if (!rec) return refuse(`${name}: no record of what was changed`, b.line);
      let pick: (p: SyncPayload, full: boolean, m: GrowthMode) => boolean;
      let from = 0;
      let to = 0;
      let zone = '';
      if (change) {
        const m = /replicas_before=(\d+) scale_to=(\d+)$/.exec(rec);
        const after = /^# change: replicas_after=(\d+) ready_after=(\d+)$/.exec(
          b.body.find((l) => l.startsWith('# change: replicas_after=')) ?? '',
        );
        if (!m || !after) return refuse(`${name}: the change's record is incomplete`, b.line);
        from = Number(m[1]);
        to = Number(m[2]);
        if (Math.abs(to - from) !== 1)
          return refuse(`${name}: lab/web scaled ${from} -> ${to} is not a one-endpoint change`, b.line);
        if (Number(after[1]) !== to || Number(after[2]) !== to)
          return refuse(
            `${name}: lab/web has ${after[1]} replicas, ${after[2]} ready after the scale to ${to}`,
            b.line,
          );
        pick = (p, isFull, mode) => !isFull && webEndpoints(p, mode) === to;
      } else {
        zone = rec.split('=')[1] ?? '';
        pick = (_p, isFull) => isFull;
      }
      const modes = {} as Record<GrowthMode, SyncReading>;
      for (const mode of GROWTH_MODES) {
        const before = part(`metrics before: ${mode}`);
        const after = part(`metrics after: ${mode}`);
        const log = part(`sync log: ${mode}`);
        if (!before || !after || !log)
          return refuse(`${name}: no metrics before, metrics after or sync log of ${mode}`, b.line);
        // Every IPv4 sync that writes lab/web's chain writes it with the count before or after.
        const check = (p: SyncPayload) => {
          const n = change ? webEndpoints(p, mode) : undefined;
          return n !== undefined && n !== from && n !== to
            ? `a ${mode} sync writes lab/web with ${n} endpoints, neither the ${from} before nor the ${to} after`
            : undefined;
        };
        const r = readWindow(
          mode,
          log.body,
          log.line + 1,
          readMetrics(before.body),
          readMetrics(after.body),
          (p, f) => pick(p, f, mode),
          name,
          check,
        );
        if (!r.count) return r;
        if (!change && r.count.serviceChains !== reading.services)
          return refuse(
            `${name}: ${mode}'s full sync declares ${r.count.serviceChains} Service chains, but kubectl counted ${reading.services} Services`,
            r.count.line,
          );
        modes[mode] = r.count;
      }
      if (change) reading.changes.push({ index, from, to, modes });
      else reading.fulls.push({ index, zone, modes });
      continue;
    }
    if (b.head.startsWith('walk:')) {
      walks.push(b.body);
      continue;
    }
    const conn = /^connect: (iptables|nftables) round (\d+)$/.exec(b.head);
    if (conn) {
      for (const [i, l] of b.body.entries()) {
        const c = /^connect (\w+) ([0-9.]+:\d+) ok=(\d+) failed=(\d+) ns:((?: \d+)*)$/.exec(l);
        if (!c) return refuse(`${what}: "${l.slice(0, 60)}" is not a line conntime dial prints`, b.line + 1 + i);
        const ns = c[5]!.trim() === '' ? [] : c[5]!.trim().split(' ').map(Number);
        if (Number(c[4]) !== 0 || ns.length !== Number(c[3]))
          return refuse(
            `${what}: ${c[1]} (${conn[1]}) has ${c[4]} failed connection(s), or not ${c[3]} times`,
            b.line + 1 + i,
          );
        if (!(TARGETS as readonly string[]).includes(c[1]!))
          return refuse(`${what}: connections to an unknown target ${c[1]}`, b.line + 1 + i);
        const key = `${conn[1]} ${c[1]}`;
        const got = samples.get(key) ?? { addr: c[2]!, us: [] };
        if (got.addr !== c[2])
          return refuse(
            `${what}: ${c[1]} (${conn[1]}) is ${c[2]} in one round, ${got.addr} in another`,
            b.line + 1 + i,
          );
        got.us.push(...ns.map((v) => v / 1000));
        samples.set(key, got);
      }
      continue;
    }
    return refuse(`${what}: an unknown block "# ==> ${b.head}"`, b.line);
  }
  if (reading.changes.length < least.changes)
    return refuse(
      `${what}: ${reading.changes.length} one-endpoint change(s), fewer than the ${least.changes} a point needs`,
      block.line,
    );
  if (reading.fulls.length < least.fulls)
    return refuse(`${what}: ${reading.fulls.length} full sync(s), fewer than ${least.fulls}`, block.line);
  if (walks.length !== 1)
    return refuse(`${what}: ${walks.length} records of iptables' KUBE-SERVICES walk, not one`, block.line);
  const walk = walks[0]!;
  if (!block.body.includes('# walk unchanged after the connections'))
    return refuse(`${what}: the walk is not recorded unchanged after the connections`, block.line);
  reading.walk = walk.length;
  if (walk.length !== reading.services)
    return refuse(
      `${what}: iptables' KUBE-SERVICES walk has ${walk.length} Service rules, kubectl counted ${reading.services} Services`,
      block.line,
    );
  const position = (addr: string) => {
    const ip = addr.split(':')[0]!;
    const i = walk.findIndex((l) => l.includes(` -d ${ip}/32 `));
    return i < 0 ? undefined : i + 1;
  };
  for (const mode of GROWTH_MODES) {
    reading.connections[mode] = {} as Record<Target, ConnectionSample>;
    for (const t of TARGETS) {
      const got = samples.get(`${mode} ${t}`);
      if (!got || got.us.length < least.connections)
        return refuse(
          `${what}: ${got?.us.length ?? 0} connection(s) to ${t} from ${mode}'s client, fewer than ${least.connections}`,
          block.line,
        );
      const pos = t === 'first' || t === 'middle' || t === 'last' ? position(got.addr) : undefined;
      if ((t === 'first' || t === 'middle' || t === 'last') && pos === undefined)
        return refuse(`${what}: ${t} (${got.addr}) is not in iptables' KUBE-SERVICES walk`, block.line);
      reading.connections[mode][t] = { ...got, ...(pos !== undefined && { position: pos }) };
    }
  }
  const pos = (t: Target) => reading.connections.iptables[t].position!;
  if (!(pos('first') < pos('middle') && pos('middle') < pos('last')))
    return refuse(
      `${what}: the first, middle and last Services are at ${pos('first')}, ${pos('middle')}, ${pos('last')} of the walk`,
      block.line,
    );
  for (const t of ['first', 'middle', 'last'] as const)
    if (reading.connections.iptables[t].addr !== reading.connections.nftables[t].addr)
      return refuse(`${what}: ${t} is not the same Service for both modes`, block.line);
  void at;
  return { count: reading };
}

/** What the evidence file states, per size, computed from the sweep (the build recomputes it). */
export interface GrowthSummaryPoint {
  size: number;
  services: number;
  modes: Record<
    GrowthMode,
    {
      /** Per direction of the change ("3 -> 4", "4 -> 3"): the distinct lines/chains/rules its sync wrote. */
      writes: Record<string, string>;
      /** The change's sync, seconds: median, min, max over the changes. */
      change: { n: number; median: number; min: number; max: number };
      full: { n: number; lines: number; chains: number; rules: number; median: number; min: number; max: number };
      /** Connection set-up, microseconds: median, 10th and 90th percentile. */
      connect: Record<Target, { n: number; median: number; p10: number; p90: number; position?: number }>;
    }
  >;
}

const round = (x: number, digits: number) => Number(x.toFixed(digits));
const stats = (xs: number[], digits: number) => ({
  n: xs.length,
  median: round(median(xs), digits),
  min: round(Math.min(...xs), digits),
  max: round(Math.max(...xs), digits),
});
/** A sync's writes as "lines/chains/rules". */
export const writes = (s: SyncReading) => `${s.lines}/${s.chains}/${s.rules}`;

export function summarize(sweep: GrowthSweep): GrowthSummaryPoint[] {
  return sweep.sizes.map((s) => ({
    size: s.size,
    services: s.services,
    modes: Object.fromEntries(
      GROWTH_MODES.map((m) => {
        const byDir = new Map<string, Set<string>>();
        for (const c of s.changes) {
          const k = `${c.from} -> ${c.to}`;
          byDir.set(k, (byDir.get(k) ?? new Set()).add(writes(c.modes[m])));
        }
        const fulls = s.fulls.map((f) => f.modes[m]);
        const f0 = fulls[0]!;
        return [
          m,
          {
            writes: Object.fromEntries([...byDir].map(([k, v]) => [k, [...v].join(', ')])),
            change: stats(
              s.changes.map((c) => c.modes[m].seconds),
              6,
            ),
            full: {
              ...stats(
                fulls.map((f) => f.seconds),
                6,
              ),
              lines: f0.lines,
              chains: f0.chains,
              rules: f0.rules,
            },
            connect: Object.fromEntries(
              TARGETS.map((t) => {
                const c = s.connections[m][t];
                return [
                  t,
                  {
                    n: c.us.length,
                    median: round(median(c.us), 1),
                    p10: round(quantile(c.us, 0.1), 1),
                    p90: round(quantile(c.us, 0.9), 1),
                    ...(c.position !== undefined && { position: c.position }),
                  },
                ];
              }),
            ),
          },
        ];
      }),
    ) as GrowthSummaryPoint['modes'],
  }));
}

/**
 * The counts CI compares between a fresh rerun and the committed sweep (tools/lab-check.ts): per size,
 * mode and direction of the change, the lines, chains and rules its sync wrote, and the full sync's.
 * Durations are left out (they vary by machine); their presence is checked by readGrowth.
 */
export function growthReadings(sweep: GrowthSweep, sizes?: number[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of summarize(sweep)) {
    if (sizes && !sizes.includes(p.size)) continue;
    out.set(`size ${p.size}: Services`, String(p.services));
    for (const m of GROWTH_MODES) {
      for (const [dir, w] of Object.entries(p.modes[m].writes))
        out.set(`size ${p.size}, ${m}, change ${dir}: lines/chains/rules`, w);
      const f = p.modes[m].full;
      out.set(`size ${p.size}, ${m}, full sync: lines/chains/rules`, `${f.lines}/${f.chains}/${f.rules}`);
    }
  }
  return out;
}

/** The fields a growth evidence file states about its sweep, as the output gives them. */
export function growthFields(sweep: GrowthSweep): {
  captured: string;
  startedAt: string;
  finishedAt: string;
  kubernetes: string;
  kernel: string;
  machine: string;
  loadavg: string[];
  iptables: string;
  nft: string;
  setting: string;
  command: string;
} {
  const version = (m: GrowthMode) => /git_version="([^"]*)"/.exec(sweep.versions[`kube-proxy ${m}`] ?? '')?.[1] ?? '';
  return {
    captured: sweep.started.slice(0, 10),
    startedAt: sweep.started,
    finishedAt: sweep.finished.split(' ')[0]!,
    kubernetes:
      version('iptables') === version('nftables')
        ? version('iptables')
        : `${version('iptables')} / ${version('nftables')}`,
    kernel: sweep.kernel,
    machine: sweep.machine,
    loadavg: sweep.loadavg,
    iptables: sweep.versions.iptables ?? '',
    nft: sweep.versions.nft ?? '',
    setting: sweep.setting,
    command: sweep.command,
  };
}
