// What an evidence page says first: what was measured, in a sentence or two with its numbers, all
// taken from the counter's reading of the output (src/lib/evidence/), never typed; and where it was
// measured, from what the capture recorded. Pure.
import type { EvidenceEntry } from './model.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One or two sentences: what the output shows, with its numbers. */
export function evidenceSummary(ev: EvidenceEntry): string | undefined {
  const count = ev.count;
  if (!count) return undefined;
  if (count.exercise === 16) {
    const endpoints = count.services.reduce((n, s) => n + s.endpoints.length, 0);
    return (
      `The nat table holds ${plural(count.services.length, 'Service chain')} (KUBE-SVC-…) with ` +
      `${plural(endpoints, 'endpoint chain')} (KUBE-SEP-…) among them; each Service chain picks one endpoint ` +
      'per new connection with statistic rules in random mode, at the shares below.'
    );
  }
  if (count.exercise === 17) {
    const of = (form: string) => count.services.filter((s) => s.form === form);
    const picking = count.services.filter((s) => s.form !== 'single');
    const endpoints = picking.reduce((n, s) => n + s.endpoints.length, 0);
    const forms = [
      of('map').length > 0 &&
        `${plural(of('map').length, 'chain')} DNAT straight to the endpoints' addresses through a map (no endpoint chains)`,
      of('vmap').length > 0 && `${plural(of('vmap').length, 'chain')} jump to endpoint chains through a verdict map`,
    ].filter(Boolean);
    const single = of('single').length;
    return (
      `In table ip kube-proxy, ${plural(picking.length, 'Service chain')} pick one of their endpoints ` +
      `(${endpoints} in all) per new connection with one numgen random rule: ${forms.join(', and ')}.` +
      (single > 0
        ? ` ${plural(single, 'Service chain')} with a single endpoint DNAT${single === 1 ? 's' : ''} to it with no numgen.`
        : '')
    );
  }
  const { change } = count;
  const sync = count.syncs[change.sync]!;
  const chains = change.before.map((b) => {
    const a = change.after.find((x) => x.chain === b.chain);
    return `${b.chain} from ${b.endpoints.length} to ${a?.endpoints.length ?? '?'}`;
  });
  return (
    `Scaling ${change.deployment} from ${change.replicasBefore} to ${change.replicasAfter} replicas moved Service ` +
    `${change.service}'s endpoints (${chains.join('; ')}). The first sync that shows it wrote ` +
    `${plural(sync.lines.length, 'line')}: ${plural(sync.chains, 'chain')} declared and ${plural(sync.rules, 'rule')} written.`
  );
}

/** Where it was measured: the capture's own record, in one line (the setting, when it has one, after it). */
export function evidenceWhere(ev: EvidenceEntry): string {
  const tools = [ev.iptables, ev.nft].filter(Boolean).join(', ');
  return (
    `kube-proxy ${ev.kubernetes} in ${ev.mode ?? ev.backend} mode, kernel ${ev.kernel}` +
    `${tools ? `, ${tools}` : ''}; captured ${ev.capturedAt ?? ev.captured}.`
  );
}
