// The numbers a Measured cell states, as one flat list of readings: what CI compares between a fresh
// capture of the lab and the committed evidence (tools/lab-check.ts). Durations and timestamps are
// not among them (they differ from run to run and machine to machine); counts are.
//   16: each Service's endpoints (by the Service its rules' comments name);
//   17: each Service chain's endpoints, and the shape of its numgen rule (map or vmap);
//   18: the Service's endpoints before and after, per chain, and what the sync that first shows the
//       change wrote: its lines, the chains it declares and the rules it writes;
//   drain (lab/drain.sh): each case's outcome (drain.ts, drainReadings).
// Pure, no I/O.
import type { IptablesService } from './ex16.ts';
import type { NftService } from './ex17.ts';
import type { ShownChange, SyncPayload } from './ex18.ts';
import { drainReadings, type DrainCount } from './drain.ts';

/** What each exercise's counter counts (index.ts, Count), as far as these readings need it. */
type Count =
  | { exercise: 16; services: IptablesService[] }
  | { exercise: 17; services: NftService[] }
  | { exercise: 18; syncs: SyncPayload[]; change: ShownChange }
  | DrainCount;

export type Readings = Map<string, string>;

export function readings(count: Count): Readings {
  if ('kind' in count) return drainReadings(count);
  const out: Readings = new Map();
  if (count.exercise === 16)
    for (const s of count.services) out.set(`endpoints of ${s.service ?? s.chain}`, String(s.endpoints.length));
  if (count.exercise === 17)
    for (const s of count.services) {
      const name = s.chain.replace(/^service-[A-Z0-9]+-/, 'service ');
      out.set(`endpoints of ${name}`, String(s.endpoints.length));
      out.set(`numgen rule of ${name}`, s.form);
    }
  if (count.exercise === 18) {
    const { change } = count;
    const sync = count.syncs[change.sync]!;
    for (const b of change.before) {
      const name = b.chain.replace(/^service-[A-Z0-9]+-/, 'service ');
      out.set(`endpoints of ${name} before the scale`, String(b.endpoints.length));
      const a = change.after.find((x) => x.chain === b.chain);
      out.set(`endpoints of ${name} after the scale`, String(a?.endpoints.length ?? 'not written'));
    }
    out.set('replicas before and after', `${change.replicasBefore} -> ${change.replicasAfter}`);
    out.set('lines of the sync that shows the change', String(sync.lines.length));
    out.set('chains it declares', String(sync.chains));
    out.set('rules it writes', String(sync.rules));
  }
  return out;
}

/** The readings that differ, each with both values ("absent" where one side has none). */
export function differences(committed: Readings, fresh: Readings): Array<[string, string, string]> {
  const keys = [...new Set([...committed.keys(), ...fresh.keys()])].sort();
  return keys
    .filter((k) => committed.get(k) !== fresh.get(k))
    .map((k) => [k, committed.get(k) ?? 'absent', fresh.get(k) ?? 'absent']);
}
