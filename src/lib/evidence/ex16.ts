// Exercise 16 (iptables, endpoint selection): the Service chains of an `iptables-save -t nat` dump
// and the rules that pick among their endpoints. Pure, no I/O.
import { missing, type ExerciseCounter } from './shared.ts';

export interface IptablesEndpointRule {
  /** The endpoint chain it jumps to (KUBE-SEP-…). */
  target: string;
  /**
   * "random" (statistic match with a probability), "affinity" (recent match), or "rest" (no match: takes what is
   * left).
   */
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
  for (let m = re.exec(line); m; m = re.exec(line))
    words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!);
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
      picks.push({
        target,
        kind,
        ...(probability !== undefined && { probability }),
        rule: line.replace(/^-A \S+ /, ''),
      });
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
      const dnat = rules
        .get(e.chain)
        ?.map((r) => after(r.words, '--to-destination'))
        .find((d) => d !== undefined);
      if (dnat) e.dnat = dnat;
    }
    services.push({ chain, ...(service && { service }), endpoints, picks });
  }
  return services;
}

export const ex16: ExerciseCounter<{ exercise: 16; services: IptablesService[] }> = {
  exercise: 16,
  expected:
    'a KUBE-SVC-… chain of the nat table with its jumps to KUBE-SEP-… endpoint chains (the output of `iptables-save -t nat`)',
  count(output) {
    const services = readIptablesNat(output);
    return services.length > 0 ? { count: { exercise: 16, services } } : missing(this);
  },
};
