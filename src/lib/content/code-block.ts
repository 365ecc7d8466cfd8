// A code note's verbatim lines (`code.text`) as the Markdown of a Go code block, which the site's
// pipeline highlights with Shiki at build time (no script; its colours become classes, csp.ts).
// The lines are shown as they are, but for the indentation they all share, which is taken off, so
// that lines from deep inside a function do not start half a line in: the text itself is checked byte
// for byte against the pinned file (upstream/code.ts), indentation included.

/** The leading white space every non-blank line of `lines` starts with. */
export function commonIndent(lines: readonly string[]): string {
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0]);
  if (indents.length === 0) return '';
  let common = indents[0]!;
  for (const indent of indents) while (!indent.startsWith(common)) common = common.slice(0, -1);
  return common;
}

/** `text` without the indentation all its lines share. */
export function dedent(text: string): string {
  const lines = text.split('\n');
  const common = commonIndent(lines);
  return lines.map((l) => (l.startsWith(common) ? l.slice(common.length) : l)).join('\n');
}

/** A fenced Go block of `text`, dedented, its fence longer than any run of backticks in it. */
export function goCodeBlock(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}go\n${dedent(text)}\n${fence}\n`;
}
