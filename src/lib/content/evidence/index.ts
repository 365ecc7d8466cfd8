// What an evidence file's raw output shows, read by code (never typed): one reader per exercise
// (./ex16.ts, ./ex17.ts, ./ex18.ts), registered here by exercise number. The build's shape check
// (../evidence-checks.ts), the evidence page and `npm run evidence -- add` all read through here.
import { ex16 } from './ex16.ts';
import { ex17 } from './ex17.ts';
import { ex18 } from './ex18.ts';
import type { ExerciseReader } from './shared.ts';

export { sha256, type ReadResult } from './shared.ts';
export { iptablesWords, readIptablesNat, type IptablesEndpointRule, type IptablesService } from './ex16.ts';
export { readNftTable, type NftService } from './ex17.ts';
export { readSyncLog, showChange, SYNC_KEY, SYNC_MARKER, type ShownChange, type SyncPayload } from './ex18.ts';
export { readChangeRecord, serviceEndpoints, type ChangeRecord, type ServiceEndpoints } from './change.ts';

/** The readers, by exercise number. */
export const READERS = { 16: ex16, 17: ex17, 18: ex18 } as const;

type ReadingOf<R> = R extends ExerciseReader<infer T> ? T : never;
/** A reading of any exercise, told apart by `exercise`. */
export type Reading = ReadingOf<(typeof READERS)[keyof typeof READERS]>;

/** What each exercise's output must show, in the words of a build error. */
export const EXPECTED_SHAPE: Readonly<Record<number, string>> = Object.fromEntries(
  Object.values(READERS).map((r) => [r.exercise, r.expected]),
);

/**
 * The reading of an output for its exercise and backend: `reading` when the output shows what the
 * exercise looks at, `problem` (and the output `line` it is at, when known) when it does not; all
 * undefined for an exercise no reader is registered for.
 */
export function readOutput(
  exercise: number,
  backend: string,
  output: string,
): { reading?: Reading; problem?: string; line?: number } {
  const reader = (READERS as Record<number, ExerciseReader<Reading>>)[exercise];
  return reader ? reader.read(output, backend) : {};
}
