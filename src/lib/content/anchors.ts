// Anchor checking for code notes. A code note (an excerpt with `note:` of a source that is not
// quotable) names its lines and an `anchor:`, a short token copied from those lines. It passes when
// the anchor occurs verbatim (as a substring, nothing normalised) within exactly lines a..b of the
// file at the source's pinned commit. When it does not, the problem says on which lines the anchor
// really is, so the note can be moved to them (or its claim re-read against them).
// Pure module (no I/O): the build's content rule (checks/excerpts.ts, anchorsInTheirLines), the CLI
// (tools/verify-anchors.ts) and the unit tests share the same rule.
import { posix } from 'node:path';
import { rangeProblem, splitLines, upstreamPath } from './upstream.ts';

export type AnchorCheck = { ok: true } | { ok: false; reason: string };

/** The 1-based numbers of the lines of `fileText` that contain `anchor`. */
export function anchorLines(anchor: string, fileText: string): number[] {
  return splitLines(fileText).flatMap((line, i) => (line.includes(anchor) ? [i + 1] : []));
}

const listLines = (at: number[]): string => (at.length === 1 ? `line ${at[0]}` : `lines ${at.join(', ')}`);

/** Checks that `anchor` occurs verbatim within lines a..b (1-based, inclusive) of `fileText`. */
export function checkAnchor(anchor: string, fileText: string, lines: [number, number]): AnchorCheck {
  const fileLines = splitLines(fileText);
  const bad = rangeProblem(lines, fileLines.length);
  if (bad) return { ok: false, reason: bad };
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
    reason:
      at.length === 0
        ? `"${anchor}" is not in the file at all (${fileLines.length} lines)`
        : `"${anchor}" is not in lines ${a}-${b}; it is on ${listLines(at)}`,
  };
}

interface AnchorSource {
  id: string;
  repo: string;
  path: string;
  commit: string;
  quotable: boolean;
}
interface AnchorExcerpt {
  id: string;
  source: string;
  lines: [number, number];
  path?: string;
  note?: string;
  anchor?: string;
  file: string;
  index: number;
}

/** One code note whose anchor is not where its lines say. */
export interface AnchorFailure {
  /** The excerpt, as the content readers give it (its YAML file and index, to locate the problem). */
  excerpt: AnchorExcerpt;
  /** `<repo>/<commit>/<path>`: where the file at the pinned commit is read from. */
  upstream: string;
  reason: string;
}

export interface AnchorReport {
  /** Code notes compared with their file. */
  checked: number;
  failures: AnchorFailure[];
}

/**
 * Checks every code note (a `note:` excerpt) of every non-quotable source. `readFile` gets
 * `<repo>/<commit>/<path in the repository>` and returns the file's text, or null when it is missing
 * (reported, never skipped).
 */
export function verifyAnchors(
  content: { sources: readonly AnchorSource[]; excerpts: readonly AnchorExcerpt[] },
  readFile: (upstream: string) => string | null,
): AnchorReport {
  const sources = new Map(content.sources.map((s) => [s.id, s]));
  const failures: AnchorFailure[] = [];
  let checked = 0;
  for (const excerpt of content.excerpts) {
    const source = sources.get(excerpt.source);
    if (!source || source.quotable || excerpt.note === undefined) continue;
    const upstream = posix.join(source.repo, source.commit, upstreamPath(source, excerpt));
    checked++;
    const fail = (reason: string) => failures.push({ excerpt, upstream, reason });
    if (excerpt.anchor === undefined) {
      fail('a code note has no anchor to check');
      continue;
    }
    const text = readFile(upstream);
    if (text === null) {
      fail(`file missing: ${upstream} (fetch it at the pinned commit into the folder)`);
      continue;
    }
    const result = checkAnchor(excerpt.anchor, text, excerpt.lines);
    if (!result.ok) fail(`${upstream}: ${result.reason}`);
  }
  return { checked, failures };
}
