// What an evidence file's raw output shows, counted by code (never typed): one counter per exercise
// (./ex16.ts, ./ex17.ts, ./ex18.ts), registered here by exercise number. The build's shape check
// (../evidence-checks.ts), the evidence page and `npm run evidence -- add` all count through here.
import { ex16 } from './ex16.ts';
import { ex17 } from './ex17.ts';
import { ex18 } from './ex18.ts';
import { readDrain, type DrainCount } from './drain.ts';
import type { ExerciseCounter } from './shared.ts';

export { sha256, type CountResult } from './shared.ts';
export { iptablesWords, readIptablesNat, type IptablesEndpointRule, type IptablesService } from './ex16.ts';
export { readNftTable, type NftService } from './ex17.ts';
export { readSyncLog, showChange, SYNC_KEY, SYNC_MARKER, type ShownChange, type SyncPayload } from './ex18.ts';
export { readChangeRecord, serviceEndpoints, type ChangeRecord, type ServiceEndpoints } from './change.ts';
export { readings, differences, type Readings } from './summary.ts';
export {
  readDrain,
  drainReadings,
  DRAIN_CASES,
  type DrainCount,
  type DrainCase,
  type NewConnections,
} from './drain.ts';

/** The counters, by exercise number. */
export const COUNTERS = { 16: ex16, 17: ex17, 18: ex18 } as const;

type CountOf<R> = R extends ExerciseCounter<infer T> ? T : never;
/** A count of any exercise, told apart by `exercise`, or of the drain run (`kind: 'drain'`, no exercise). */
export type Count = CountOf<(typeof COUNTERS)[keyof typeof COUNTERS]> | DrainCount;

/** What each exercise's output must show, in the words of a build error. */
export const EXPECTED_SHAPE: Readonly<Record<number, string>> = Object.fromEntries(
  Object.values(COUNTERS).map((r) => [r.exercise, r.expected]),
);

/**
 * The count of an output for its exercise and backend: `count` when the output shows what the
 * exercise looks at, `problem` (and the output `line` it is at, when known) when it does not; all
 * undefined for an exercise no counter is registered for.
 */
export function countOutput(
  exercise: number,
  backend: string,
  output: string,
): { count?: Count; problem?: string; line?: number } {
  const counter = (COUNTERS as Record<number, ExerciseCounter<Count>>)[exercise];
  return counter ? counter.count(output, backend) : {};
}

/** The count of an evidence file's output: by its exercise's counter, or (kind: drain) the drain run's reader. */
export function countEvidence(ev: { exercise?: number; kind?: string; backend: string; output: string }): {
  count?: Count;
  problem?: string;
  line?: number;
} {
  if (ev.kind === 'drain') return readDrain(ev.output, ev.backend);
  return ev.exercise === undefined ? {} : countOutput(ev.exercise, ev.backend, ev.output);
}

export {
  readGrowth,
  summarize,
  growthFields,
  growthReadings,
  GROWTH_MODES,
  TARGETS,
  type GrowthSweep,
  type GrowthSummaryPoint,
  type GrowthMode,
  type Target,
} from './growth.ts';
