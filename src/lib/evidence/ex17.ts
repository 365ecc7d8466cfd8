// Exercise 17 (nftables, endpoint selection): each Service chain's `numgen random mod N` rule in
// `nft list table ip kube-proxy`, in either of the two shapes kube-proxy writes (pkg/proxy/nftables
// proxier.go, v1.37): a verdict map to endpoint chains (`numgen random mod N vmap { 0 : goto
// endpoint-… }`, a Service with ClientIP session affinity, whose endpoint chains keep the affinity
// sets), or, without affinity, a map straight to the endpoints' addresses (`dnat ip addr . port to
// numgen random mod N map { 0 : 10.244.1.2 . 8080, … }`, no endpoint chains); a Service chain with a
// single endpoint and no affinity has no numgen at all, only `dnat to 10.244.1.2:8080`. Pure, no I/O.
import { missing, type ExerciseCounter } from './shared.ts';

export interface NftEndpoint {
  /** The number numgen draws for it. */
  index: number;
  /** What identifies the endpoint in the rule: its endpoint chain (vmap), or its `addr . port` (map). */
  target: string;
  /** vmap: the verdict (`goto`, `jump`) and the endpoint chain. */
  verdict?: string;
  chain?: string;
  /** Where a new connection to it is DNATed (`10.244.1.2:8080`), when the listing shows it. */
  dnat?: string;
}

export interface NftService {
  chain: string;
  /** How the rule picks: a verdict map to endpoint chains, a map to addresses it DNATs to, or one DNAT. */
  form: 'vmap' | 'map' | 'single';
  /** N of `numgen random mod N`. */
  modulus: number;
  endpoints: NftEndpoint[];
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

/** The elements of a verdict map's `{ … }` body: `<number> : goto|jump <chain>`, in order. */
export function vmapElements(body: string): Array<{ index: number; verdict: string; chain: string }> {
  const out: Array<{ index: number; verdict: string; chain: string }> = [];
  for (const el of body.split(',')) {
    const e = /^\s*(\d+)\s*:\s*(goto|jump)\s+(\S+?)\s*$/.exec(el);
    if (e) out.push({ index: Number(e[1]), verdict: e[2]!, chain: e[3]!.replace(/^"(.*)"$/, '$1') });
  }
  return out;
}

/** The elements of an address map's `{ … }` body: `<number> : <addr> . <port>`, in order. */
export function mapElements(body: string): Array<{ index: number; addr: string; port: string }> {
  const out: Array<{ index: number; addr: string; port: string }> = [];
  for (const el of body.split(',')) {
    const e = /^\s*(\d+)\s*:\s*(\S+)\s*\.\s*(\d+)\s*$/.exec(el);
    if (e) out.push({ index: Number(e[1]), addr: e[2]!, port: e[3]! });
  }
  return out;
}

/** `10.244.1.2:8080`, `[fd00::2]:8080`: where a DNAT to `addr . port` sends a connection. */
const hostPort = (addr: string, port: string) => (addr.includes(':') ? `[${addr}]:${port}` : `${addr}:${port}`);

type Pick = { form: 'vmap' | 'map' | 'single'; modulus: number; body: string };

/**
 * How a Service chain's rules (a line, or a chain's joined body) pick an endpoint: its `numgen
 * random mod N` rule in either shape with its elements, or, with no numgen, its one `dnat to`.
 */
export function numgenRule(text: string): Pick | undefined {
  const m = /numgen random mod (\d+)\s+(vmap|map)\s*\{([^}]*)\}/.exec(text);
  if (m) return { form: m[2] as 'vmap' | 'map', modulus: Number(m[1]), body: m[3]! };
  const one = /\bdnat (?:ip6? )?to (\S+)/.exec(text);
  return one ? { form: 'single', modulus: 1, body: one[1]! } : undefined;
}

/** `10.244.1.2:8080` or `[fd00::2]:8080` as a map writes it: `10.244.1.2 . 8080`. */
const asElement = (hostport: string) => {
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(hostport);
  return m ? `${m[1]} . ${m[2]}` : hostport;
};

/** The endpoints a Service chain's pick names, identified as the rule identifies them. */
export function numgenEndpoints(rule: Pick): NftEndpoint[] {
  if (rule.form === 'single') return [{ index: 0, target: asElement(rule.body), dnat: rule.body }];
  return rule.form === 'vmap'
    ? vmapElements(rule.body).map((e) => ({ index: e.index, target: e.chain, verdict: e.verdict, chain: e.chain }))
    : mapElements(rule.body).map((e) => ({
        index: e.index,
        target: `${e.addr} . ${e.port}`,
        dnat: hostPort(e.addr, e.port),
      }));
}

/**
 * Every Service chain and how it picks: a `numgen random mod N` rule (a verdict map of endpoint
 * chains, or a map of addresses), or a single endpoint's `dnat to`. Endpoint chains, which DNAT too,
 * are not Service chains: a chain counts when it holds a numgen rule or is named `service-…`.
 */
export function readNftTable(output: string): NftService[] {
  const chains = nftChains(output);
  const services: NftService[] = [];
  for (const [chain, body] of chains) {
    const text = body.join(' ');
    if (!/numgen random mod/.test(text) && !chain.startsWith('service-')) continue;
    const found = numgenRule(text);
    if (!found) continue;
    const endpoints = numgenEndpoints(found).map((e) => {
      if (!e.chain) return e;
      const dnat = chains
        .get(e.chain)
        ?.map((l) => /\bdnat to (\S+)/.exec(l)?.[1])
        .find((d) => d !== undefined);
      return { ...e, ...(dnat && { dnat }) };
    });
    const rule = body.find((l) => l.includes('numgen random mod')) ?? body.find((l) => /\bdnat /.test(l)) ?? '';
    services.push({ chain, form: found.form, modulus: found.modulus, endpoints, rule });
  }
  return services;
}

export const ex17: ExerciseCounter<{ exercise: 17; services: NftService[] }> = {
  exercise: 17,
  expected:
    'a chain with a `numgen random mod N` rule that maps to endpoint chains (`vmap { … }`) or to endpoint addresses (`map { … }`) (the output of `nft list table ip kube-proxy`)',
  count(output) {
    const services = readNftTable(output).filter((s) => s.endpoints.length > 0);
    // What the exercise looks at is a pick: a Service chain with one endpoint shows none.
    return services.some((s) => s.form !== 'single') ? { count: { exercise: 17, services } } : missing(this);
  },
};
