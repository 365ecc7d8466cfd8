// Where verify:drift reads upstream files from: a copy of a repository in one of three layouts.
//   git        a checkout (or a bare clone): files at any commit its history holds, read with
//              `git cat-file --batch`; renames as `git diff -M` sees them; a commit's date from git.
//   snapshot   the files of one commit at their repository paths, with a SOURCE.md that names the
//              commit ("Snapshot commit … `<sha>`") and may record its date ("Commit date: …"), as
//              ../shared/sources/kubernetes-enhancements is laid out.
//   commits    one folder per commit, <folder>/<commit>/<path>, as ../shared/sources/kubernetes is
//              laid out (and as verify:anchors reads); a folder may also be named for a release tag,
//              <folder>/v1.37.2/<path> (a link to that release's module in the Go module cache will
//              do; its staging/src/k8s.io/<name>/ files are then read from k8s.io/<name>@v0.37.2
//              beside it). No history: no renames, no dates.
// Each answers the same four questions, so the drift check does not know which it reads.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isReleaseTag, stagingFile } from '../../src/lib/upstream/index.ts';

export interface Upstream {
  /** "git checkout at <dir>", for messages. */
  describe: string;
  /** The commit to compare a pin at `pinned` with: the ref asked for (HEAD by default), resolved. */
  target(pinned: string): string;
  /** Whether the copy holds files at this commit. */
  hasCommit(commit: string): boolean;
  /** The file's text at a commit, or null when the commit has no such file. */
  read(commit: string, path: string): string | null;
  /** Where the file at `path` in `from` is in `to`, when git sees it renamed (else undefined). */
  renamed(from: string, to: string, path: string): string | undefined;
  /** The commit's date (UTC, YYYY-MM-DD) when the copy records it. */
  date(commit: string): string | undefined;
  /** Reads these (commit, path) pairs ahead, in one go where the layout allows. */
  prefetch(wanted: Array<{ commit: string; path: string }>): void;
}

export class UpstreamError extends Error {}

const SHA = /^[0-9a-f]{40}$/;
/** A folder of the commit-folder layout: a commit id, or a release tag. */
const PIN_FOLDER = /^(?:[0-9a-f]{40}|v\d+\.\d+\.\d+)$/;
const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();
const readOrNull = (file: string): string | null =>
  existsSync(file) && statSync(file).isFile() ? readFileSync(file, 'utf8') : null;

function git(dir: string, args: string[], input?: string): Buffer {
  return execFileSync('git', ['-C', dir, ...args], { input, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'] });
}

function gitUpstream(dir: string, at: string): Upstream {
  let target: string;
  try {
    target = git(dir, ['rev-parse', '--verify', '--quiet', `${at}^{commit}`])
      .toString()
      .trim();
  } catch {
    throw new UpstreamError(`${dir}: no commit "${at}" in this git repository`);
  }
  const commits = new Map<string, boolean>();
  const blobs = new Map<string, string | null>();
  const renames = new Map<string, Map<string, string>>();
  const dates = new Map<string, string | undefined>();
  const key = (commit: string, path: string) => `${commit}:${path}`;
  const hasCommit = (commit: string) => {
    if (!commits.has(commit)) {
      let ok = true;
      try {
        git(dir, ['cat-file', '-e', `${commit}^{commit}`]);
      } catch {
        ok = false;
      }
      commits.set(commit, ok);
    }
    return commits.get(commit)!;
  };
  /** `git cat-file --batch`: one process for every file asked for. */
  const prefetch = (wanted: Array<{ commit: string; path: string }>) => {
    const todo = [...new Set(wanted.map((w) => key(w.commit, w.path)))].filter((k) => !blobs.has(k));
    if (todo.length === 0) return;
    const out = git(dir, ['cat-file', '--batch'], `${todo.join('\n')}\n`);
    let at = 0;
    for (const k of todo) {
      const eol = out.indexOf(10, at);
      const header = out.subarray(at, eol).toString();
      at = eol + 1;
      const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
      if (!m) {
        blobs.set(k, null);
        continue;
      } // "<k> missing" (or ambiguous)
      const size = Number(m[2]);
      blobs.set(k, m[1] === 'blob' ? out.subarray(at, at + size).toString('utf8') : null);
      at += size + 1;
    }
  };
  return {
    describe: `git repository ${dir} at ${at} (${target.slice(0, 12)})`,
    target: () => target,
    hasCommit,
    read(commit, path) {
      prefetch([{ commit, path }]);
      return blobs.get(key(commit, path)) ?? null;
    },
    renamed(from, to, path) {
      const pair = `${from}..${to}`;
      if (!renames.has(pair)) {
        const map = new Map<string, string>();
        const out = git(dir, ['diff', '--name-status', '-M', '--diff-filter=R', '-z', from, to]).toString().split('\0');
        for (let i = 0; i + 2 < out.length; i += 3) if (out[i]!.startsWith('R')) map.set(out[i + 1]!, out[i + 2]!);
        renames.set(pair, map);
      }
      return renames.get(pair)!.get(path);
    },
    date(commit) {
      if (!dates.has(commit)) {
        let date: string | undefined;
        try {
          date = new Date(git(dir, ['show', '-s', '--format=%cI', commit]).toString().trim())
            .toISOString()
            .slice(0, 10);
        } catch {
          date = undefined;
        }
        dates.set(commit, date);
      }
      return dates.get(commit);
    },
    prefetch,
  };
}

/** What a SOURCE.md of a snapshot records: its commit and, if written, the commit's date. */
export function readSnapshotRecord(text: string): { commit?: string; date?: string } {
  const commit = /Snapshot commit[\s\S]*?`([0-9a-f]{40})`/.exec(text)?.[1];
  const when = /Commit date:\s*(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2})\s*([+-]\d{2}:?\d{2}|Z)?/.exec(text);
  let date: string | undefined;
  if (when) {
    const zone = when[2] === undefined || when[2] === 'Z' ? 'Z' : when[2].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
    const parsed = new Date(`${when[1]!.replace(' ', 'T')}${zone}`);
    if (!Number.isNaN(parsed.getTime())) date = parsed.toISOString().slice(0, 10);
  }
  return { commit, date };
}

function snapshotUpstream(dir: string, at: string | undefined): Upstream {
  const record = readSnapshotRecord(readFileSync(join(dir, 'SOURCE.md'), 'utf8'));
  const commit = record.commit;
  if (!commit) throw new UpstreamError(`${dir}/SOURCE.md names no snapshot commit ("Snapshot commit … \`<40 hex>\`")`);
  if (at !== undefined && at !== 'HEAD' && !commit.startsWith(at))
    throw new UpstreamError(`${dir} is a snapshot of ${commit} only (SOURCE.md); --at ${at} needs a git checkout`);
  const hasCommit = (c: string) => c === commit;
  return {
    describe: `snapshot ${dir} of ${commit.slice(0, 12)} (SOURCE.md)`,
    target: () => commit,
    hasCommit,
    read: (c, path) => (hasCommit(c) ? readOrNull(join(dir, path)) : null),
    renamed: () => undefined,
    date: (c) => (hasCommit(c) ? record.date : undefined),
    prefetch: () => {},
  };
}

function commitFoldersUpstream(dir: string, at: string | undefined): Upstream {
  const folders = readdirSync(dir).filter((f) => PIN_FOLDER.test(f) && isDir(join(dir, f)));
  let fixed: string | undefined;
  if (at !== undefined && at !== 'HEAD') {
    // A commit may be abbreviated; a tag is named whole (v1.37.2 is not v1.37.20).
    const matches = folders.filter((f) => (SHA.test(f) ? f.startsWith(at) : f === at));
    if (matches.length !== 1)
      throw new UpstreamError(
        `${dir}: ${matches.length === 0 ? 'no' : 'more than one'} folder <commit>/ for --at ${at}`,
      );
    fixed = matches[0];
  }
  const hasCommit = (c: string) => folders.includes(c);
  return {
    describe: fixed
      ? `commit folders ${dir}, at ${SHA.test(fixed) ? fixed.slice(0, 12) : fixed}`
      : `commit folders ${dir} (each pin against its own commit's folder)`,
    // Without --at there is no "newest": each pin is read against the copy at its own commit.
    target: (pinned) => fixed ?? pinned,
    hasCommit,
    read: (c, path) => {
      if (!hasCommit(c)) return null;
      // A tag folder linked to a release's module: its staging files are in their own modules beside it.
      const staged = isReleaseTag(c) ? stagingFile((tag) => realpathSync(join(dir, tag)), c, path) : undefined;
      return readOrNull(join(dir, c, path)) ?? (staged === undefined ? null : readOrNull(staged));
    },
    renamed: () => undefined,
    date: () => undefined,
    prefetch: () => {},
  };
}

/** Whether `dir` is itself a git repository: a work tree's top folder, or a bare repository. */
function isRepository(dir: string): boolean {
  const ask = (...args: string[]) => {
    try {
      return git(dir, args).toString().trim();
    } catch {
      return undefined;
    }
  };
  if (ask('rev-parse', '--is-bare-repository') === 'true') return true;
  const top = ask('rev-parse', '--show-toplevel');
  return top !== undefined && realpathSync(top) === realpathSync(dir);
}

/** Opens a copy of a repository in whichever layout it has; `at` is the ref to compare with (HEAD). */
export function openUpstream(dir: string, at?: string): Upstream {
  if (!isDir(dir)) throw new UpstreamError(`${dir} is not a directory`);
  // A folder inside some other repository (a snapshot kept in a project) is not that repository.
  if (isRepository(dir)) return gitUpstream(dir, at ?? 'HEAD');
  if (readdirSync(dir).some((f) => PIN_FOLDER.test(f) && isDir(join(dir, f)))) return commitFoldersUpstream(dir, at);
  if (existsSync(join(dir, 'SOURCE.md'))) return snapshotUpstream(dir, at);
  throw new UpstreamError(
    `${dir}: not a git repository, a snapshot with SOURCE.md, or a folder of <commit>/<path> copies`,
  );
}
