// Content problems, located: the file, the line and column when known (file:line:column, which
// editors and terminals turn into a link), and the row, column and field where they apply.

/** A path inside one YAML document: list indexes and map keys, e.g. [3, 'cells', 'ipvs', 'cites', 0]. */
export type YamlPath = ReadonlyArray<string | number>;

/** Where a content problem is: always the file; the rest when it applies. */
export interface Where {
  file: string;
  line?: number;
  col?: number;
  row?: string;
  column?: string;
  field?: string;
}

export interface Problem extends Where {
  problem: string;
}

/** "content/comparison/axes.yaml:42:7: row "drain", column "ipvs", field "cites[0]": …" */
export function describe(p: Problem): string {
  const at = p.line === undefined ? p.file : `${p.file}:${p.line}:${p.col ?? 1}`;
  const parts: string[] = [];
  if (p.row !== undefined) parts.push(`row "${p.row}"`);
  if (p.column !== undefined) parts.push(`column "${p.column}"`);
  if (p.field !== undefined) parts.push(`field "${p.field}"`);
  return `${at}: ${parts.length > 0 ? `${parts.join(', ')}: ` : ''}${p.problem}`;
}

/** Thrown with every problem found, so an author fixes them in one pass. No stack: it is about content. */
export class ContentError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[]) {
    const lines = problems.map((p) => `  ${describe(p)}`);
    super(`Invalid content (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${lines.join('\n')}`);
    this.name = 'ContentError';
    this.problems = problems;
    // The message is the whole story; a stack through Astro's internals would only hide it.
    this.stack = '';
  }
}

/** A field path for messages: cells.ipvs.cites[0]. */
export const fieldName = (path: YamlPath): string =>
  path.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc ? `${acc}.${k}` : k), '');

/** Text to find inside the value at a path: its `nth` occurrence (0 = the first), e.g. a cited id in a cell's answer. */
export interface Seek { text: string; nth?: number }

/**
 * Finds the line and column of a path inside a content file, when the file was read with
 * positions; with `seek`, of that text inside the path's value (else of the path itself).
 */
export type Locator = (file: string, path: YamlPath, seek?: Seek) => { line: number; col: number } | undefined;

/** Collects problems; `throwIfAny` ends a validation pass. `at` is resolved to a line by the locator. */
export class Problems {
  readonly list: Problem[] = [];
  readonly locate: Locator;
  constructor(locate: Locator = () => undefined) {
    this.locate = locate;
  }
  add(where: Where & { at?: YamlPath; seek?: Seek }, problem: string): void {
    const { at, seek, ...rest } = where;
    const pos = at !== undefined && rest.line === undefined ? this.locate(rest.file, at, seek) : undefined;
    this.list.push({ ...rest, ...pos, problem });
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
  return [...list].sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0));
}
