// The pinned upstream files the code notes cite. A kubernetes/kubernetes source pinned to a commit
// is read from a folder of byte-exact copies laid out as <commit>/<path> (../shared/sources/kubernetes
// beside the repository, or KUBERNETES_SOURCES); one pinned to a release tag (v1.37.2) from that
// release's module in the Go module cache, <GOMODCACHE>/k8s.io/kubernetes@<tag>/<path>, byte for byte
// as the module proxy served it (`go mod download k8s.io/kubernetes@<tag>` puts it there).
// The build's rules read code notes' lines from here (each anchor in its lines; each token in its
// sentence's citations); where a copy is absent (a clone away from ../shared, a machine without the
// module), they say so once and leave those notes unread. Also where an excerpt's file is upstream,
// and the line splitting the quote and anchor checks share.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { isReleaseTag } from './pins.ts';

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

export { isReleaseTag };

let goEnvCache: string | undefined;
/**
 * The Go module cache: GOMODCACHE, else what `go env GOMODCACHE` says (asked once per process),
 * else $HOME/go/pkg/mod (Go's own default).
 */
export function goModCache(): string {
  if (process.env.GOMODCACHE) return resolve(process.env.GOMODCACHE);
  if (goEnvCache === undefined) {
    let said: string;
    try {
      said = execFileSync('go', ['env', 'GOMODCACHE'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 15_000,
      }).trim();
    } catch {
      said = ''; // no Go here
    }
    goEnvCache = resolve(said || join(homedir(), 'go', 'pkg', 'mod'));
  }
  return goEnvCache;
}

/** The module kubernetes/kubernetes is published as, whose release zips the module proxy serves. */
export const KUBERNETES_MODULE = 'k8s.io/kubernetes';

/** Where a release of kubernetes/kubernetes is in the Go module cache: <GOMODCACHE>/k8s.io/kubernetes@<tag>. */
export const releaseFolder = (tag: string): string => join(goModCache(), `${KUBERNETES_MODULE}@${tag}`);

/** Where a release's staging repository k8s.io/<name> is published: its own module, beside the release's. */
const stagingModule = (release: (tag: string) => string, tag: string, name: string): string =>
  join(dirname(release(tag)), `${name}@${tag.replace(/^v1\./, 'v0.')}`);

/**
 * A release's staging repositories (staging/src/k8s.io/<name>/...) are not in its module: each is
 * published as a module of its own, k8s.io/<name>, tagged v0.<minor>.<patch> for release
 * v1.<minor>.<patch>, beside it in the cache. Where a staging file of a release is, or undefined
 * for a path outside staging.
 */
export function stagingFile(release: (tag: string) => string, tag: string, path: string): string | undefined {
  const m = /^staging\/src\/k8s\.io\/([a-z0-9-]+)\/(.+)$/.exec(path);
  return m ? join(stagingModule(release, tag, m[1]!), m[2]!) : undefined;
}

/**
 * A release's files: its module's, and its staging repositories' from their own modules (each read
 * by folderFiles too, so each file once); null for a staging module the cache does not hold.
 */
function releaseReader(release: (tag: string) => string, tag: string): FileReader | undefined {
  const own = folderFiles(release(tag), `${KUBERNETES_REPO}/${tag}`);
  if (!own) return undefined;
  const staging = new Map<string, FileReader | undefined>();
  const prefix = `${KUBERNETES_REPO}/${tag}/staging/src/k8s.io/`;
  return (upstream) => {
    if (!upstream.startsWith(prefix)) return own(upstream);
    const name = upstream.slice(prefix.length).split('/', 1)[0]!;
    if (!staging.has(name)) staging.set(name, folderFiles(stagingModule(release, tag, name), `${prefix}${name}`));
    return staging.get(name)?.(upstream) ?? null;
  };
}

/** How to get a release's files onto this machine, for messages. */
export const releaseFetchHint = (tag: string): string => `cd lab && go mod download -json ${KUBERNETES_MODULE}@${tag}`;

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
  return read && linesOf(read);
}

/** Lines a..b of the files `read` gives. */
function linesOf(read: FileReader): LinesReader {
  return (from, commit, path, [a, b]) => {
    const text = read(`${from}/${commit}/${path}`);
    return text === null
      ? null
      : splitLines(text)
          .slice(a - 1, b)
          .join('\n');
  };
}

/**
 * Reads `<repo>/<pin>/<path>` of kubernetes/kubernetes wherever its pin is kept: a release tag's
 * files from `release(tag)` (the Go module cache), a commit's from `<folder>/<commit>/<path>`. Null
 * for any other repository, for a file the copy does not hold, and for a copy that is absent, in
 * which case it says so once (sayUnread).
 */
export function pinnedFiles(folder = kubernetesSources(), release = releaseFolder): FileReader {
  const commits = folderFiles(folder);
  const releases = new Map<string, FileReader | undefined>();
  const prefix = `${KUBERNETES_REPO}/`;
  return (upstream) => {
    if (!upstream.startsWith(prefix)) return null;
    const pin = upstream.slice(prefix.length).split('/', 1)[0] ?? '';
    if (!isReleaseTag(pin)) {
      if (!commits) sayUnread();
      return commits?.(upstream) ?? null;
    }
    if (!releases.has(pin)) releases.set(pin, releaseReader(release, pin));
    const read = releases.get(pin);
    if (!read) {
      sayUnread(`${release(pin)} (${releaseFetchHint(pin)})`);
      return null;
    }
    return read(upstream);
  };
}

/**
 * Reads `<repo>/<tag>/<path>` of kubernetes/kubernetes for a release tag from `release(tag)` (the Go
 * module cache); null for a commit pin, another repository, or a file or release not there.
 */
export function releaseFiles(release = releaseFolder): FileReader {
  const releases = new Map<string, FileReader | undefined>();
  const prefix = `${KUBERNETES_REPO}/`;
  return (upstream) => {
    if (!upstream.startsWith(prefix)) return null;
    const pin = upstream.slice(prefix.length).split('/', 1)[0] ?? '';
    if (!isReleaseTag(pin)) return null;
    if (!releases.has(pin)) releases.set(pin, releaseReader(release, pin));
    return releases.get(pin)?.(upstream) ?? null;
  };
}

/** Lines a..b of the files `pinnedFiles` reads. */
export function pinnedLines(folder = kubernetesSources(), release = releaseFolder): LinesReader {
  return linesOf(pinnedFiles(folder, release));
}

let told = false;
/**
 * Says once per process that a copy is absent (by default the commit folders), so that what needs
 * it was not checked.
 */
export function sayUnread(where = `${kubernetesSources()} (set KUBERNETES_SOURCES)`): void {
  if (told) return;
  told = true;
  console.log(
    `content: no kubernetes/kubernetes copies at ${where}: ` +
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
