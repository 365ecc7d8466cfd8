// The drain run's transcript (lab/drain.sh, one per mode): what an established connection did when
// its endpoint went, read from the raw output, never from what the run concluded. The transcript is a
// list of blocks, "==> <case>/<step> $ <command>", what the command printed, "<== <case>/<step>
// exit=<status>"; the client's lines are "<id> <answer>", the servers' "<time> <event>". Each case is
// refused when the change it records did not happen (the slice as the API server stored it, a sync
// that programmed it, the flow in conntrack before, the server stopped). Pure, no I/O.
import { iptablesWords } from './ex16.ts';
import { refuse, type CountResult } from './shared.ts';

export const DRAIN_CASES = ['tcp-removed', 'terminating', 'udp-removed', 'server-stopped'] as const;
export type DrainCaseName = (typeof DRAIN_CASES)[number];

export interface Block {
  case: string;
  step: string;
  command: string;
  lines: string[];
  exit: number;
  /** 1-based line of the block's "==>" line in the output. */
  line: number;
}

/** One conntrack entry: the original direction's addresses and the reply's source (the endpoint). */
export interface ConntrackEntry {
  proto: string;
  state?: string;
  src: string;
  dst: string;
  sport: string;
  dport: string;
  /** Where the reply comes from: the endpoint the flow was sent to. */
  replySrc: string;
}

/** What a client answer was: a reply from an endpoint (by name), or an error. */
export type Answer = { reply: string; text: string } | { error: string };

/** New connections, counted by where they went. */
export interface NewConnections {
  tries: number;
  /** Replies by endpoint name. */
  by: Record<string, number>;
  failed: number;
  /** The errors, as the client printed them (distinct). */
  errors: string[];
}

export interface DrainCase {
  name: DrainCaseName;
  /** The endpoint the held connection or flow reached (ep1..ep3). */
  endpoint: string;
  address: string;
  /** Steps' facts, by name; what each case records (see drainReadings). */
  facts: Record<string, string>;
  news: Record<string, NewConnections>;
}

export interface DrainCount {
  kind: 'drain';
  exercise?: never;
  service: string;
  clusterIP: string;
  /** Endpoint name -> address, from the servers' first lines. */
  endpoints: Record<string, string>;
  cases: DrainCase[];
}

export const DRAIN_EXPECTED =
  'the drain run\'s blocks ("==> <case>/<step> $ ...") for the cases ' + DRAIN_CASES.join(', ');

/** Splits the output into blocks; a line outside a block that is not a "#" comment is refused. */
export function readBlocks(output: string): CountResult<Block[]> {
  const blocks: Block[] = [];
  let open: Block | undefined;
  const lines = output.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const start = /^==> ([a-z-]+)\/([a-z0-9-]+) \$ (.*)$/.exec(line);
    const end = /^<== ([a-z-]+)\/([a-z0-9-]+) exit=(\d+)$/.exec(line);
    if (open) {
      if (end && end[1] === open.case && end[2] === open.step) {
        open.exit = Number(end[3]);
        blocks.push(open);
        open = undefined;
      } else if (start) return refuse(`block ${open.case}/${open.step} has no end line before the next block`, i + 1);
      else open.lines.push(line);
    } else if (start) open = { case: start[1]!, step: start[2]!, command: start[3]!, lines: [], exit: -1, line: i + 1 };
    else if (line !== '' && !line.startsWith('# '))
      return refuse(`a line outside any block: "${line.slice(0, 80)}"`, i + 1);
  }
  if (open) return refuse(`block ${open.case}/${open.step} has no end line`, open.line);
  return { count: blocks };
}

/** A client's line "<id> reply <endpoint> <text>..." or "<id> error <err>". */
export function readAnswer(line: string | undefined): Answer | undefined {
  const m = /^c\d+ (reply|error) (.*)$/.exec(line ?? '');
  if (!m) return undefined;
  if (m[1] === 'error') return { error: m[2]! };
  const [who, ...rest] = m[2]!.split(' ');
  return { reply: who!, text: rest.join(' ') };
}

/** Every entry of a `conntrack -L` listing. */
export function readConntrack(lines: string[]): ConntrackEntry[] {
  const out: ConntrackEntry[] = [];
  for (const line of lines) {
    const words = line.trim().split(/\s+/);
    const proto = words[0];
    if (proto !== 'tcp' && proto !== 'udp') continue;
    const kv = words.filter((w) => /^[a-z]+=/.test(w)).map((w) => w.split('=') as [string, string]);
    const first = (k: string, n = 0) => kv.filter(([key]) => key === k)[n]?.[1];
    const state = /^[A-Z_]+$/.test(words[3] ?? '') ? words[3] : undefined;
    const [src, dst, sport, dport, replySrc] = [
      first('src'),
      first('dst'),
      first('sport'),
      first('dport'),
      first('src', 1),
    ];
    if (!src || !dst || !sport || !dport || !replySrc) continue;
    out.push({ proto, ...(state && { state }), src, dst, sport, dport, replySrc });
  }
  return out;
}

/**
 * The endpoint addresses one port of the Service sends to, in the rules a block recorded: for
 * iptables the KUBE-SVC-* rules whose comment is "<service>:<port> -> <address>:<port>"; for nftables
 * the addresses in the Service port's chain (service-…-<namespace>/<name>/<port>/…).
 */
export function rulesEndpoints(lines: string[], backend: string, service: string, port: string): string[] {
  const found = new Set<string>();
  if (backend === 'iptables') {
    for (const line of lines) {
      if (!line.startsWith('-A KUBE-SVC-')) continue;
      const w = iptablesWords(line);
      const comment = w[w.indexOf('--comment') + 1] ?? '';
      const m = new RegExp(`^${service.replace(/[/.]/g, '\\$&')}:${port} -> ([0-9.]+):\\d+$`).exec(comment);
      if (m) found.add(m[1]!);
    }
  } else {
    let on = false;
    for (const line of lines) {
      const chain = /^\tchain (\S+) \{$/.exec(line);
      if (chain) on = chain[1]!.startsWith('service-') && chain[1]!.includes(`-${service}/${port}/`);
      else if (/^\t\}$/.test(line)) on = false;
      else if (on) for (const m of line.matchAll(/(\d+\.\d+\.\d+\.\d+)(?: \. |:)\d+/g)) found.add(m[1]!);
    }
  }
  return [...found].sort();
}

/** The slice as stored: "<address> ready=<b> serving=<b> terminating=<b>" lines. */
export function readSlice(lines: string[]): Map<string, { ready: string; serving: string; terminating: string }> {
  const out = new Map<string, { ready: string; serving: string; terminating: string }>();
  for (const line of lines) {
    const m = /^(\d+\.\d+\.\d+\.\d+) ready=(\w*) serving=(\w*) terminating=(\w*)$/.exec(line);
    if (m) out.set(m[1]!, { ready: m[2]!, serving: m[3]!, terminating: m[4]! });
  }
  return out;
}

/** A sync that programmed the Service's slice: its "Network programming" line, then "SyncProxyRules complete". */
export function programmed(lines: string[], service: string): boolean {
  const at = lines.findIndex((l) => l.includes('"Network programming"') && l.includes(`endpoint="${service}"`));
  return at >= 0 && lines.slice(at + 1).some((l) => l.includes('"SyncProxyRules complete"'));
}

const noticeOf = (a: Answer | undefined, endpoint: string): string =>
  a === undefined
    ? 'no answer recorded'
    : 'error' in a
      ? 'failed'
      : a.reply === endpoint
        ? 'answered by its endpoint'
        : `answered by another endpoint`;

/** Counts a block of new-connection lines by where each went. */
export function countNew(lines: string[]): NewConnections {
  const out: NewConnections = { tries: 0, by: {}, failed: 0, errors: [] };
  for (const line of lines) {
    const a = readAnswer(line);
    if (!a) continue;
    out.tries++;
    if ('error' in a) {
      out.failed++;
      const e = a.error.replace(/^dial tcp [0-9.:]+: /, '');
      if (!out.errors.includes(e)) out.errors.push(e);
    } else out.by[a.reply] = (out.by[a.reply] ?? 0) + 1;
  }
  return out;
}

/** Reads a drain transcript for its backend: the four cases, or why it cannot back a cell. */
export function readDrain(output: string, backend: string): CountResult<DrainCount> {
  const read = readBlocks(output);
  if (!read.count) return read;
  const blocks = read.count;
  const head =
    /^# Drain cases on lab-node-(\S+) \(kube-proxy --proxy-mode=(\S+)\): Service (\S+), ClusterIP ([0-9.]+),/m.exec(
      output,
    );
  if (!head) return refuse('no "# Drain cases on lab-node-<mode> ...: Service <ns/name>, ClusterIP <ip>," line');
  if (head[2] !== backend)
    return refuse(`the run was on a node in mode "${head[2]}", but this is backend "${backend}"`, 1);
  const service = head[3]!;
  const clusterIP = head[4]!;
  const get = (c: string, step: string) => blocks.find((b) => b.case === c && b.step === step);

  const endpoints: Record<string, string> = {};
  for (const b of blocks.filter((x) => x.case === 'setup' && x.step.startsWith('server-'))) {
    const m = /^\S+ (ep\d) listening tcp=([0-9.]+):\d+ udp=[0-9.]+:\d+$/.exec(b.lines[0] ?? '');
    if (m) endpoints[m[1]!] = m[2]!;
  }
  if (Object.keys(endpoints).length < 2)
    return refuse('the setup blocks name fewer than two listening endpoint servers');

  const cases: DrainCase[] = [];
  for (const name of DRAIN_CASES) {
    const need = (step: string): Block | { problem: string; line?: number } =>
      get(name, step) ?? refuse(`case ${name}: no block ${name}/${step}`);
    const isBlock = (b: Block | { problem: string }): b is Block => 'lines' in b;
    const steps: Record<string, Block> = {};
    // Every case opens with its held connection (or UDP flow), the rules and conntrack (begin_case).
    const opening = name === 'udp-removed' ? ['flow-open', 'flow-before'] : ['held-open', 'held-before'];
    const removal = ['removed-slice', 'removed-sync-log', 'removed-rules', 'conntrack-after'];
    const wanted: Record<DrainCaseName, string[]> = {
      'tcp-removed': [...removal, 'held-after', 'new'],
      terminating: ['beside-ready-slice', 'beside-ready-sync-log', 'beside-ready-rules', 'beside-ready-new'].concat([
        'beside-ready-held',
        'alone-slice',
        'alone-sync-log',
        'alone-rules',
        'alone-new',
        'alone-held',
      ]),
      'udp-removed': [...removal, 'flow-after', 'conntrack-end'],
      'server-stopped': ['stop', 'held-after', 'conntrack-after', 'new', 'rules-end'],
    };
    for (const step of [...opening, 'rules-before', 'conntrack-before', ...wanted[name]]) {
      const b = need(step);
      if (!isBlock(b)) return b;
      steps[step] = b;
    }
    const at = (step: string) => steps[step]!.line;
    const opened = steps[opening[0]!]!;
    const local = /local=[0-9.]+:(\d+)/.exec(opened.lines[0] ?? '')?.[1];
    if (!local)
      return refuse(`case ${name}: the client opened no connection (${opened.lines[0] ?? 'nothing'})`, opened.line);
    const first = readAnswer(steps[opening[1]!]!.lines[0]);
    if (!first || 'error' in first || !endpoints[first.reply])
      return refuse(
        `case ${name}: the first message had no answer from an endpoint`,
        at(name === 'udp-removed' ? 'flow-before' : 'held-before'),
      );
    const endpoint = first.reply;
    const address = endpoints[endpoint]!;
    const others = Object.keys(endpoints).filter((e) => e !== endpoint);
    const proto = name === 'udp-removed' ? 'udp' : 'tcp';
    // The flow's entries: from its client port to the ClusterIP. Should a listing hold more than one
    // (an earlier connection's TIME_WAIT entry from the same port), the one the endpoint answers wins.
    const fromPort = (step: string) =>
      readConntrack(steps[step]!.lines).filter((e) => e.proto === proto && e.sport === local && e.dst === clusterIP);
    const flow = (step: string) => {
      const found = fromPort(step);
      return found.find((e) => e.replySrc === address) ?? found[0];
    };
    const seen = (step: string) => {
      const found = fromPort(step);
      if (found.length === 0) return `it lists no ${proto} entry from port ${local} to ${clusterIP}`;
      return `from port ${local} it lists ${found.map((e) => `${e.state ?? 'an entry'} answered by ${e.replySrc}`).join(', ')}`;
    };
    const facts: Record<string, string> = {};
    const news: Record<string, NewConnections> = {};

    const before = flow('conntrack-before');
    if (before?.replySrc !== address)
      return refuse(
        `case ${name}: conntrack before the change shows no ${proto} entry from port ${local} to ${endpoint} (${address}): ${seen('conntrack-before')}`,
        at('conntrack-before'),
      );
    if (!rulesEndpoints(steps['rules-before']!.lines, backend, service, proto).includes(address))
      return refuse(`case ${name}: ${endpoint} (${address}) is not in the rules before the change`, at('rules-before'));
    const sliceShows = (step: string, want: Record<string, string>): string | undefined => {
      const slice = readSlice(steps[step]!.lines);
      for (const [ep, cond] of Object.entries(want)) {
        const got = slice.get(endpoints[ep]!);
        const shown = got ? `ready=${got.ready} serving=${got.serving} terminating=${got.terminating}` : 'absent';
        if (shown !== cond) return `${ep} (${endpoints[ep]}) is ${shown} in the stored slice, the case needs ${cond}`;
      }
      return undefined;
    };
    const READY = 'ready=true serving=true terminating=false';
    const TERMINATING = 'ready=false serving=true terminating=true';
    const changed = (prefix: string, want: Record<string, string>) => {
      const wrong = sliceShows(`${prefix}-slice`, want);
      if (wrong) return refuse(`case ${name}: the recorded change did not happen: ${wrong}`, at(`${prefix}-slice`));
      if (!programmed(steps[`${prefix}-sync-log`]!.lines, service))
        return refuse(
          `case ${name}: kube-proxy's log shows no sync that programmed ${service}'s slice after the change`,
          at(`${prefix}-sync-log`),
        );
      return undefined;
    };
    const inRules = (step: string) => rulesEndpoints(steps[step]!.lines, backend, service, proto);
    const yes = (b: boolean) => (b ? 'yes' : 'no');

    if (name === 'tcp-removed' || name === 'udp-removed') {
      const bad = changed('removed', { [endpoint]: 'absent', ...Object.fromEntries(others.map((o) => [o, READY])) });
      if (bad) return bad;
      const after = inRules('removed-rules');
      facts['removed endpoint in the rules after the sync'] = yes(after.includes(address));
      facts['endpoints in the rules after the sync'] = String(after.length);
      const entry = flow('conntrack-after');
      facts["flow's conntrack entry after the sync"] =
        entry === undefined
          ? 'gone'
          : entry.replySrc === address
            ? 'kept (to the removed endpoint)'
            : 'to another endpoint';
      const deleted = steps['removed-sync-log']!.lines.filter(
        (l) =>
          l.includes('"Deleting conntrack entry"') && l.includes(`sport=${local} `) && l.includes(`src=${address} `),
      );
      facts["kube-proxy logged deleting the flow's entry"] = yes(deleted.length > 0);
    }
    if (name === 'tcp-removed') {
      facts['held connection after the removal'] = noticeOf(readAnswer(steps['held-after']!.lines[0]), endpoint);
      news['new connections after the removal'] = countNew(steps['new']!.lines);
    }
    if (name === 'udp-removed') {
      facts['next datagram'] = noticeOf(readAnswer(steps['flow-after']!.lines[0]), endpoint);
      const end = flow('conntrack-end');
      facts["flow's conntrack entry after the next datagram"] =
        end === undefined ? 'none' : end.replySrc === address ? 'to the removed endpoint' : 'to another endpoint';
    }
    if (name === 'terminating') {
      let bad = changed('beside-ready', {
        [endpoint]: TERMINATING,
        ...Object.fromEntries(others.map((o) => [o, READY])),
      });
      if (bad) return bad;
      const beside = inRules('beside-ready-rules');
      facts['beside ready ones: terminating endpoint in the rules'] = yes(beside.includes(address));
      facts['beside ready ones: endpoints in the rules'] = String(beside.length);
      news['beside ready ones: new connections'] = countNew(steps['beside-ready-new']!.lines);
      facts['beside ready ones: held connection'] = noticeOf(
        readAnswer(steps['beside-ready-held']!.lines[0]),
        endpoint,
      );
      bad = changed('alone', { [endpoint]: TERMINATING, ...Object.fromEntries(others.map((o) => [o, 'absent'])) });
      if (bad) return bad;
      const alone = inRules('alone-rules');
      facts['alone: terminating endpoint in the rules'] = yes(alone.includes(address));
      facts['alone: endpoints in the rules'] = String(alone.length);
      news['alone: new connections'] = countNew(steps['alone-new']!.lines);
      facts['alone: held connection'] = noticeOf(readAnswer(steps['alone-held']!.lines[0]), endpoint);
    }
    if (name === 'server-stopped') {
      const stop = steps['stop']!;
      if (
        stop.exit !== 0 ||
        !stop.lines.some((l) => l.startsWith(`drainpoint serve ${endpoint} `) && l.includes(' stopped'))
      )
        return refuse(`case ${name}: the block does not show ${endpoint}'s server stopped`, stop.line);
      const held = readAnswer(steps['held-after']!.lines[0]);
      facts['held connection after the stop'] = noticeOf(held, endpoint);
      if (held && 'error' in held) facts['held connection error'] = held.error;
      const entry = flow('conntrack-after');
      facts["flow's conntrack entry after the stop"] =
        entry === undefined
          ? 'gone'
          : entry.state === 'ESTABLISHED'
            ? 'ESTABLISHED'
            : `not ESTABLISHED (${entry.state ?? 'no state'})`;
      facts['stopped endpoint in the rules'] = yes(inRules('rules-end').includes(address));
      news['new connections after the stop'] = countNew(steps['new']!.lines);
    }
    cases.push({ name, endpoint, address, facts, news });
  }
  return { count: { kind: 'drain', service, clusterIP, endpoints, cases } };
}

/**
 * What CI compares between a fresh run and the committed evidence: every fact, and for new
 * connections only what does not depend on the random pick (how many went to the case's endpoint,
 * how many of the other endpoints were reached, whether any failed). The failure counts and the
 * errors' words are shown, not compared, except whether there were any.
 */
export function drainReadings(count: DrainCount): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of count.cases) {
    for (const [k, v] of Object.entries(c.facts)) {
      if (k === 'held connection error') continue;
      out.set(`${c.name}: ${k}`, v);
    }
    for (const [k, n] of Object.entries(c.news)) {
      const others = Object.keys(count.endpoints).filter((e) => e !== c.endpoint);
      const to = n.by[c.endpoint] ?? 0;
      out.set(`${c.name}: ${k} to its endpoint`, to === 0 ? 'none' : to === n.tries ? 'all' : 'some');
      out.set(
        `${c.name}: ${k}, other endpoints reached`,
        `${others.filter((o) => (n.by[o] ?? 0) > 0).length} of ${others.length}`,
      );
      out.set(`${c.name}: ${k} that failed`, n.failed === 0 ? 'none' : 'some');
    }
  }
  return out;
}
