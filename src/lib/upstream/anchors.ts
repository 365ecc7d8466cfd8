// Anchor checking for code notes. A code note (an excerpt with `note:` of a source that is not
// quotable) names its lines and an `anchor:`, a short token copied from those lines. It passes when
// the anchor occurs verbatim (as a substring, nothing normalised) within exactly lines a..b of the
// file at the source's pinned commit. When it does not, the problem says on which lines the anchor
// really is, so the note can be moved to them (or its claim re-read against them).
// A note's verbatim `code` is checked in the same pass, against the same file (code.ts).
// Pure module (no I/O): the build's content rule (checks/excerpts.ts, anchorsInTheirLines), the CLI
// (tools/verify-anchors.ts) and the unit tests share the same rule, run by verifyExcerpts.
import { posix } from 'node:path';
import type { Unlocated } from '../problems.ts';
import { checkCode, type CodeLines } from './code.ts';
import { isReleaseTag, rangeProblem, releaseFetchHint, splitLines, upstreamPath } from './upstream.ts';
import {
  verifyExcerpts,
  type CheckedExcerpt,
  type CheckedSource,
  type ExcerptReport,
  type ExcerptRule,
} from './verify-excerpts.ts';

export type AnchorCheck = { ok: true } | ({ ok: false } & Required<Pick<Unlocated, 'problem'>>);

/** The 1-based numbers of the lines of `fileText` that contain `anchor`. */
export function anchorLines(anchor: string, fileText: string): number[] {
  return splitLines(fileText).flatMap((line, i) => (line.includes(anchor) ? [i + 1] : []));
}

const listLines = (at: number[]): string => (at.length === 1 ? `line ${at[0]}` : `lines ${at.join(', ')}`);

/** Checks that `anchor` occurs verbatim within lines a..b (1-based, inclusive) of `fileText`. */
export function checkAnchor(anchor: string, fileText: string, lines: [number, number]): AnchorCheck {
  const fileLines = splitLines(fileText);
  const bad = rangeProblem(lines, fileLines.length);
  if (bad) return { ok: false, problem: bad };
  const [a, b] = lines;
  if (
    fileLines
      .slice(a - 1, b)
      .join('\n')
      .includes(anchor)
  )
    return { ok: true };
  const at = anchorLines(anchor, fileText);
  return {
    ok: false,
    problem:
      at.length === 0
        ? `"${anchor}" is not in the file at all (${fileLines.length} lines)`
        : `"${anchor}" is not in lines ${a}-${b}; it is on ${listLines(at)}`,
  };
}

interface AnchorSource extends CheckedSource {
  commit: string;
  quotable: boolean;
}
interface AnchorExcerpt extends CheckedExcerpt {
  note?: string;
  anchor?: string;
  /** Its verbatim lines, checked byte for byte against the same file (code.ts). */
  code?: CodeLines | undefined;
}

/**
 * Code notes (a `note:` excerpt of a non-quotable source): the anchor within exactly its lines, and
 * the verbatim `code`, where a note has it, byte for byte the file's lines (code.ts).
 */
export const anchorRule: ExcerptRule<AnchorSource, AnchorExcerpt> = {
  covers: (excerpt, source) => source !== undefined && !source.quotable && excerpt.note !== undefined,
  upstream: (source, excerpt) => posix.join(source.repo, source.commit, upstreamPath(source, excerpt)),
  precheck: (excerpt) =>
    excerpt.anchor === undefined ? { field: 'anchor', problem: 'a code note has no anchor to check' } : undefined,
  missing: (upstream) => {
    const pin = upstream.split('/')[2] ?? '';
    return {
      field: 'anchor',
      problem: isReleaseTag(pin)
        ? `file missing: ${upstream} (not in the release's module in the Go module cache: ${releaseFetchHint(pin)})`
        : `file missing: ${upstream} (fetch it at the pinned commit into the folder)`,
    };
  },
  check: (excerpt, text, upstream) => {
    const result = checkAnchor(excerpt.anchor!, text, excerpt.lines);
    const anchor = result.ok ? [] : [{ field: 'anchor', problem: `${upstream}: ${result.problem}` }];
    return [...anchor, ...(excerpt.code ? checkCode(excerpt.code, text, upstream) : [])];
  },
};

/**
 * Checks every code note of every non-quotable source. `readFile` gets
 * `<repo>/<commit>/<path in the repository>` and returns the file's text, or null when it is missing
 * (reported, never skipped).
 */
export const verifyAnchors = (
  content: { sources: readonly AnchorSource[]; excerpts: readonly AnchorExcerpt[] },
  readFile: (upstream: string) => string | null,
): ExcerptReport<AnchorExcerpt> => verifyExcerpts(content, anchorRule, readFile);
