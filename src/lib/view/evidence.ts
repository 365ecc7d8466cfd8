// What an evidence page says first: what was measured, in a sentence or two with its numbers, all
// taken from the counter's reading of the output (src/lib/evidence/), never typed; and where it was
// measured, from what the capture recorded. Pure.
import type { EvidenceEntry } from './model.ts';
import type { DrainCount, NewConnections } from '../evidence/index.ts';

/** "1 chain", "3 chains": a count with its noun, singular for one. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One or two sentences: what the output shows, with its numbers. */
export function evidenceSummary(ev: EvidenceEntry): string | undefined {
  const count = ev.count;
  if (!count) return undefined;
  if ('kind' in count) return drainSummary(count);
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

/** The drain run's four cases, each in a sentence, from what the reader found (drain.ts). */
function drainSummary(count: DrainCount): string {
  const n = Object.keys(count.endpoints).length;
  const went = (c: { endpoint: string }, x: NewConnections | undefined) =>
    x === undefined
      ? 'no new connections were recorded'
      : `of ${x.tries} new connections, ${x.by[c.endpoint] ?? 0} reached it, ` +
        `${x.tries - x.failed - (x.by[c.endpoint] ?? 0)} the other endpoints and ${x.failed} failed`;
  const parts = count.cases.map((c) => {
    const f = c.facts;
    const news = Object.values(c.news);
    switch (c.name) {
      case 'tcp-removed':
        return (
          `Endpoint removed from the slice, its server still up: the TCP connection held open to it was ` +
          `${f['held connection after the removal']} after the sync, its conntrack entry ${f["flow's conntrack entry after the sync"]}; ` +
          `${went(c, news[0])}.`
        );
      case 'terminating':
        return (
          `Endpoint terminating (serving, not ready) beside ready ones: the rules ` +
          `${f['beside ready ones: terminating endpoint in the rules'] === 'yes' ? 'kept it' : 'left it out'}; ` +
          `${went(c, c.news['beside ready ones: new connections'])}. Terminating and the only endpoint left: the rules ` +
          `${f['alone: terminating endpoint in the rules'] === 'yes' ? 'kept it' : 'left it out'} ` +
          `(${f['alone: endpoints in the rules']} endpoint(s) in them); ${went(c, c.news['alone: new connections'])}.`
        );
      case 'udp-removed':
        return (
          `UDP flow whose endpoint was removed: its conntrack entry ${f["flow's conntrack entry after the sync"]} after the sync ` +
          `(kube-proxy logged deleting it: ${f["kube-proxy logged deleting the flow's entry"]}); the next datagram was ${f['next datagram']}.`
        );
      case 'server-stopped':
        return (
          `Endpoint's server stopped, the slice unchanged: the held TCP connection ${f['held connection after the stop']}` +
          `${f['held connection error'] ? ` (${f['held connection error']})` : ''}; the endpoint stayed in the rules: ${f['stopped endpoint in the rules']}; ` +
          `${went(c, news[0])}.`
        );
    }
  });
  return `Service ${count.service} (ClusterIP ${count.clusterIP}) with ${n} real endpoints. ${parts.join(' ')}`;
}
