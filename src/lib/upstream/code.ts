// The verbatim code of a code note: `code: { lines: [a, b], text }`, a few lines under the note, shown
// as Go (Excerpt.astro). It passes when `text` is exactly lines a..b of the pinned file, byte for
// byte: every character, tabs and trailing spaces included, nothing normalised (the one difference
// allowed is the line break, which YAML writes as \n). When it is not, the finding names the first
// line that differs, both ways, and where the text is in the file when it is there on other lines.
// Pure module (no I/O): anchorRule (anchors.ts) runs it on every code note that has `code`, so the
// build (checks/excerpts.ts), `npm run verify:anchors` and the unit tests share it.
import type { Finding } from './verify-excerpts.ts';
import { rangeProblem, splitLines } from './upstream.ts';

/** What the check reads of an excerpt: its verbatim code, if it has any. */
export interface CodeLines {
  lines: readonly [number, number] | number[];
  text: string;
}

/** The 1-based first lines at which `want` (a block of lines) occurs whole in `fileLines`. */
export function blockLines(want: readonly string[], fileLines: readonly string[]): number[] {
  const at: number[] = [];
  for (let i = 0; i + want.length <= fileLines.length; i++)
    if (want.every((line, k) => fileLines[i + k] === line)) at.push(i + 1);
  return at;
}

const span = (a: number, n: number) => (n === 1 ? `${a}` : `${a}-${a + n - 1}`);
const range = (a: number, n: number) => `${n === 1 ? 'line' : 'lines'} ${span(a, n)}`;

/** A finding's place, for a problem in the code's text: the first differing line as written in the YAML. */
export type CodeFinding = Finding & { at: ['code', 'text'] | ['code', 'lines']; seek?: { text: string; nth: number } };

/**
 * Checks that `code.text` is lines a..b of `fileText` byte for byte; `upstream` names the file in the
 * message. Returns nothing when it is.
 */
export function checkCode(code: CodeLines, fileText: string, upstream: string): CodeFinding[] {
  const [a, b] = code.lines as [number, number];
  const fileLines = splitLines(fileText);
  const bad = rangeProblem([a, b], fileLines.length);
  if (bad) return [{ field: 'code.lines', at: ['code', 'lines'], problem: `${upstream}: ${bad}` }];
  const have = code.text.split('\n');
  const want = fileLines.slice(a - 1, b);
  const i = have.findIndex((line, k) => line !== want[k]);
  if (i === -1 && have.length === want.length) return [];
  const k = i === -1 ? have.length : i;
  const found = blockLines(have, fileLines);
  const elsewhere = `${have.length === 1 && found.length === 1 ? 'line' : 'lines'} ${found.map((at) => span(at, have.length)).join(', ')}`;
  const problem =
    `${upstream}: code is not ${range(a, b - a + 1)} byte for byte: ` +
    (k >= want.length
      ? `its line ${k + 1} is past the range's ${want.length}`
      : k < have.length
        ? `its line ${k + 1} is ${JSON.stringify(have[k])}, line ${a + k} of the file is ${JSON.stringify(want[k])}`
        : `it ends at line ${a + k - 1}, the range goes on to line ${b}`) +
    (found.length > 0 ? `; the text is on ${elsewhere}` : '') +
    ' (copy the lines from the pinned file: tabs, spaces and punctuation are compared exactly)';
  // Point at the differing line where it is written (its nth occurrence in the text), unless it is blank.
  const line = have[k];
  const seek =
    line !== undefined && line.trim() !== ''
      ? { text: line, nth: occurrences(have.slice(0, k).join('\n'), line) }
      : undefined;
  return [{ field: 'code.text', at: ['code', 'text'], problem, ...(seek && { seek }) }];
}

/** How many times `needle` occurs in `text` (overlapping), as the YAML locator counts them. */
function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) n++;
  return n;
}
