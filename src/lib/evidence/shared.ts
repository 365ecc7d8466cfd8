// What every exercise's counter shares: the shape of a count or a refusal, and the checksum the
// capture script records. Pure, no I/O.
import { createHash } from 'node:crypto';

/** sha256 of a text as UTF-8, hex: what the capture script's `sha256sum` prints for the raw output. */
export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A count, or why the output cannot back its cell: `problem`, at `line` of the output when known. */
/** What a counter finds, or why it cannot count: the problem and output line, as src/lib/problems.ts's Unlocated. */
export type CountResult<R> =
  { count: R; problem?: undefined; line?: undefined } | { count?: undefined; problem: string; line?: number };

export const refuse = (problem: string, line?: number): { problem: string; line?: number } => ({
  problem,
  ...(line !== undefined && { line }),
});

/** One exercise's counter: what its output must show (in the words of an error), and its count. */
export interface ExerciseCounter<R> {
  exercise: number;
  expected: string;
  count(output: string, backend: string): CountResult<R>;
}

/** The refusal for an output that shows nothing of what the exercise looks at. */
export const missing = (counter: { exercise: number; expected: string }, line?: number) =>
  refuse(`output does not show what exercise ${counter.exercise} looks at: expected ${counter.expected}`, line);
