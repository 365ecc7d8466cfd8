// Exercise 18 (endpoint change): what kube-proxy logged, at -v=9, that it handed the kernel for one
// sync. kube-proxy logs it (pkg/proxy/iptables/proxier.go and pkg/proxy/nftables/proxier.go,
// syncProxyRules, at kubernetes/kubernetes 6f137b77 and later):
//   - iptables: "Restoring iptables", key "rules", the iptables-restore input as a []byte (one
//     quoted line); in releases with contextual logging, through a logger that carries "ipFamily",
//     which klog prints before "rules";
//   - nftables: "Running nftables transaction", key "transaction", the transaction as a string (a
//     multi-line `transaction=<` block), one `<verb> <object> <family> <table> …` line per operation
//     (kubernetes-sigs/knftables v0.0.22 transaction.go String L61, objects.go writeOperation of a
//     chain L193-L202 and of a rule L305-L308).
// The log is a container log file (CRI records, ./cri.ts) of klog entries (./klog.ts); the payload
// is read by its key and counted: its lines, the chains it declares and the rules it writes. A sync
// that cannot be read whole, or whose payload counts no rule, refuses the count: it is not a
// measurement. Nor is a sync that does not show the change the capture recorded making (./change.ts):
// the Service's endpoints, as the rules before the scale hold them, must move by the replicas the
// Deployment was scaled by in the syncs, and the first sync that shows them moved is the one whose
// cost the cell reports. Pure, no I/O.
import { readChangeRecord, serviceEndpoints, type ChangeRecord, type ServiceEndpoints } from './change.ts';
import { logLines } from './cri.ts';
import { klogEntries } from './klog.ts';
import { missing, refuse, type ExerciseCounter, type CountResult } from './shared.ts';

/**
 * Each backend's sync payload: the message kube-proxy logs at -v=9 with what it writes to the
 * kernel, the key of the payload, what a payload line counts as (a chain it declares, a rule it
 * writes), and the words the evidence page uses for them (`code` in backticks).
 */
interface PayloadFormat {
  marker: string;
  key: string;
  chain: RegExp;
  rule: RegExp;
  words: PayloadWords;
}
export interface PayloadWords {
  payload: string;
  chains: string;
  rules: string;
}

const FORMATS: Readonly<Record<string, PayloadFormat>> = {
  // iptables-restore input: ":CHAIN policy [counters]" declares a chain; "-A CHAIN …" appends a rule.
  iptables: {
    marker: 'Restoring iptables',
    key: 'rules',
    chain: /^:/,
    rule: /^-A /,
    words: {
      payload: 'the `iptables-restore` input',
      chains: 'Chains declared (`:` lines)',
      rules: 'Rules (`-A` lines)',
    },
  },
  // nft commands: "add|create chain …" declares a chain; "add|insert|replace rule …" writes a rule.
  nftables: {
    marker: 'Running nftables transaction',
    key: 'transaction',
    chain: /^(?:add|create) chain /,
    rule: /^(?:add|insert|replace) rule /,
    words: {
      payload: 'the `nft` transaction',
      chains: 'Chains added (`add chain`)',
      rules: 'Rules written (`add`, `insert`, `replace rule`)',
    },
  },
};

/** The message kube-proxy logs at -v=9 with what it writes to the kernel, per backend. */
export const SYNC_MARKER: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(FORMATS).map(([b, f]) => [b, f.marker]),
);
/** The key of that entry's payload, per backend. */
export const SYNC_KEY: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(FORMATS).map(([b, f]) => [b, f.key]),
);

export interface SyncPayload {
  marker: string;
  /** The key the payload was logged under. */
  key: string;
  /** The output line the entry starts on. */
  line: number;
  /** How klog printed the payload: one quoted line, or its multi-line block. */
  form: 'quoted' | 'multi-line' | 'plain';
  /** The IP family the entry was logged for, when the logger carried it. */
  ipFamily?: string;
  /** The payload, decoded, one entry per line. */
  lines: string[];
  /** Chains the payload declares (iptables ":…" lines; nftables "add chain" operations). */
  chains: number;
  /** Rules the payload writes (iptables "-A" lines; nftables "add/insert/replace rule" operations). */
  rules: number;
  /** The changed Service's chains this sync writes, with their endpoints (none: it does not write them). */
  service?: ServiceEndpoints[];
}

/** The change, shown: the Service's endpoints before, and after as the sync that moved them wrote them. */
export interface ShownChange extends ChangeRecord {
  /** The endpoints the Service gains (negative: loses): replicas after less before. */
  delta: number;
  after: ServiceEndpoints[];
  /** Index (in `syncs`) of the first sync that shows every chain of the Service moved. */
  sync: number;
}

/** Every sync payload logged for `backend`, in order, or the first reason one cannot be counted. */
export function readSyncLog(output: string, backend: string): CountResult<SyncPayload[]> {
  const format = FORMATS[backend];
  if (!format) return missing(ex18);
  const { marker, key, chain, rule } = format;
  const log = logLines(output);
  if (log.problem) return refuse(log.problem, log.line);
  const klog = klogEntries(log.lines, (message) => message === marker);
  if (klog.problem) return refuse(klog.problem, klog.line);
  if (klog.entries.length === 0) return missing(ex18);
  const syncs: SyncPayload[] = [];
  for (const entry of klog.entries) {
    const value = entry.values.get(key);
    const keys = [...entry.values.keys()];
    if (!value)
      return refuse(
        `the "${marker}" entry has no ${key}= value, which is where kube-proxy logs its payload (this entry's keys: ${keys.join(', ') || 'none'})`,
        entry.line,
      );
    const lines = value.text === '' ? [] : value.text.replace(/\n$/, '').split('\n');
    const chains = lines.filter((l) => chain.test(l)).length;
    const rules = lines.filter((l) => rule.test(l)).length;
    if (lines.length === 0)
      return refuse(
        `the "${marker}" entry's ${key}= value is empty: it counts no rules, so it measures nothing`,
        entry.line,
      );
    if (rules === 0)
      return refuse(
        `the "${marker}" entry's ${key}= value counts no rules (${lines.length} line(s), ${chains} chain(s) declared): a payload with no rule measures nothing`,
        entry.line,
      );
    const ipFamily = entry.values.get('ipFamily')?.text;
    syncs.push({
      marker,
      key,
      line: entry.line,
      form: value.form,
      ...(ipFamily !== undefined && { ipFamily }),
      lines,
      chains,
      rules,
    });
  }
  return { count: syncs };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The syncs, each with the changed Service's chains it writes, and the change they show: every chain
 * of the Service goes, sync by sync, from its count before the scale to that count plus the
 * replicas added, and stays there. Refused, at the sync's line, when a sync writes another count,
 * or when no sync writes the new one.
 */
export function showChange(
  syncs: SyncPayload[],
  change: ChangeRecord,
  backend: string,
): CountResult<{ syncs: SyncPayload[]; change: ShownChange }> {
  const delta = change.replicasAfter - change.replicasBefore;
  const scaled = `the capture recorded deployment ${change.deployment} scaled ${change.replicasBefore} -> ${change.replicasAfter}`;
  const withService = syncs.map((s) => ({
    ...s,
    service: serviceEndpoints(s.lines.join('\n'), backend, change.service, false),
  }));
  let shown = -1;
  const after: ServiceEndpoints[] = [];
  for (const chain of change.before) {
    const want = chain.endpoints.length + delta;
    let first = -1;
    for (let i = 0; i < withService.length; i++) {
      const written = withService[i]!.service.find((c) => c.chain === chain.chain);
      if (!written) continue;
      const n = written.endpoints.length;
      if (first < 0 && n === chain.endpoints.length) continue;
      if (n !== want)
        return refuse(
          `sync ${i + 1} writes ${chain.chain} of service ${change.service} with ${plural(n, 'endpoint')}, but ${scaled}: from the ${chain.endpoints.length} in the rules before the scale it should have ${want}. This sync does not show the change it would measure`,
          withService[i]!.line,
        );
      if (first < 0) {
        first = i;
        after.push(written);
      }
    }
    if (first < 0) {
      const wrote = withService.flatMap((s, i) =>
        s.service.filter((c) => c.chain === chain.chain).map((c) => `sync ${i + 1}: ${c.endpoints.length}`),
      );
      return refuse(
        `no sync writes ${chain.chain} of service ${change.service} with the ${want} endpoints ${scaled} gives it (${chain.endpoints.length} in the rules before the scale; ${wrote.length > 0 ? `written: ${wrote.join(', ')}` : 'no sync writes that chain'}): the syncs do not show the change, so they cannot measure it`,
        withService[0]!.line,
      );
    }
    shown = Math.max(shown, first);
  }
  return { count: { syncs: withService, change: { ...change, delta, after, sync: shown } } };
}

export const ex18: ExerciseCounter<{ exercise: 18; words: PayloadWords; syncs: SyncPayload[]; change: ShownChange }> = {
  exercise: 18,
  expected:
    'the sync payload kube-proxy logs at -v=9 ("Restoring iptables" with rules= for iptables, "Running nftables transaction" with transaction= for nftables)',
  count(output, backend) {
    const r = readSyncLog(output, backend);
    if (!r.count) return r;
    const change = readChangeRecord(output, backend);
    if (!change.count) return change;
    const shown = showChange(r.count, change.count, backend);
    return shown.count ? { count: { exercise: 18, words: FORMATS[backend]!.words, ...shown.count } } : shown;
  },
};
