// What an evidence file's raw output shows, read by code (never typed): for exercise 16 the
// Service chains of an `iptables-save -t nat` dump and the rules that pick among their endpoints,
// for exercise 17 the `numgen random mod N` verdict maps of `nft list table ip kube-proxy`, for
// exercise 18 the payload kube-proxy logged for one sync. Pure functions, no I/O: the build's
// shape check (checks.ts), the evidence page and `npm run evidence -- add` all read through here.
import { createHash } from 'node:crypto';

/** sha256 of a text as UTF-8, hex: what the capture script's `sha256sum` prints for the raw output. */
export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

// --- exercise 16: iptables-save -t nat --------------------------------------------------------

export interface IptablesEndpointRule {
  /** The endpoint chain it jumps to (KUBE-SEP-…). */
  target: string;
  /** "random" (statistic match with a probability), "affinity" (recent match), or "rest" (no match: takes what is left). */
  kind: 'random' | 'affinity' | 'rest';
  /** The statistic match's probability, as printed. */
  probability?: string;
  /** The rule as dumped, without "-A <chain> ". */
  rule: string;
}

export interface IptablesService {
  chain: string;
  /** "namespace/name:port" from the rules' comments, when they carry one. */
  service?: string;
  /** Distinct endpoint chains the Service chain jumps to, in rule order. */
  endpoints: Array<{ chain: string; dnat?: string; share?: number }>;
  /** The rules that pick among them (affinity rules first, as kube-proxy writes them). */
  picks: IptablesEndpointRule[];
}

/** Splits one iptables-save rule into words; "…" quoted words (comments) keep their spaces. */
export function iptablesWords(line: string): string[] {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!);
  return words;
}

const after = (words: string[], flag: string): string | undefined => {
  const i = words.indexOf(flag);
  return i >= 0 ? words[i + 1] : undefined;
};

/** Every KUBE-SVC-* chain of a nat dump that jumps to at least one KUBE-SEP-* chain. */
export function readIptablesNat(output: string): IptablesService[] {
  const rules = new Map<string, Array<{ words: string[]; line: string }>>();
  let inNat = false;
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('*')) inNat = line === '*nat';
    if (!inNat || !line.startsWith('-A ')) continue;
    const words = iptablesWords(line);
    const chain = words[1]!;
    if (!rules.has(chain)) rules.set(chain, []);
    rules.get(chain)!.push({ words, line });
  }
  const services: IptablesService[] = [];
  for (const [chain, list] of rules) {
    if (!chain.startsWith('KUBE-SVC-')) continue;
    const picks: IptablesEndpointRule[] = [];
    let service: string | undefined;
    for (const { words, line } of list) {
      const target = after(words, '-j');
      if (!target?.startsWith('KUBE-SEP-')) continue;
      const comment = after(words, '--comment');
      service ??= comment?.split(' -> ')[0];
      const probability = words.includes('statistic') ? after(words, '--probability') : undefined;
      const kind = words.includes('recent') ? 'affinity' : probability !== undefined ? 'random' : 'rest';
      picks.push({ target, kind, ...(probability !== undefined && { probability }), rule: line.replace(/^-A \S+ /, '') });
    }
    if (picks.length === 0) continue;
    const endpoints: IptablesService['endpoints'] = [];
    for (const p of picks) if (!endpoints.some((e) => e.chain === p.target)) endpoints.push({ chain: p.target });
    // Each endpoint's share of new connections: the cascade of random rules, the last taking the rest.
    let left = 1;
    const cascade = picks.filter((p) => p.kind !== 'affinity');
    for (const p of cascade) {
      const share = p.kind === 'random' ? left * Number(p.probability) : left;
      const e = endpoints.find((x) => x.chain === p.target)!;
      e.share = (e.share ?? 0) + share;
      left -= share;
    }
    for (const e of endpoints) {
      const dnat = rules.get(e.chain)?.map((r) => after(r.words, '--to-destination')).find((d) => d !== undefined);
      if (dnat) e.dnat = dnat;
    }
    services.push({ chain, ...(service && { service }), endpoints, picks });
  }
  return services;
}

// --- exercise 17: nft list table ip kube-proxy ------------------------------------------------

export interface NftService {
  chain: string;
  /** N of `numgen random mod N`. */
  modulus: number;
  /** The verdict map's elements: the number numgen draws, and the endpoint chain it goes to. */
  endpoints: Array<{ index: number; verdict: string; chain: string; dnat?: string }>;
  /** The rule as listed. */
  rule: string;
}

/** The chains of a listed table: name -> body lines (trimmed). */
function nftChains(output: string): Map<string, string[]> {
  const chains = new Map<string, string[]>();
  let current: string | undefined;
  let depth = 0;
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    const open = /^chain\s+(\S+)\s*\{$/.exec(line);
    if (open && current === undefined) {
      current = open[1]!.replace(/^"(.*)"$/, '$1');
      chains.set(current, []);
      depth = 1;
      continue;
    }
    if (current === undefined) continue;
    depth += (line.match(/\{/g)?.length ?? 0) - (line.match(/\}/g)?.length ?? 0);
    if (depth <= 0) {
      current = undefined;
      continue;
    }
    chains.get(current)!.push(line);
  }
  return chains;
}

/** Every chain whose rule draws `numgen random mod N` into a verdict map of endpoint chains. */
export function readNftTable(output: string): NftService[] {
  const chains = nftChains(output);
  const services: NftService[] = [];
  for (const [chain, body] of chains) {
    const text = body.join(' ');
    const m = /numgen random mod (\d+)\s+vmap\s*\{([^}]*)\}/.exec(text);
    if (!m) continue;
    const endpoints: NftService['endpoints'] = [];
    for (const el of m[2]!.split(',')) {
      const e = /^\s*(\d+)\s*:\s*(goto|jump)\s+(\S+?)\s*$/.exec(el);
      if (!e) continue;
      const target = e[3]!.replace(/^"(.*)"$/, '$1');
      const dnat = chains.get(target)?.map((l) => /\bdnat to (\S+)/.exec(l)?.[1]).find((d) => d !== undefined);
      endpoints.push({ index: Number(e[1]), verdict: e[2]!, chain: target, ...(dnat && { dnat }) });
    }
    const rule = body.find((l) => l.includes('numgen random mod')) ?? m[0];
    services.push({ chain, modulus: Number(m[1]), endpoints, rule });
  }
  return services;
}

// --- exercise 18: one sync's payload in kube-proxy's log ---------------------------------------

/** The message kube-proxy logs at -v=9 with what it writes to the kernel, per backend. */
export const SYNC_MARKER: Readonly<Record<string, string>> = {
  iptables: 'Restoring iptables',
  nftables: 'Running nftables transaction',
};

export interface SyncPayload {
  marker: string;
  /** The logged payload, one entry per line, as klog wrote it (multi-line values between "=<" and " >"). */
  lines: string[];
  /** iptables: chain declarations (":KUBE-…") and rules ("-A …") in the restore input. */
  chains?: number;
  rules?: number;
}

/** A container log line's CRI prefix ("<time> stderr F "), removed. */
const unCri = (line: string): string => line.replace(/^\S+ (?:stdout|stderr) [PF] /, '');

/** Every sync payload logged for `backend`, in order; empty when the output has none. */
export function readSyncLog(output: string, backend: string): SyncPayload[] {
  const marker = SYNC_MARKER[backend];
  if (!marker) return [];
  const lines = output.split('\n').map(unCri);
  const syncs: SyncPayload[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = lines[i]!;
    if (!head.includes(`"${marker}"`)) continue;
    const payload: string[] = [];
    if (/=<\s*$/.test(head)) {
      // klog's multi-line value: the lines after "key=<", each indented by a tab, up to " >".
      for (i++; i < lines.length && !/^\s*>\s*$/.test(lines[i]!); i++) payload.push(lines[i]!.replace(/^\t/, ''));
    } else {
      // A value klog kept on the line: key="…" with \n escapes.
      const inline = /"\s+\w+="((?:[^"\\]|\\.)*)"/.exec(head.slice(head.indexOf(`"${marker}"`)));
      if (inline) payload.push(...inline[1]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').split('\n').filter((l) => l !== ''));
    }
    if (payload.length === 0) continue;
    syncs.push({
      marker,
      lines: payload,
      ...(backend === 'iptables' && {
        chains: payload.filter((l) => l.startsWith(':')).length,
        rules: payload.filter((l) => l.startsWith('-A ')).length,
      }),
    });
  }
  return syncs;
}

// --- per exercise --------------------------------------------------------------------------

export type Reading =
  | { exercise: 16; services: IptablesService[] }
  | { exercise: 17; services: NftService[] }
  | { exercise: 18; syncs: SyncPayload[] };

/** What each exercise's output must show, in the words of a build error. */
export const EXPECTED_SHAPE: Readonly<Record<number, string>> = {
  16: 'a KUBE-SVC-… chain of the nat table with its jumps to KUBE-SEP-… endpoint chains (the output of `iptables-save -t nat`)',
  17: 'a chain with a `numgen random mod N vmap { … }` rule mapping to endpoint chains (the output of `nft list table ip kube-proxy`)',
  18: 'the sync payload kube-proxy logs at -v=9 ("Restoring iptables" for iptables, "Running nftables transaction" for nftables)',
};

/**
 * The reading of an output for its exercise and backend: `reading` when the output shows what the
 * exercise looks at, `problem` (for a build error) when it does not; both undefined for an
 * exercise this module has no reader for.
 */
export function readOutput(exercise: number, backend: string, output: string): { reading?: Reading; problem?: string } {
  const missing = (): { problem: string } => ({ problem: `output does not show what exercise ${exercise} looks at: expected ${EXPECTED_SHAPE[exercise]}` });
  switch (exercise) {
    case 16: {
      const services = readIptablesNat(output);
      return services.length > 0 ? { reading: { exercise, services } } : missing();
    }
    case 17: {
      const services = readNftTable(output).filter((s) => s.endpoints.length > 0);
      return services.length > 0 ? { reading: { exercise, services } } : missing();
    }
    case 18: {
      const syncs = readSyncLog(output, backend);
      return syncs.length > 0 ? { reading: { exercise, syncs } } : missing();
    }
    default:
      return {};
  }
}
