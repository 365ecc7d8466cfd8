/** Where a content problem is: always the file, and the row, column and field when they apply. */
export interface Where {
  file: string;
  row?: string;
  column?: string;
  field?: string;
}

export interface Problem extends Where {
  problem: string;
}

export function describe(p: Problem): string {
  const parts = [p.file];
  if (p.row !== undefined) parts.push(`row "${p.row}"`);
  if (p.column !== undefined) parts.push(`column "${p.column}"`);
  if (p.field !== undefined) parts.push(`field "${p.field}"`);
  return `${parts.join(', ')}: ${p.problem}`;
}

/** Thrown with every problem found, so an author fixes them in one pass. */
export class ContentError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[]) {
    const lines = problems.map((p) => `  - ${describe(p)}`);
    super(`Invalid content (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${lines.join('\n')}`);
    this.name = 'ContentError';
    this.problems = problems;
  }
}

/** Collects problems; `throwIfAny` ends a validation pass. */
export class Problems {
  readonly list: Problem[] = [];
  add(where: Where, problem: string): void {
    this.list.push({ ...where, problem });
  }
  throwIfAny(): void {
    if (this.list.length > 0) throw new ContentError(this.list);
  }
}
