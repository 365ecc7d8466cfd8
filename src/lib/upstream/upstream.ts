// The pinned upstream files the code notes cite, read from a folder of byte-exact copies laid out
// as <commit>/<path> (../shared/sources/kubernetes beside the repository, or KUBERNETES_SOURCES).
// The build's rules read code notes' lines from here (each anchor in its lines; each token in its
// sentence's citations); where the folder is absent (a clone away from ../shared), they say so once
// and leave those notes unread. Also where an excerpt's file is upstream, and the line splitting the
// quote and anchor checks share.
import { existsSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';

/** What these checks need of a source: where its file is pinned. */
interface PinnedSource {
  repo: string;
  commit: string;
  path: string;
}
/** What they need of an excerpt: its lines, and its file when it is not the source's own. */
interface PinnedLines {
  lines: readonly [number, number] | number[];
  path?: string | undefined;
}

/** The repository path of an excerpt's file: the source itself, or a sibling such as kep.yaml. */
export const upstreamPath = (source: Pick<PinnedSource, 'path'>, excerpt: Pick<PinnedLines, 'path'>): string =>
  excerpt.path ? posix.join(posix.dirname(source.path), excerpt.path) : source.path;

/** The pinned permalink to an excerpt's lines. */
export function upstreamUrl(source: PinnedSource, excerpt: PinnedLines): string {
  const [a, b] = excerpt.lines;
  return `https://github.com/${source.repo}/blob/${source.commit}/${upstreamPath(source, excerpt)}#L${a}${b !== a ? `-L${b}` : ''}`;
}

/** The folder of kubernetes/kubernetes copies: KUBERNETES_SOURCES, else ../shared/sources/kubernetes. */
export const kubernetesSources = (): string =>
  resolve(process.env.KUBERNETES_SOURCES ?? join(process.cwd(), '..', 'shared', 'sources', 'kubernetes'));

/** The repository those copies are of. */
export const KUBERNETES_REPO = 'kubernetes/kubernetes';

/** A file of `repo` at `commit` by its `<repo>/<commit>/<path>`, or null when it cannot be read. */
export type FileReader = (upstream: string) => string | null;
/** Lines a..b (1-based) of a file of `repo` at `commit`, or null when it cannot be read. */
export type LinesReader = (
  repo: string,
  commit: string,
  path: string,
  lines: readonly [number, number],
) => string | null;

/**
 * Reads `<repo>/<commit>/<path>` from <folder>/<commit>/<path>, for files of `repo` only (null for
 * any other, and for a file the folder does not hold); undefined when the folder is missing.
 */
export function folderFiles(folder: string, repo = KUBERNETES_REPO): FileReader | undefined {
  if (!existsSync(folder)) return undefined;
  const files = new Map<string, string | null>();
  return (upstream) => {
    if (!upstream.startsWith(`${repo}/`)) return null;
    const file = join(folder, upstream.slice(repo.length + 1));
    if (!files.has(file)) files.set(file, existsSync(file) ? readFileSync(file, 'utf8') : null);
    return files.get(file) ?? null;
  };
}

/** Lines a..b of the files `folderFiles` reads. */
export function folderLines(folder: string, repo = KUBERNETES_REPO): LinesReader | undefined {
  const read = folderFiles(folder, repo);
  if (!read) return undefined;
  return (from, commit, path, [a, b]) => {
    const text = read(`${from}/${commit}/${path}`);
    return text === null
      ? null
      : splitLines(text)
          .slice(a - 1, b)
          .join('\n');
  };
}

let told = false;
/** Says once per process that the copies are absent, so that what needs them was not checked. */
export function sayUnread(): void {
  if (told) return;
  told = true;
  console.log(
    `content: no kubernetes/kubernetes copies at ${kubernetesSources()} (set KUBERNETES_SOURCES): ` +
      "code notes' anchors and the tokens only their lines could carry were not checked",
  );
}

/** Splits file text into lines, tolerating CRLF and a trailing newline. */
export function splitLines(fileText: string): string[] {
  const lines = fileText.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Why a 1-based inclusive line range cannot be read from a file of `count` lines, or undefined if it can. */
export function rangeProblem([a, b]: [number, number], count: number): string | undefined {
  if (!Number.isInteger(a) || !Number.isInteger(b) || a < 1 || b < a)
    return `invalid line range [${a}, ${b}] (need 1 <= first <= last)`;
  if (b > count) return `line range [${a}, ${b}] is outside the file, which has ${count} lines`;
  return undefined;
}
