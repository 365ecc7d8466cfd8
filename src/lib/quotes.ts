// Verbatim-quote checking. A quote passes when, after collapsing every whitespace run to a single
// space, it is a substring of the (equally normalised) text of the cited lines. Nothing else is
// forgiven: punctuation, backticks, typos and curly apostrophes must match the source exactly.
// Pure module (no I/O) so the CLI, the build and the unit tests share the same rule.
import { posix } from 'node:path';

export type QuoteCheck = { ok: true } | { ok: false; reason: string };

/** Collapses every run of whitespace (spaces, tabs, line breaks) to one space and trims. */
export function normaliseWhitespace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

const SNIPPET_LENGTH = 160;

function snippet(s: string): string {
  return s.length > SNIPPET_LENGTH ? `${s.slice(0, SNIPPET_LENGTH - 1)}…` : s;
}

/** Splits file text into lines, tolerating CRLF and a trailing newline. */
function splitLines(fileText: string): string[] {
  const lines = fileText.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Checks that `quote` occurs verbatim (modulo whitespace) in lines a..b (1-based, inclusive)
 * of `fileText`.
 */
export function checkQuote(quote: string, fileText: string, lines: [number, number]): QuoteCheck {
  const [a, b] = lines;
  const fileLines = splitLines(fileText);
  if (!Number.isInteger(a) || !Number.isInteger(b) || a < 1 || b < a) {
    return { ok: false, reason: `invalid line range [${a}, ${b}] (need 1 <= first <= last)` };
  }
  if (b > fileLines.length) {
    return {
      ok: false,
      reason: `line range [${a}, ${b}] is outside the file, which has ${fileLines.length} lines`,
    };
  }
  const wanted = normaliseWhitespace(quote);
  if (wanted === '') return { ok: false, reason: 'quote is empty' };
  const actual = normaliseWhitespace(fileLines.slice(a - 1, b).join('\n'));
  if (actual.includes(wanted)) return { ok: true };
  return {
    ok: false,
    reason: `quote not found in lines ${a}-${b}; quote: "${snippet(wanted)}"; the lines say: "${snippet(actual)}"`,
  };
}

/** The repository whose pinned copy quotes are checked against. */
export const QUOTED_REPO = 'kubernetes/enhancements';

interface QuoteSource { id: string; repo: string; path: string }
interface QuoteExcerpt { id: string; source: string; lines: [number, number]; path?: string; quote?: string }

export interface QuoteReport {
  /** Quotes compared with their file. */
  checked: number;
  /** One line per problem, starting with the full excerpt id ("kep-3866/data-plane: …"). */
  problems: string[];
}

/**
 * Checks every quote of a QUOTED_REPO source against its file and line range. `readFile` gets the
 * file's path inside the repository and returns its text, or null when the file is missing.
 */
export function verifyQuotes(
  content: { sources: readonly QuoteSource[]; excerpts: readonly QuoteExcerpt[] },
  readFile: (repoPath: string) => string | null,
): QuoteReport {
  const sources = new Map(content.sources.map((s) => [s.id, s]));
  const problems: string[] = [];
  let checked = 0;
  for (const e of content.excerpts) {
    if (e.quote === undefined) continue;
    const id = `${e.source}/${e.id}`;
    const source = sources.get(e.source);
    if (!source) {
      problems.push(`${id}: no source "${e.source}" in sources.yaml (an excerpt file is named after its source)`);
      continue;
    }
    if (source.repo !== QUOTED_REPO) continue;
    const file = e.path ? posix.join(posix.dirname(source.path), e.path) : source.path;
    checked++;
    const text = readFile(file);
    if (text === null) {
      problems.push(`${id}: file not found: ${file}`);
      continue;
    }
    const result = checkQuote(e.quote, text, e.lines);
    if (!result.ok) problems.push(`${id}: ${file}: ${result.reason}`);
  }
  return { checked, problems };
}
