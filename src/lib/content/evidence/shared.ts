// What every exercise's reader shares: the shape of a reading or a refusal, and the checksum the
// capture script records. Pure, no I/O.
import { createHash } from 'node:crypto';

/** sha256 of a text as UTF-8, hex: what the capture script's `sha256sum` prints for the raw output. */
export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A reading, or why the output cannot back its cell: `problem`, at `line` of the output when known. */
export type ReadResult<R> =
  { reading: R; problem?: undefined; line?: undefined } | { reading?: undefined; problem: string; line?: number };

export const refuse = (problem: string, line?: number): { problem: string; line?: number } => ({
  problem,
  ...(line !== undefined && { line }),
});

/** One exercise's reader: what its output must show (in the words of an error), and the reading. */
export interface ExerciseReader<R> {
  exercise: number;
  expected: string;
  read(output: string, backend: string): ReadResult<R>;
}

/** The refusal for an output that shows nothing of what the exercise looks at. */
export const missing = (reader: { exercise: number; expected: string }, line?: number) =>
  refuse(`output does not show what exercise ${reader.exercise} looks at: expected ${reader.expected}`, line);
