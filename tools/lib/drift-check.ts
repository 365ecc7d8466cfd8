// Every excerpt and code note of the content against a newer copy of its repository: reads the
// file at the source's pinned commit and at the copy's target commit (following a rename git
// sees), and classifies the pin (tools/lib/drift.ts). Sources whose repository has no copy given
// are left out, and said to be.
import { posix } from 'node:path';
import type { ExcerptEntry, SourceEntry } from '../../src/lib/content/load.ts';
import { upstreamPath } from '../../src/lib/upstream/index.ts';
import { excerptId } from '../../src/lib/claims/index.ts';
import { classify, type Drift } from './drift.ts';
import type { Upstream } from './drift-upstream.ts';
import { checkQuote } from './quotes.ts';
import { checkAnchor } from '../../src/lib/upstream/index.ts';

export interface ItemResult {
  /** Full id, "<source>/<excerpt>". */
  id: string;
  excerpt: ExcerptEntry;
  /** Its file's path in the repository at the pinned commit. */
  path: string;
  /** The drift, or why the pin could not be read (a broken pin or a copy without the commit). */
  drift?: Drift;
  error?: string;
  /** When changed: whether the quote (or a code note's anchor) is still in the closest lines. */
  stillThere?: boolean;
}

export interface SourceResult {
  source: SourceEntry;
  /** The copy it was read from; undefined when no copy of its repository was given. */
  upstream?: Upstream;
  /** The commit compared with. */
  target?: string;
  /** The target commit's date, where the copy records it. */
  targetDate?: string;
  /** The source's file at the target (its path, or where git sees it renamed); undefined when gone. */
  targetPath?: string;
  /** The date the copy records for the pinned commit, when it disagrees with content's `committed`. */
  dateProblem?: string;
  items: ItemResult[];
}

/** Checks every excerpt of every source whose repository (`kubernetes/enhancements`, …) has a copy. */
export function checkDrift(
  content: { sources: readonly SourceEntry[]; excerpts: readonly ExcerptEntry[] },
  upstreams: ReadonlyMap<string, Upstream>,
): SourceResult[] {
  const results: SourceResult[] = [];
  for (const source of content.sources) {
    const excerpts = content.excerpts.filter((e) => e.source === source.id);
    const items: ItemResult[] = excerpts.map((excerpt) => ({
      id: excerptId(excerpt),
      excerpt,
      path: upstreamPath(source, excerpt),
    }));
    const up = upstreams.get(source.repo);
    if (!up) {
      results.push({ source, items });
      continue;
    }
    const target = up.target(source.commit);
    const result: SourceResult = { source, upstream: up, target, targetDate: up.date(target), items };
    results.push(result);
    if (!up.hasCommit(source.commit)) {
      const error = `the pinned commit ${source.commit} is not in ${up.describe}: fetch it (git fetch origin ${source.commit}) or give a copy that has it`;
      for (const item of items) item.error = error;
      continue;
    }
    const recorded = up.date(source.commit);
    if (recorded !== undefined && source.committed !== undefined && recorded !== source.committed)
      result.dateProblem = `content says the pinned commit was made on ${source.committed}; ${up.describe} records ${recorded}`;
    up.prefetch(
      [source.path, ...items.map((i) => i.path)].flatMap((path) => [
        { commit: source.commit, path },
        { commit: target, path },
      ]),
    );
    const now = (path: string): { text: string | null; path: string } => {
      const text = up.read(target, path);
      if (text !== null || target === source.commit) return { text, path };
      const to = up.renamed(source.commit, target, path);
      return to === undefined ? { text: null, path } : { text: up.read(target, to), path: to };
    };
    const main = now(source.path);
    if (main.text !== null) result.targetPath = main.path;
    for (const item of items) {
      const pinned = up.read(source.commit, item.path);
      if (pinned === null) {
        item.error = `${item.path} is not in ${up.describe} at the pinned commit ${source.commit.slice(0, 12)}`;
        continue;
      }
      const at = now(item.path);
      try {
        const drift = classify({
          pinned,
          lines: item.excerpt.lines,
          now: at.text,
          nowPath: at.path,
          renamed: at.path !== item.path,
        });
        item.drift = drift;
        if (drift.state === 'changed' && drift.closest && at.text !== null) {
          const { quote, anchor } = item.excerpt;
          if (quote !== undefined) item.stillThere = checkQuote(quote, at.text, drift.closest).ok;
          else if (anchor !== undefined) item.stillThere = checkAnchor(anchor, at.text, drift.closest).ok;
        }
      } catch (error) {
        item.error = `${item.path}: ${(error as Error).message}`;
      }
    }
  }
  return results;
}

/** Counts of each state (and of pins that could not be read) over the checked sources. */
export function tally(
  results: readonly SourceResult[],
): Record<'unchanged' | 'moved' | 'changed' | 'gone' | 'error' | 'skipped', number> {
  const n = { unchanged: 0, moved: 0, changed: 0, gone: 0, error: 0, skipped: 0 };
  for (const r of results)
    for (const item of r.items) {
      if (!r.upstream) n.skipped++;
      else if (item.error !== undefined) n.error++;
      else if (item.drift) n[item.drift.state]++;
    }
  return n;
}

/** A sibling file's `path:` relative to its source's folder, or undefined when it left that folder. */
export function siblingPath(sourcePath: string, filePath: string): string | undefined {
  const rel = posix.relative(posix.dirname(sourcePath), filePath);
  return rel.startsWith('..') ? undefined : rel;
}
