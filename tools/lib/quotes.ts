// Verbatim-quote checking. A quote passes when, after collapsing every whitespace run to a single
// space, it is a substring of the (equally normalised) text of the cited lines. Nothing else is
// forgiven: punctuation, backticks, typos and curly apostrophes must match the source exactly.
// Two boundary rules follow: the stated lines must be exactly the lines the quote occupies (not
// wider), and an excerpt's `cut` must say where the quote breaks off mid-sentence (see quoteCut).
// Pure module (no I/O) so the CLI and the unit tests share the same rule, run by verifyExcerpts.
import type { Unlocated } from '../../src/lib/problems.ts';
import { rangeProblem, splitLines, upstreamPath } from '../../src/lib/upstream/index.ts';
import {
  verifyExcerpts,
  type CheckedExcerpt,
  type CheckedSource,
  type ExcerptReport,
  type ExcerptRule,
  type Finding,
} from '../../src/lib/upstream/index.ts';

export type QuoteCheck = { ok: true } | ({ ok: false } & Required<Pick<Unlocated, 'problem'>>);

/** Collapses every run of whitespace (spaces, tabs, line breaks) to one space and trims. */
export function normaliseWhitespace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

const SNIPPET_LENGTH = 160;

function snippet(s: string): string {
  return s.length > SNIPPET_LENGTH ? `${s.slice(0, SNIPPET_LENGTH - 1)}…` : s;
}

/**
 * Checks that `quote` occurs verbatim (modulo whitespace) in lines a..b (1-based, inclusive)
 * of `fileText`.
 */
export function checkQuote(quote: string, fileText: string, lines: [number, number]): QuoteCheck {
  const [a, b] = lines;
  const fileLines = splitLines(fileText);
  const bad = rangeProblem(lines, fileLines.length);
  if (bad) return { ok: false, problem: bad };
  const wanted = normaliseWhitespace(quote);
  if (wanted === '') return { ok: false, problem: 'quote is empty' };
  const actual = normaliseWhitespace(fileLines.slice(a - 1, b).join('\n'));
  if (actual.includes(wanted)) return { ok: true };
  return {
    ok: false,
    problem: `quote not found in lines ${a}-${b}; quote: "${snippet(wanted)}"; the lines say: "${snippet(actual)}"`,
  };
}

/** Where a quote breaks off inside a sentence (or, in YAML and code, inside a line). */
export type QuoteCut = 'start' | 'end' | 'both';

/**
 * The tightest line range [first, last] inside `lines` whose text still contains `quote`, or null
 * when the quote is not in `lines` at all (checkQuote reports that case).
 */
export function quoteSpan(quote: string, fileText: string, lines: [number, number]): [number, number] | null {
  const fileLines = splitLines(fileText);
  const wanted = normaliseWhitespace(quote);
  const has = (a: number, b: number) => normaliseWhitespace(fileLines.slice(a - 1, b).join('\n')).includes(wanted);
  let [a, b] = lines;
  if (wanted === '' || b > fileLines.length || !has(a, b)) return null;
  while (a < b && has(a + 1, b)) a++;
  while (b > a && has(a, b - 1)) b--;
  return [a, b];
}

/**
 * Checks that `lines` is no wider than the lines `quote` occupies: its first line holds the quote's
 * start and its last line the quote's end. A wider range would link readers to text that was not
 * quoted as though it had been.
 */
export function checkQuoteRange(quote: string, fileText: string, lines: [number, number]): QuoteCheck {
  const span = quoteSpan(quote, fileText, lines);
  if (span === null) return checkQuote(quote, fileText, lines);
  const [a, b] = lines;
  if (span[0] === a && span[1] === b) return { ok: true };
  const occupied = span[0] === span[1] ? `line ${span[0]}` : `lines ${span[0]}-${span[1]}`;
  return {
    ok: false,
    problem: `stated lines ${a}-${b} are wider than the quote, which occupies ${occupied}; state [${span[0]}, ${span[1]}]`,
  };
}

// A line that opens a new block in Markdown: list item, heading, block quote or table row.
const BLOCK_START = /^\s*(?:[*+-]|\d+[.)]|#{1,6}|>|\|)(?:\s|$)/;
// Markup that may precede the first word of a block.
const LEADING_MARKUP = /^(?:\s*(?:[*+-]|\d+[.)]|#{1,6}|>|\|)(?=\s|$))*\s*/;
// A comment marker at the start of a line of code or YAML.
const COMMENT_MARKER = /^(?:\/\/|\/\*|\*|#)$/;
// Text that ends a sentence: . ! ? or :, then any closing quote, bracket or emphasis marks.
const SENTENCE_END = /[.!?:]["'”’)\]*_`]*$/;
// A line that is only an emphasised label ("***Parameter: --ipvs-scheduler***") stands alone, like a
// heading: the line after it starts a sentence.
const LABEL_LINE = /^\s*([*_]{1,3})[^*_].*\1\s*$/;
// In code and YAML a colon ends a key, not a sentence.
const SENTENCE_END_IN_LINE = /[.!?]["'”’)\]*_`]*$/;

/** The first line of the next block after the block ending at line `last` (1-based), past blank lines. */
function nextBlock(fileLines: string[], last: number): number {
  let n = last + 1;
  while (n <= fileLines.length && (fileLines[n - 1] ?? '').trim() === '') n++;
  return n;
}

/** When line `n` (1-based) opens a fenced code block, the first block after it; else 0 (none). */
function afterCode(fileLines: string[], n: number): number {
  if (!/^\s*(?:```|~~~)/.test(fileLines[n - 1] ?? '')) return 0;
  let close = n + 1;
  while (close <= fileLines.length && !/^\s*(?:```|~~~)/.test(fileLines[close - 1] ?? '')) close++;
  return nextBlock(fileLines, close);
}

/**
 * Whether the paragraph starting at line `first` (1-based) goes on with a sentence begun before a
 * fenced code block: it comes right after the block (blank lines aside) and opens in lower case
 * ("…allows either a single command: ``` … ``` or multiple commands…"). A list item never does.
 */
function continuesAfterCode(fileLines: string[], first: number): boolean {
  const line = fileLines[first - 1] ?? '';
  if (BLOCK_START.test(line) || !/^\s*[a-z]/.test(line)) return false;
  let n = first - 1;
  while (n > 1 && (fileLines[n - 1] ?? '').trim() === '') n--;
  if (!/^\s*(?:```|~~~)/.test(fileLines[n - 1] ?? '')) return false;
  // A closing fence: an even number of fences up to and including it.
  return fileLines.slice(0, n).filter((l) => /^\s*(?:```|~~~)/.test(l)).length % 2 === 0;
}

/**
 * Where, if anywhere, `quote` (found in `lines`) starts or ends inside a sentence of its source.
 * Markdown prose is read in sentences within a paragraph or list item; YAML files (`lineOriented`)
 * and fenced code blocks are read in lines, so a quote there is cut when it starts or ends mid-line,
 * except at a sentence boundary (as in a code comment). Returns undefined for a whole quote, and
 * also when the quote is not in `lines`.
 */
export function quoteCut(
  quote: string,
  fileText: string,
  lines: [number, number],
  opts: { lineOriented?: boolean } = {},
): QuoteCut | undefined {
  const span = quoteSpan(quote, fileText, lines);
  if (span === null) return undefined;
  const fileLines = splitLines(fileText);
  const [a, b] = span;
  const wanted = normaliseWhitespace(quote);
  const text = normaliseWhitespace(fileLines.slice(a - 1, b).join('\n'));
  const at = text.indexOf(wanted);
  const before = text.slice(0, at).trim();
  const after = text.slice(at + wanted.length).trim();
  const fencesBefore = fileLines.slice(0, a - 1).filter((l) => /^\s*(?:```|~~~)/.test(l)).length;
  let cutStart: boolean;
  let cutEnd: boolean;
  if (opts.lineOriented || fencesBefore % 2 === 1) {
    // A line is whole; so is a sentence inside a line (a code comment, say).
    const lead = before.replace(COMMENT_MARKER, '');
    cutStart = lead !== '' && !SENTENCE_END_IN_LINE.test(lead);
    cutEnd = after !== '' && !SENTENCE_END_IN_LINE.test(wanted);
  } else {
    // Extend to the whole paragraph or list item: back to a blank line or a block's first line.
    let first = a;
    while (
      first > 1 &&
      !BLOCK_START.test(fileLines[first - 1] ?? '') &&
      (fileLines[first - 2] ?? '').trim() !== '' &&
      !LABEL_LINE.test(fileLines[first - 2] ?? '')
    )
      first--;
    let last = b;
    while (last < fileLines.length && (fileLines[last] ?? '').trim() !== '' && !BLOCK_START.test(fileLines[last] ?? ''))
      last++;
    const lead = normaliseWhitespace(`${fileLines.slice(first - 1, a - 1).join('\n')} ${before}`).replace(
      LEADING_MARKUP,
      '',
    );
    const tail = normaliseWhitespace(`${after} ${fileLines.slice(b, last).join('\n')}`);
    cutStart = lead !== '' ? !SENTENCE_END.test(lead) : continuesAfterCode(fileLines, first);
    cutEnd =
      tail !== ''
        ? !SENTENCE_END.test(wanted)
        : !SENTENCE_END_IN_LINE.test(wanted) &&
          continuesAfterCode(fileLines, afterCode(fileLines, nextBlock(fileLines, last)));
  }
  return cutStart && cutEnd ? 'both' : cutStart ? 'start' : cutEnd ? 'end' : undefined;
}

/** How a quote keeps the blocks of its source (an excerpt's `form`, src/lib/content/schemas.ts). */
export type QuoteForm = 'markdown' | 'sample';

const FENCE = /^\s*(?:```|~~~)/;
const HEADING_OR_BULLET = /^\s*(?:[*+-]|#{1,6})(?:\s|$)/;
const NUMBERED = /^\s*\d+[.)](?:\s|$)/;

/**
 * Whether line `n` (1-based) opens a heading or a list item. A numbered line opens one only after a
 * blank line or another item: inside a paragraph "2026. At that point" goes on with the paragraph
 * (CommonMark lets only a list starting at 1 interrupt a paragraph; after a blank line it starts one anyway).
 */
function opensBlock(fileLines: string[], n: number): boolean {
  const line = fileLines[n - 1] ?? '';
  if (HEADING_OR_BULLET.test(line)) return true;
  if (!NUMBERED.test(line)) return false;
  const before = fileLines[n - 2] ?? '';
  return before.trim() === '' || HEADING_OR_BULLET.test(before) || NUMBERED.test(before) || /^\s*1[.)]\s/.test(line);
}

/** Lines without their common indentation and trailing white space; blank lines dropped when `dropBlank`. */
function shapeLines(lines: string[], dropBlank: boolean): string[] {
  const kept = lines.map((l) => l.replace(/\s+$/, ''));
  const indent = Math.min(...kept.filter((l) => l !== '').map((l) => /^\s*/.exec(l)![0].length));
  return kept.filter((l) => !dropBlank || l !== '').map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
}

/**
 * Whether a quote keeps the shape of the source blocks it spans: a quote that runs from one Markdown
 * block into the next (a heading into its item, one list item into another) is written with the
 * source's line breaks and `form: markdown`, so it renders as a heading and a list rather than one
 * line with literal markers; one that spans lines of a code block (sample output) is written line for
 * line with `form: sample`. With a form, the quote's lines are the source's lines (the first may start
 * inside its line and the last end inside its line; indentation common to all and trailing white
 * space aside; `markdown` also sets blank lines aside).
 */
export function quoteShape(
  quote: string,
  fileText: string,
  lines: [number, number],
  form: QuoteForm | undefined,
): QuoteCheck {
  const span = quoteSpan(quote, fileText, lines);
  if (span === null) return { ok: true }; // checkQuote reports it
  const fileLines = splitLines(fileText);
  const [a, b] = span;
  const inCode = fileLines.slice(0, a - 1).filter((l) => FENCE.test(l)).length % 2 === 1;
  // A heading is one line, so a quote that starts with one and goes on crosses into the next block.
  let blocks = !inCode && b > a && /^\s*#{1,6}\s/.test(fileLines[a - 1] ?? '') ? 1 : 0;
  if (!inCode) for (let n = a + 1; n <= b; n++) if (opensBlock(fileLines, n)) blocks++;
  const where = a === b ? `line ${a}` : `lines ${a}-${b}`;
  if (inCode && b > a && form !== 'sample')
    return {
      ok: false,
      problem: `the quote spans ${where} of a code block: write it line for line as a |- block with form: sample`,
    };
  if (blocks > 0 && form !== 'markdown')
    return {
      ok: false,
      problem: `the quote runs across Markdown blocks (a heading or list items, ${where}): write it as a |- block with the source's line breaks and form: markdown, or cut it to one block`,
    };
  if (form === 'sample' && !inCode) return { ok: false, problem: 'form: sample is for lines of a code block; drop it' };
  if (form === 'markdown' && blocks === 0)
    return {
      ok: false,
      problem: 'form: markdown is for a quote that spans Markdown blocks; this one is one block, so drop it',
    };
  if (form === undefined) return { ok: true };
  const dropBlank = form === 'markdown';
  const want = shapeLines(fileLines.slice(a - 1, b), dropBlank);
  const have = shapeLines(quote.split('\n'), dropBlank);
  const same =
    want.length === have.length &&
    have.every((l, i) => {
      const w = want[i]!;
      if (form === 'markdown' ? l.trim() === w.trim() : l === w) return true;
      if (i === 0 && w.trimEnd().endsWith(l.trim())) return true;
      return i === have.length - 1 && w.trimStart().startsWith(l.trim());
    });
  return same
    ? { ok: true }
    : {
        ok: false,
        problem: `with form: ${form} the quote keeps the source's lines (${where}); its lines differ from them: "${snippet(have.join(' / '))}"`,
      };
}

/** The repository whose pinned copy quotes are checked against. */
export const QUOTED_REPO = 'kubernetes/enhancements';

interface QuoteExcerpt extends CheckedExcerpt {
  quote?: string;
  cut?: QuoteCut;
  form?: QuoteForm;
}

/** What an excerpt says of its cut, and what the source says. */
function cutFinding(said: QuoteCut | undefined, is: QuoteCut | undefined): string {
  const says = said === undefined ? 'no cut' : `cut: ${said}`;
  const so =
    is === undefined
      ? 'the quote starts and ends where a sentence does (a whole line in YAML or code), so drop cut'
      : `the quote breaks off mid-sentence, so state cut: ${is}`;
  return `excerpt says ${says}, but ${so}`;
}

/**
 * The quotes of QUOTED_REPO sources: verbatim in their lines, the lines no wider than the quote, and
 * `cut` saying where it breaks off mid-sentence. The file is read by its path inside the repository.
 */
export const quoteRule: ExcerptRule<CheckedSource, QuoteExcerpt> = {
  covers: (excerpt, source) => excerpt.quote !== undefined && (source === undefined || source.repo === QUOTED_REPO),
  upstream: upstreamPath,
  missing: (file) => ({ field: 'quote', problem: `file not found: ${file}` }),
  check: ({ quote = '', lines, cut, form }, text, file) => {
    const found = checkQuote(quote, text, lines);
    if (!found.ok) return [{ field: 'quote', problem: `${file}: ${found.problem}` }];
    const findings: Finding[] = [];
    const range = checkQuoteRange(quote, text, lines);
    if (!range.ok) findings.push({ field: 'lines', problem: `${file}: ${range.problem}` });
    const is = quoteCut(quote, text, lines, { lineOriented: /\.ya?ml$/.test(file) });
    if (is !== cut) findings.push({ field: 'cut', problem: `${file}: ${cutFinding(cut, is)}` });
    const shape = /\.ya?ml$/.test(file) ? ({ ok: true } as const) : quoteShape(quote, text, lines, form);
    if (!shape.ok) findings.push({ field: 'form', problem: `${file}: ${shape.problem}` });
    return findings;
  },
};

/** Checks every quote of a QUOTED_REPO source against its file (`readFile`: path in the repository, or null). */
export const verifyQuotes = (
  content: { sources: readonly CheckedSource[]; excerpts: readonly QuoteExcerpt[] },
  readFile: (repoPath: string) => string | null,
): ExcerptReport<QuoteExcerpt> => verifyExcerpts(content, quoteRule, readFile);
