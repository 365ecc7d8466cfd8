// Exercise 18's proof that the change it measures happened: what the capture script recorded
// doing and seeing ("# change: key=value" lines: the Deployment and its Service, replicas before and
// after, each kubectl command's exit status; "# kubectl: " lines, what kubectl printed), the
// Service's endpoints in the rules dumped before the scale (between "# ==> rules before the scale"
// and "# <== rules before the scale"), and the Service's endpoints in what each sync wrote:
//   - iptables: the endpoint chains (KUBE-SEP-…) the Service's KUBE-SVC-… chain jumps to, the
//     Service told by the rules' comments ("ns/name:port -> ip:port", ./ex16.ts);
//   - nftables: the elements of the `numgen random mod N` rule of the Service's chain
//     (service-<hash>-ns/name/<proto>/<port>, ./ex17.ts): endpoint chains of a `vmap { … }`, or the
//     `addr . port` of a `map { … }`, in the listing and in `add rule` operations.
// Pure, no I/O.
import { readIptablesNat } from './ex16.ts';
import { numgenEndpoints, numgenRule, readNftTable } from './ex17.ts';
import { refuse, type CountResult } from './shared.ts';

/** One of the Service's chains (one per port) and the endpoints it picks among (their chains, or addresses). */
export interface ServiceEndpoints {
  chain: string;
  endpoints: string[];
}

/** What the capture recorded doing and seeing, with the output line each value is on. */
export interface ChangeRecord {
  deployment: string;
  /** namespace/name */
  service: string;
  replicasBefore: number;
  scaleTo: number;
  replicasAfter: number;
  readyAfter?: number;
  scaleExit: number;
  rolloutExit: number;
  /** What kubectl printed, line by line. */
  kubectl: string[];
  /** The Service's chains in the rules dumped before the scale, and the command that dumped them. */
  before: ServiceEndpoints[];
  beforeCommand: string;
}

const BEFORE_START = /^# ==> rules before the scale: (.*)$/;
const BEFORE_END = '# <== rules before the scale';
const KEYS = [
  'deployment',
  'service',
  'replicas_before',
  'scale_to',
  'scale_exit',
  'rollout_exit',
  'replicas_after',
] as const;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The Service's chains among a dump's or a payload's rules, for `backend`. */
export function serviceEndpoints(text: string, backend: string, service: string, listing: boolean): ServiceEndpoints[] {
  if (backend === 'iptables')
    return readIptablesNat(text)
      .filter((s) => s.service === service || s.service?.startsWith(`${service}:`))
      .map((s) => ({ chain: s.chain, endpoints: s.endpoints.map((e) => e.chain) }));
  const ours = new RegExp(`^service-[A-Za-z0-9]+-${escape(service)}/`);
  if (listing)
    return readNftTable(text)
      .filter((s) => ours.test(s.chain))
      .map((s) => ({ chain: s.chain, endpoints: s.endpoints.map((e) => e.target) }));
  // A transaction: `add|insert|replace rule <family> <table> <chain> … numgen random mod N vmap|map { … }`.
  const out: ServiceEndpoints[] = [];
  for (const line of text.split('\n')) {
    const m = /^(?:add|insert|replace) rule \S+ \S+ (\S+) (.*)$/.exec(line);
    const rule = m && ours.test(m[1]!) ? numgenRule(m[2]!) : undefined;
    if (!m || !rule) continue;
    const at = out.findIndex((s) => s.chain === m[1]);
    const entry = { chain: m[1]!, endpoints: numgenEndpoints(rule).map((e) => e.target) };
    if (at >= 0) out[at] = entry;
    else out.push(entry);
  }
  return out;
}

/** The change the capture recorded, or why the output does not prove one. */
export function readChangeRecord(output: string, backend: string): CountResult<ChangeRecord> {
  const lines = output.split('\n');
  const values = new Map<string, { value: string; line: number }>();
  const kubectl: string[] = [];
  let before: { command: string; line: number; text: string[] } | undefined;
  let inBefore = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (inBefore) {
      if (line === BEFORE_END) inBefore = false;
      else before!.text.push(line);
      continue;
    }
    const start = BEFORE_START.exec(line);
    if (start) {
      if (before) return refuse('the rules before the scale are recorded twice', i + 1);
      before = { command: start[1]!, line: i + 1, text: [] };
      inBefore = true;
      continue;
    }
    const kv = /^# change: ([a-z_]+)=(.*)$/.exec(line);
    if (kv) {
      if (values.has(kv[1]!)) return refuse(`"# change: ${kv[1]}=" is recorded twice`, i + 1);
      values.set(kv[1]!, { value: kv[2]!, line: i + 1 });
    } else if (line.startsWith('# kubectl: ')) kubectl.push(line.slice('# kubectl: '.length));
  }
  const missing = KEYS.filter((k) => !values.has(k));
  if (missing.length > 0)
    return refuse(
      `the output does not record the change it measures (no "# change:" line for ${missing.join(', ')}): a sync is a measurement of an endpoint change only with the scale that made it; capture again with the current tools/capture/kube-proxy-evidence.sh`,
      1,
    );
  if (!before)
    return refuse(
      'the output does not record the rules before the scale ("# ==> rules before the scale"), so the change cannot be shown; capture again',
      1,
    );
  if (inBefore) return refuse(`the rules before the scale are not closed by "${BEFORE_END}"`, before.line);
  const num = (key: string): number | { problem: string; line: number } => {
    const v = values.get(key)!;
    return /^\d+$/.test(v.value)
      ? Number(v.value)
      : { problem: `"# change: ${key}=" is "${v.value}", not a whole number`, line: v.line };
  };
  const n: Record<string, number> = {};
  for (const key of ['replicas_before', 'scale_to', 'scale_exit', 'rollout_exit', 'replicas_after']) {
    const v = num(key);
    if (typeof v !== 'number') return refuse(v.problem, v.line);
    n[key] = v;
  }
  const at = (key: string) => values.get(key)!.line;
  if (n.scale_exit !== 0)
    return refuse(
      `kubectl scale exited ${n.scale_exit}: the Deployment was not scaled, so no sync can measure its change`,
      at('scale_exit'),
    );
  if (n.rollout_exit !== 0)
    return refuse(
      `kubectl rollout status exited ${n.rollout_exit}: the rollout did not finish, so the change is not known to have happened`,
      at('rollout_exit'),
    );
  if (n.scale_to === n.replicas_before)
    return refuse(
      `the Deployment was "scaled" to the ${n.replicas_before} replicas it had: that changes nothing`,
      at('scale_to'),
    );
  if (n.replicas_after !== n.scale_to)
    return refuse(
      `the Deployment has ${n.replicas_after} replicas after the scale, not the ${n.scale_to} it was scaled to: something else changed it meanwhile`,
      at('replicas_after'),
    );
  const service = values.get('service')!.value;
  const ready = values.get('ready_after');
  const record: ChangeRecord = {
    deployment: values.get('deployment')!.value,
    service,
    replicasBefore: n.replicas_before!,
    scaleTo: n.scale_to!,
    replicasAfter: n.replicas_after!,
    ...(ready && /^\d+$/.test(ready.value) && { readyAfter: Number(ready.value) }),
    scaleExit: n.scale_exit!,
    rolloutExit: n.rollout_exit!,
    kubectl,
    before: serviceEndpoints(before.text.join('\n'), backend, service, true),
    beforeCommand: before.command,
  };
  if (record.before.length === 0)
    return refuse(
      `the rules before the scale (${before.command}) show no endpoints of service ${service}: the change cannot be shown against them`,
      before.line,
    );
  return { count: record };
}
