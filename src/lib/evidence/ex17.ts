// Exercise 17 (nftables, endpoint selection): the `numgen random mod N` verdict maps of
// `nft list table ip kube-proxy` and the endpoint chains they map to. Pure, no I/O.
import { missing, type ExerciseCounter } from './shared.ts';

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

/** The elements of a verdict map's `{ … }` body: `<number> : goto|jump <chain>`, in order. */
export function vmapElements(body: string): Array<{ index: number; verdict: string; chain: string }> {
  const out: Array<{ index: number; verdict: string; chain: string }> = [];
  for (const el of body.split(',')) {
    const e = /^\s*(\d+)\s*:\s*(goto|jump)\s+(\S+?)\s*$/.exec(el);
    if (e) out.push({ index: Number(e[1]), verdict: e[2]!, chain: e[3]!.replace(/^"(.*)"$/, '$1') });
  }
  return out;
}

/** Every chain whose rule draws `numgen random mod N` into a verdict map of endpoint chains. */
export function readNftTable(output: string): NftService[] {
  const chains = nftChains(output);
  const services: NftService[] = [];
  for (const [chain, body] of chains) {
    const text = body.join(' ');
    const m = /numgen random mod (\d+)\s+vmap\s*\{([^}]*)\}/.exec(text);
    if (!m) continue;
    const endpoints: NftService['endpoints'] = vmapElements(m[2]!).map((e) => {
      const dnat = chains
        .get(e.chain)
        ?.map((l) => /\bdnat to (\S+)/.exec(l)?.[1])
        .find((d) => d !== undefined);
      return { ...e, ...(dnat && { dnat }) };
    });
    const rule = body.find((l) => l.includes('numgen random mod')) ?? m[0];
    services.push({ chain, modulus: Number(m[1]), endpoints, rule });
  }
  return services;
}

export const ex17: ExerciseCounter<{ exercise: 17; services: NftService[] }> = {
  exercise: 17,
  expected:
    'a chain with a `numgen random mod N vmap { … }` rule mapping to endpoint chains (the output of `nft list table ip kube-proxy`)',
  count(output) {
    const services = readNftTable(output).filter((s) => s.endpoints.length > 0);
    return services.length > 0 ? { count: { exercise: 17, services } } : missing(this);
  },
};
