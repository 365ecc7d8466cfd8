// The rules a schema alone cannot see, because they join two entries or two files, one module per
// concern. A rule is a constant of its module, listed in that module's `checks` record (a rule left
// out of it is an unused constant, which the linter fails); this registry runs every record, and
// tests/unit/checks-registry.test.ts fails on a module or a rule it does not run.
import type { Check } from './shared.ts';
import { checks as excerpts } from './excerpts.ts';
import { checks as table } from './table.ts';
import { checks as pages } from './pages.ts';
import { checks as figures } from './figures.ts';
import { checks as claims } from './claims.ts';

export type { Check } from './shared.ts';

/** Every concern's rules, in the order an author meets the files. */
export const CONCERNS = { excerpts, table, pages, figures, claims };

/** Every rule, once. */
export const CHECKS: readonly Check[] = Object.values(CONCERNS).flatMap((rules) => Object.values(rules));
