import { resolve } from 'node:path';
import { AstroError } from 'astro/errors';

// Content problems, located: the file, the line and column when known (file:line:column, which
// editors and terminals turn into a link), and the item (named by its kind), backend and field
// where they apply.

/** A path inside one YAML document: list indexes and map keys, e.g. [3, 'cells', 'ipvs', 'cites', 0]. */
export type YamlPath = ReadonlyArray<string | number>;

/** The kinds of item a problem can be at, as messages name them. */
export type ItemKind =
  'axis' | 'backend' | 'source' | 'excerpt' | 'evidence' | 'page' | 'step' | 'stage' | 'edge' | 'entry';

/** An item of the content, named by its kind: `axis "drain"`, `excerpt "kep-265/x"`, `step "ipt-sep"`. */
export interface Item {
  kind: ItemKind;
  id: string;
}

/** Where a content problem is: always the file; the rest when it applies. */
export interface Where {
  file: string;
  line?: number;
  col?: number;
  item?: Item;
  /** The backend within the item: an axis's cell, a figure step's lane. */
  backend?: string;
  field?: string;
}

export interface Problem extends Where {
  problem: string;
}

/**
 * A problem before it is located: what a pure check returns (an excerpt's field, an output line), in
 * the same words as a Problem, which its caller makes it by adding the file. The evidence parsers
 * (src/lib/evidence/, which import nothing of the site) return the same shape: `problem`, `line`.
 */
export type Unlocated = Omit<Problem, 'file'>;

/** "content/comparison/axes.yaml:42:7: axis "drain", backend "ipvs", field "cites[0]": …" */
export function describe(p: Problem): string {
  const at = p.line === undefined ? p.file : `${p.file}:${p.line}:${p.col ?? 1}`;
  const parts: string[] = [];
  if (p.item !== undefined) parts.push(`${p.item.kind} "${p.item.id}"`);
  if (p.backend !== undefined) parts.push(`backend "${p.backend}"`);
  if (p.field !== undefined) parts.push(`field "${p.field}"`);
  return `${at}: ${parts.length > 0 ? `${parts.join(', ')}: ` : ''}${p.problem}`;
}

export const CONTENT_HINT =
  'Fix each problem in the file at the line and column given (most messages say how). In `npm run dev` the page ' +
  'recovers as soon as the file is saved. The content model and its rules: docs/authoring.md.';

/**
 * Thrown with every problem found, so an author fixes them in one pass. Astro's public AstroError,
 * as Starlight's errors are: Astro prints "[ContentError]", the message and the hint, and the dev
 * overlay opens the first problem's file at its line (`loc`). The message's first line is that
 * problem, file:line:column first. No stack: it is about content, and a stack through Astro's
 * internals would only hide it.
 */
export class ContentError extends AstroError {
  readonly problems: Problem[];
  readonly loc: { file: string; line: number; column: number } | undefined;
  constructor(problems: Problem[]) {
    const n = problems.length;
    super(`${problems.map(describe).join('\n')}${n > 1 ? `\n(${n} content problems)` : ''}`, CONTENT_HINT);
    this.name = 'ContentError';
    this.problems = problems;
    const first = problems[0];
    this.loc =
      first?.line === undefined ? undefined : { file: resolve(first.file), line: first.line, column: first.col ?? 1 };
    this.stack = '';
  }
}

/** A field path for messages: cells.ipvs.cites[0]. */
export const fieldName = (path: YamlPath): string =>
  path.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc ? `${acc}.${k}` : k), '');

/**
 * Text to find inside the value at a path: its `nth` occurrence (0 = the first), e.g. a cited id in a cell's
 * answer.
 */
export interface Seek {
  text: string;
  nth?: number;
}

/**
 * Finds the line and column of a path inside a content file, when the file was read with
 * positions; with `seek`, of that text inside the path's value (else of the path itself).
 */
export type Locator = (file: string, path: YamlPath, seek?: Seek) => { line: number; col: number } | undefined;

/**
 * Collects problems; `throwIfAny` ends a validation pass. `at` is resolved to a line by the locator.
 * A deprecation (an old name still read) is no problem: it is printed at once, located, through
 * `warn`, and kept in `deprecations`; it does not fail the pass.
 */
export class Problems {
  readonly list: Problem[] = [];
  readonly deprecations: Problem[] = [];
  readonly locate: Locator;
  readonly warn: (line: string) => void;
  constructor(locate: Locator = () => undefined, warn: (line: string) => void = (line) => console.warn(line)) {
    this.locate = locate;
    this.warn = warn;
  }
  #located(where: Where & { at?: YamlPath; seek?: Seek }, problem: string): Problem {
    const { at, seek, ...rest } = where;
    const pos = at !== undefined && rest.line === undefined ? this.locate(rest.file, at, seek) : undefined;
    return { ...rest, ...pos, problem };
  }
  add(where: Where & { at?: YamlPath; seek?: Seek }, problem: string): void {
    this.list.push(this.#located(where, problem));
  }
  deprecated(where: Where & { at?: YamlPath; seek?: Seek }, problem: string): void {
    const p = this.#located(where, problem);
    this.deprecations.push(p);
    this.warn(describe(p));
  }
  addAll(problems: Iterable<Problem>): void {
    for (const p of problems) this.list.push(p);
  }
  throwIfAny(): void {
    if (this.list.length > 0) throw new ContentError(sortProblems(this.list));
  }
}

/** File, then line: the order an author walks through them. */
export function sortProblems(list: Problem[]): Problem[] {
  return [...list].sort(
    (a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0),
  );
}
