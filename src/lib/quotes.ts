// Verbatim-quote checking. A quote passes when, after collapsing every whitespace run to a single
// space, it is a substring of the (equally normalised) text of the cited lines. Nothing else is
// forgiven: punctuation, backticks, typos and curly apostrophes must match the source exactly.
// Pure module (no I/O) so the CLI, the build and the unit tests share the same rule.

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
