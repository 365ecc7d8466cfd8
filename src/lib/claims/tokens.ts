// The words a claim cannot say without a source saying them too (docs/claims.md, "Every citation
// carries its words"): in each sentence, every version number, constant or quantity, code span and
// quoted phrase is a token, and some citation of that sentence must carry it in its own text (a
// KEP excerpt's verbatim quote; a code note's pinned upstream lines). Pure: no I/O.
//
// What is forgiven when a token is looked for, and nothing more: backticks, a `v` before a
// version, letter case, and white space (a run of it is one space, and a space in the token may be
// absent in the text: "16 KiB" is carried by "16KiB"). A number is whole: "1.3" is not in "1.35".

export type TokenKind = 'version' | 'constant' | 'quantity' | 'code span' | 'quoted phrase';

export interface Token {
  kind: TokenKind;
  /** As written in the claim (a code span without its backticks, a quoted phrase without its quotes). */
  value: string;
  /** Its offset in the text it was found in. */
  index: number;
}

// Units a number carries to be a quantity. A bare number ("18 cells", "exercise 16", "weight 0")
// counts the site's own things or reads as a word, and is not a token; nor is a number after a
// hyphen, which names something ("KEP-3866s").
const UNITS = 'KiB|MiB|GiB|TiB|kB|KB|MB|GB|bytes?|ms|µs|us|ns|s|sec|seconds?|minutes?|mins?|hours?|h|days?|%|percent';
const PATTERNS: Array<[TokenKind, RegExp]> = [
  // 0x4000, 0xff: written as code would write them.
  ['constant', /(?<![\w.-])0x[0-9a-f]+\b/gi],
  // 1.35, v1.33, v1.37.0-alpha.1, kernel 5.13: a dotted number.
  ['version', /(?<![\w.-])v?\d+\.\d+(?:\.\d+)*(?:-[a-z]+(?:\.\d+)?)?(?![\w]|\.\d)/gi],
  // 16 KiB, 30 s, 15 minutes, 100%: a number with a unit.
  ['quantity', new RegExp(`(?<![\\w.-])\\d+(?:\\.\\d+)?\\s?(?:${UNITS})(?![\\w])`, 'g')],
];
// "a quoted phrase" or “a quoted phrase”, on one paragraph.
const QUOTED = /"([^"\n]+)"|“([^”]+)”/g;

/** The tokens of a run of plain text (not code: a code span is a token of its own). */
export function textTokens(text: string): Token[] {
  const found: Token[] = [];
  const taken: Array<[number, number]> = [];
  const free = (a: number, b: number) => taken.every(([x, y]) => b <= x || a >= y);
  for (const m of text.matchAll(QUOTED)) {
    const value = (m[1] ?? m[2] ?? '').trim();
    if (value === '') continue;
    found.push({ kind: 'quoted phrase', value, index: m.index + 1 });
    taken.push([m.index, m.index + m[0].length]);
  }
  for (const [kind, re] of PATTERNS)
    for (const m of text.matchAll(re)) {
      if (!free(m.index, m.index + m[0].length)) continue;
      found.push({ kind, value: m[0], index: m.index });
      taken.push([m.index, m.index + m[0].length]);
    }
  return found.sort((a, b) => a.index - b.index);
}

/** The forgiving form of a text or token: no backticks, no `v` before a version, lower case, one space per run. */
export function normaliseToken(s: string): string {
  return s
    .replace(/`/g, '')
    .replace(/(?<![A-Za-z0-9_])v(?=\d+\.\d)/gi, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NUMERIC: ReadonlySet<TokenKind> = new Set(['version', 'constant', 'quantity']);

/** A matcher for a token in normalised text: its spaces optional, a number never part of a longer one. */
export function tokenPattern(token: Pick<Token, 'kind' | 'value'>): RegExp {
  const body = normaliseToken(token.value).split(' ').map(escape).join('\\s?');
  return NUMERIC.has(token.kind) ? new RegExp(`(?<![\\w.])${body}(?![\\w]|\\.\\d)`) : new RegExp(body);
}

/** Whether `text` (a citation's text) carries the token, under the forgiving form only. */
export function carries(text: string, token: Pick<Token, 'kind' | 'value'>): boolean {
  return tokenPattern(token).test(normaliseToken(text));
}
