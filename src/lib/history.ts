// When a page's content last changed, from the repository's history (the newest commit that touched
// its files), not the build's time; and where a reader edits the page, reports a problem or reads how
// a measurement is published, when the build is told the repository (SITE_REPOSITORY). A build
// outside a git checkout, or from a shallow clone (whose one commit would date every file alike),
// shows no date, and says so once.
import { execFileSync } from 'node:child_process';
import { relative, resolve } from 'node:path';

const dates = new Map<string, string | undefined>();
let history: 'full' | 'none' | undefined;

function git(dir: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** The date (YYYY-MM-DD) of the newest commit that touched any of `paths` (files or folders), if known. */
export function lastChanged(dir: string, paths: string[]): string | undefined {
  if (paths.length === 0) return undefined;
  history ??= git(dir, ['rev-parse', '--is-shallow-repository']) === 'false' ? 'full' : 'none';
  if (history === 'none') return undefined;
  const key = paths.join('\n');
  if (!dates.has(key)) {
    const date = git(dir, ['log', '-1', '--format=%cs', '--', ...paths.map((p) => resolve(dir, p))]);
    dates.set(key, date && /^\d{4}-\d\d-\d\d$/.test(date) ? date : undefined);
  }
  return dates.get(key);
}

/** `path` (under `dir`) relative to the repository's root, as the repository's web pages name it. */
export function inRepository(dir: string, path: string): string | undefined {
  const top = git(dir, ['rev-parse', '--show-toplevel']);
  return top ? relative(top, resolve(dir, path)) : undefined;
}

export interface Repository {
  /** "Source": the repository itself. */
  home: string;
  /** "Edit this page": the file on the repository's default branch, in its web editor. */
  edit?: string;
  /** "Edit the table": where a page that shows the table besides its own text has the table's. */
  editTable?: string;
  /** "Report a problem": a new issue, its title naming the page. */
  report: string;
  /** How a measurement is published: docs/evidence.md's section on the pull request and its check. */
  publish: string;
  /** How one is captured on a node: docs/evidence.md itself, the kit's instructions. */
  capture: string;
}

/**
 * Links into the repository (GitHub's URL forms) when SITE_REPOSITORY names it (https://github.com/o/r);
 * `file` is the page's source, relative to the repository's root (none for generated evidence), and
 * `table` the table's, on a page that shows it besides its own text.
 */
export function repositoryLinks(
  repository: string | undefined,
  page: string,
  file: string | undefined,
  table?: string,
): Repository | undefined {
  if (!repository) return undefined;
  const repo = repository.replace(/\/+$/, '');
  const branch = process.env.SITE_BRANCH || 'main';
  return {
    home: repo,
    ...(file && { edit: `${repo}/edit/${branch}/${file}` }),
    ...(table && { editTable: `${repo}/edit/${branch}/${table}` }),
    report: `${repo}/issues/new?title=${encodeURIComponent(`Problem on ${page}`)}`,
    publish: `${repo}/blob/${branch}/docs/evidence.md#publishing-a-measurement`,
    capture: `${repo}/blob/${branch}/docs/evidence.md`,
  };
}
