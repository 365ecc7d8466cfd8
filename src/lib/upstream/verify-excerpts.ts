// The one loop that checks excerpts against their upstream files, for every rule of that kind: the
// quotes (tools/lib/quotes.ts, `npm run verify:quotes`) and the code notes' anchors (anchors.ts,
// `npm run verify:anchors` and the build). A rule says which excerpts it covers, which file each is
// read from and what is wrong with it; the loop reads the file, counts what it checked, and reports
// each failure at its excerpt and field, so it is printed located (file:line:column).
// Pure module (no I/O): the caller passes the file reader.
import type { Problems, Seek, Unlocated, YamlPath } from '../problems.ts';
import { excerptId } from '../claims/syntax.ts';

export interface CheckedSource {
  id: string;
  repo: string;
  path: string;
}

export interface CheckedExcerpt {
  id: string;
  source: string;
  lines: [number, number];
  path?: string;
  /** The YAML file and list index it was read from, to locate its problems. */
  file: string;
  index: number;
}

/**
 * What is wrong with one excerpt, and at which of its fields: a problem not located yet. `at` is the
 * field's path in the excerpt when it is nested (`['code', 'text']`; else `[field]`), and `seek` the
 * text inside its value to point at.
 */
export type Finding = Required<Pick<Unlocated, 'field' | 'problem'>> & { at?: YamlPath; seek?: Seek };

export interface ExcerptRule<S extends CheckedSource, E extends CheckedExcerpt> {
  /** Whether the rule checks `excerpt`; `source` is undefined when sources.yaml has none of its name. */
  covers(excerpt: E, source: S | undefined): boolean;
  /** The key `readFile` is given for the excerpt's file. */
  upstream(source: S, excerpt: E): string;
  /** What is wrong before the file is read (a field the rule needs is missing), if anything. */
  precheck?(excerpt: E): Finding | undefined;
  /** The finding for a file `readFile` does not have. */
  missing(upstream: string): Finding;
  /** What is wrong with the excerpt against its file's text (nothing: it passes). */
  check(excerpt: E, text: string, upstream: string): Finding[];
}

/** One failure: the excerpt as the content readers give it, where its file is read from, and why. */
export interface ExcerptFailure<E> extends Finding {
  excerpt: E;
  upstream: string;
}

export interface ExcerptReport<E> {
  /** Excerpts compared with their file (or found to lack what the rule needs). */
  checked: number;
  failures: ExcerptFailure<E>[];
}

/**
 * Runs `rule` over every excerpt it covers. `readFile` gets the rule's key for the file and returns
 * its text, or null when it is missing (a failure, never skipped).
 */
export function verifyExcerpts<S extends CheckedSource, E extends CheckedExcerpt>(
  content: { sources: readonly S[]; excerpts: readonly E[] },
  rule: ExcerptRule<S, E>,
  readFile: (upstream: string) => string | null,
): ExcerptReport<E> {
  const sources = new Map(content.sources.map((s) => [s.id, s]));
  const failures: ExcerptFailure<E>[] = [];
  let checked = 0;
  for (const excerpt of content.excerpts) {
    const source = sources.get(excerpt.source);
    if (!rule.covers(excerpt, source)) continue;
    if (!source) {
      const problem = `no source "${excerpt.source}" in sources.yaml (an excerpt file is named after its source)`;
      failures.push({ excerpt, upstream: '', field: 'source', problem });
      continue;
    }
    const upstream = rule.upstream(source, excerpt);
    checked++;
    const fail = (finding: Finding) => failures.push({ excerpt, upstream, ...finding });
    const before = rule.precheck?.(excerpt);
    if (before) {
      fail(before);
      continue;
    }
    const text = readFile(upstream);
    if (text === null) fail(rule.missing(upstream));
    else rule.check(excerpt, text, upstream).forEach(fail);
  }
  return { checked, failures };
}

/**
 * Adds each failure to `problems` at its excerpt's field:
 * `<file>:<line>:<col>: excerpt "<source>/<id>", field "<field>": …`.
 */
export function addFailures(problems: Problems, failures: readonly ExcerptFailure<CheckedExcerpt>[]): void {
  for (const { excerpt: e, field, problem, at, seek } of failures)
    problems.add(
      {
        file: e.file,
        at: [e.index, ...(at ?? [field])],
        ...(seek && { seek }),
        item: { kind: 'excerpt', id: excerptId(e) },
        field,
      },
      problem,
    );
}
