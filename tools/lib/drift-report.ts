// The drift report, as text: what moved, changed or is gone, then every claim that cites one of
// them, grouped by kind of claim (cells, short answers, summaries, pages, figure steps, excerpts'
// own notes), each located file:line:column as the build locates problems. Pure: lines in, lines out.
import type { Claim, ClaimKind } from './drift-claims.ts';
import { CLAIM_KINDS } from './drift-claims.ts';
import { tally, type ItemResult, type SourceResult } from './drift-check.ts';

const HEADINGS: Record<ClaimKind, string> = {
  cell: 'Cells (axis, backend)',
  short: 'Short answers (axis, backend)',
  summary: 'Summaries (axis)',
  page: 'Pages',
  figure: 'Figure steps (step, backend)',
  excerpt: "Excerpts' own notes and answers",
};

const short = (commit: string) => commit.slice(0, 12);
const range = ([a, b]: readonly [number, number]) => (a === b ? `line ${a}` : `lines ${a}-${b}`);
const kindOf = (item: ItemResult) => (item.excerpt.quote !== undefined ? 'quote' : 'code note');

/** One line saying what happened to an item. */
export function itemLine(r: SourceResult, item: ItemResult): string {
  const d = item.drift;
  const pin = `${item.path} ${range(item.excerpt.lines)}`;
  if (item.error !== undefined) return `${item.id} (${kindOf(item)}): could not be checked: ${item.error}`;
  if (!d) return `${item.id}: not checked`;
  const at = r.target ? ` at ${short(r.target)}` : '';
  switch (d.state) {
    case 'unchanged':
      return `${item.id} (${kindOf(item)}) unchanged: ${pin}`;
    case 'moved':
      return `${item.id} (${kindOf(item)}) moved: ${pin} -> ${d.path === item.path ? '' : `${d.path} `}${range(d.lines)}${at}`;
    case 'gone':
      return `${item.id} (${kindOf(item)}) gone: ${item.path} is not in the copy${at}`;
    case 'changed': {
      const where = d.closest
        ? `closest now: ${d.path === item.path ? '' : `${d.path} `}${range(d.closest)}${at}`
        : `nothing like it is left${at}`;
      return `${item.id} (${kindOf(item)}) changed: ${pin} at ${short(r.source.commit)}; ${where}`;
    }
  }
}

const claimLabel = (c: Claim): string => {
  const parts: string[] = [];
  const kind = c.kind === 'figure' ? 'step' : c.kind === 'excerpt' ? 'excerpt' : 'axis';
  if (c.item !== undefined) parts.push(`${kind} "${c.item}"`);
  if (c.backend !== undefined) parts.push(`backend "${c.backend}"`);
  parts.push(c.field);
  return parts.join(', ');
};
const located = (c: Claim) => (c.line === undefined ? c.file : `${c.file}:${c.line}:${c.col ?? 1}`);

export interface ReportInput {
  results: readonly SourceResult[];
  claims: ReadonlyMap<string, readonly Claim[]>;
}

/** The report's lines. */
export function formatReport({ results, claims }: ReportInput): string[] {
  const out: string[] = [];
  const checked = results.filter((r) => r.upstream);
  const copies = new Map(checked.map((r) => [r.source.repo, r.upstream!.describe]));
  for (const [repo, describe] of copies) out.push(`${repo}: ${describe}`);
  const skipped = new Set(results.filter((r) => !r.upstream).map((r) => r.source.repo));
  for (const repo of skipped) out.push(`${repo}: no copy given, its pins are not checked`);
  for (const r of checked) if (r.dateProblem) out.push(`${r.source.id}: date: ${r.dateProblem}`);

  const all = checked.flatMap((r) => r.items.map((item) => ({ r, item })));
  const state = (item: ItemResult) => (item.error !== undefined ? 'error' : item.drift?.state);
  const section = (title: string, wanted: Array<string | undefined>, detail = false) => {
    const rows = all.filter(({ item }) => wanted.includes(state(item)));
    if (rows.length === 0) return;
    out.push('', title);
    for (const { r, item } of rows) {
      out.push(`  ${itemLine(r, item)}`);
      if (detail && item.drift?.state === 'changed') {
        out.push(`      ${item.drift.diff}`);
        if (item.stillThere !== undefined)
          out.push(
            `      its ${item.excerpt.quote !== undefined ? 'quote' : `anchor "${item.excerpt.anchor}"`} is ${item.stillThere ? 'still' : 'no longer'} in those lines`,
          );
      }
    }
  };
  section('Changed or gone: re-read these and the claims below that cite them', ['changed', 'gone'], true);
  section('Moved: the same text in a new place (--update rewrites these pins)', ['moved']);
  section('Could not be checked', ['error']);

  const claimSection = (title: string, wanted: Array<string | undefined>) => {
    const byKind = new Map<ClaimKind, Array<{ claim: Claim; text: string }>>();
    for (const { item } of all.filter(({ item }) => wanted.includes(state(item))))
      for (const claim of claims.get(item.id) ?? []) {
        const list = byKind.get(claim.kind) ?? [];
        list.push({
          claim,
          text: `${located(claim)}: ${claimLabel(claim)}: ${item.id} ${state(item) === 'error' ? 'not checked' : state(item)}`,
        });
        byKind.set(claim.kind, list);
      }
    if (byKind.size === 0) return;
    out.push('', title);
    for (const kind of CLAIM_KINDS) {
      const list = byKind.get(kind);
      if (!list) continue;
      out.push(`  ${HEADINGS[kind]}`);
      list.sort(
        (a, b) =>
          a.claim.file.localeCompare(b.claim.file) ||
          (a.claim.line ?? 0) - (b.claim.line ?? 0) ||
          (a.claim.col ?? 0) - (b.claim.col ?? 0),
      );
      for (const { text } of list) out.push(`    ${text}`);
    }
  };
  claimSection(
    'Claims that cite a changed or gone item (or one not checked), by what cites it: read each against the new text',
    ['changed', 'gone', 'error'],
  );
  claimSection('Claims that cite a moved item, by what cites it: the same words in a new place, only the pins move', [
    'moved',
  ]);
  const n = tally(results);
  out.push(
    '',
    `${n.unchanged + n.moved + n.changed + n.gone + n.error} pins checked: ${n.unchanged} unchanged, ${n.moved} moved, ${n.changed} changed, ${n.gone} gone` +
      `${n.error > 0 ? `, ${n.error} could not be checked` : ''}${n.skipped > 0 ? ` (${n.skipped} not checked: no copy of their repository)` : ''}`,
  );
  return out;
}
