// The claims syntax (docs/claims.md): cited ids resolve, prose cites or says it is our reading,
// and every citation carries its sentence's words.
import type { ContentData } from '../collections.ts';
import type { Where, YamlPath } from '../../problems.ts';
import { LINK, scanInline, type Sentence, type TokenAt, type UnmarkedAt } from '../../claims/page-scan.ts';
import { routes } from '../../routes.ts';
import { citeTargets } from '../citations.ts';
import { linesText } from '../../claims/cite-text.ts';
import { excerptId, axisCiteId, evidenceCiteId } from '../../claims/syntax.ts';
import { carries } from '../../claims/tokens.ts';
import { sayUnread, upstreamPath, type LinesReader } from '../../upstream/upstream.ts';
import { fileText, pinnedLines, type TextReader } from './disk.ts';
import { at, inFigure, type Check, type Checks } from './shared.ts';

// The claims rule (docs/claims.md): on every page that makes claims, and in every axis summary, each
// paragraph, list item and table row cites or is marked as our reading; every citation carries its
// sentence's words. It is how the site keeps every sentence as strong as its source.

const CITE_HINT =
  'cite an excerpt "<source>/<excerpt>" (content/excerpts/<source>.yaml), an axis "row/<axis>" or evidence "evidence/<id>"';
const CLAIM_HINT =
  'add :cite[<source>/<excerpt>] after the words it supports, mark our own inference :reading[...] (or put it in a :::reading block), ' +
  'or, only if it makes no claim (it introduces what follows, or navigates), put it in an :::intro block (docs/claims.md)';

const unmarkedProblem = (u: UnmarkedAt, what = `${u.kind} "${u.text}"`) =>
  `${what} neither cites nor is marked as our reading: ${CLAIM_HINT}`;

/** The inline Markdown fields of the YAML, each with its place: axis summaries, cells' text, excerpts' text. */
function* inlineFields(data: ContentData) {
  for (const axis of data.axes) {
    yield {
      origin: axis,
      path: ['summary'],
      md: axis.summary,
      item: { kind: 'axis' as const, id: axis.id },
      field: 'summary',
    };
    for (const [backend, cell] of Object.entries(axis.cells)) {
      // Every text of a cell is inline Markdown (its short answer, its answer, how it is measured); cites are ids.
      for (const [key, value] of Object.entries(cell))
        if (typeof value === 'string')
          yield {
            origin: axis,
            path: ['cells', backend, key],
            md: value,
            item: { kind: 'axis' as const, id: axis.id },
            backend,
            field: key,
          };
      if (cell.measure)
        yield {
          origin: axis,
          path: ['cells', backend, 'measure', 'how'],
          md: cell.measure.how,
          item: { kind: 'axis' as const, id: axis.id },
          backend,
          field: 'measure.how',
        };
    }
  }
  for (const e of data.excerpts)
    for (const key of ['quote', 'note', 'answers'] as const) {
      const md = e[key];
      if (md !== undefined)
        yield { origin: e, path: [key], md, item: { kind: 'excerpt' as const, id: excerptId(e) }, field: key };
    }
}

const citedIdsResolve: Check = (data, problems) => {
  const targets = citeTargets(data);
  for (const page of data.pages)
    for (const cite of page.cites)
      if (!targets.has(cite.id))
        problems.add(
          { file: page.file, line: cite.line, col: cite.col, field: ':cite' },
          `unknown cited id "${cite.id}": ${CITE_HINT}`,
        );
  for (const f of inlineFields(data)) {
    if (!f.md.includes(':cite[')) continue; // most fields cite nothing: no need to parse them
    const seen = new Map<string, number>();
    for (const cite of scanInline(f.md).cites) {
      const nth = seen.get(cite.id) ?? 0;
      seen.set(cite.id, nth + 1);
      if (!targets.has(cite.id))
        problems.add(
          {
            ...at(f.origin, ...f.path),
            seek: { text: cite.id, nth },
            item: f.item,
            ...('backend' in f && { backend: f.backend }),
            field: f.field,
          },
          `unknown cited id "${cite.id}" in :cite[...]: ${CITE_HINT}`,
        );
    }
  }
};

const claimPagesCiteOrMark: Check = (data, problems) => {
  for (const page of data.pages)
    if (page.data.claims !== false)
      for (const u of page.unmarked) problems.add({ file: page.file, line: u.line, col: u.col }, unmarkedProblem(u));
};

const summariesCiteOrMark: Check = (data, problems) => {
  for (const axis of data.axes)
    for (const u of scanInline(axis.summary).unmarked)
      problems.add(
        { ...at(axis, 'summary'), item: { kind: 'axis' as const, id: axis.id }, field: 'summary' },
        unmarkedProblem(u, `the summary "${u.text}"`),
      );
};

// Every citation carries its words (docs/claims.md): each token of a claim (a version, a constant
// or quantity, a code span, a quoted phrase) is in the text of one of its sentence's citations.

/**
 * What a citation says: a KEP excerpt's quote, a code note's pinned lines (null when unread), each
 * after what its link names (repository, commit and path); an axis, its cells' and summary's citations.
 */
function citationTexts(
  data: ContentData,
  read: LinesReader | undefined,
  pageText: TextReader,
): Map<string, string | null> {
  const texts = new Map<string, string | null>();
  const sources = new Map(data.sources.map((s) => [s.id, s]));
  for (const e of data.excerpts) {
    const source = sources.get(e.source);
    if (!source) continue;
    // What its link names comes with it: the file's path at the pinned commit.
    const path = upstreamPath(source, e);
    const lines = e.quote ?? read?.(source.repo, source.commit, path, e.lines) ?? null;
    texts.set(excerptId(e), lines === null ? null : `${source.repo}/blob/${source.commit}/${path}\n${lines}`);
  }
  // An axis carries what its cells' and summary's citations carry.
  for (const axis of data.axes) {
    const ids = [
      ...Object.values(axis.cells).flatMap((c) => c.cites),
      ...scanInline(axis.summary).cites.map((c) => c.id),
    ];
    texts.set(axisCiteId(axis.id), ids.map((id) => texts.get(id) ?? '').join('\n'));
  }
  for (const ev of data.evidence) texts.set(evidenceCiteId(ev.id), JSON.stringify(ev));
  // A growth sweep carries what its file states (its fields and summary), not the whole sweep it was read from.
  for (const { sweep: _sweep, ...g } of data.growth) texts.set(evidenceCiteId(g.id), JSON.stringify(g));
  // A page that reproduces a text verbatim (claims: false, the exercise) is cited by a link to it.
  for (const page of data.pages) {
    const text = page.data.claims === false ? pageText(page.file) : null;
    if (text !== null) texts.set(`${LINK}/${routes.page(page.id)}`, text);
  }
  return texts;
}

/** One claim the rule reads: where it is, its sentences, and the ids cited for all of them (a cell's `cites`). */
interface Claim {
  where: Where & { at?: YamlPath };
  sentences: Sentence[];
  cites?: string[];
  md?: string;
}

function* claimsOf(data: ContentData): Generator<Claim> {
  for (const page of data.pages)
    if (page.data.claims !== false) yield { where: { file: page.file }, sentences: page.sentences };
  for (const axis of data.axes) {
    yield {
      where: { ...at(axis, 'summary'), item: { kind: 'axis' as const, id: axis.id }, field: 'summary' },
      sentences: scanInline(axis.summary).sentences,
      md: axis.summary,
    };
    for (const [backend, cell] of Object.entries(axis.cells))
      for (const key of ['short', 'answer'] as const) {
        const md = cell[key];
        if (md !== undefined)
          yield {
            where: {
              ...at(axis, 'cells', backend, key),
              item: { kind: 'axis' as const, id: axis.id },
              backend,
              field: key,
            },
            sentences: scanInline(md).sentences,
            cites: cell.cites,
            md,
          };
      }
  }
  for (const f of data.figures) {
    const items = [
      ...(f.stages ?? []).map((s, i) => ({
        ...s,
        list: 'stages' as const,
        i,
        backend: undefined as string | undefined,
      })),
      ...f.steps.map((s, i) => ({ ...s, list: 'steps' as const, i })),
    ];
    for (const { list, i, id, backend, label, cites } of items)
      if (cites !== undefined)
        // else reading: true
        yield {
          where: {
            ...inFigure(f, list, i, 'label'),
            item: { kind: list === 'steps' ? ('step' as const) : ('stage' as const), id },
            backend,
            field: `${list}[${i}].label`,
          },
          sentences: scanInline(label).sentences,
          cites,
          md: label,
        };
  }
}

export interface TokenReport {
  /** Tokens looked for. */
  checked: number;
  /** Tokens not found in the citations read whose sentence also cites a code note left unread. */
  skipped: number;
  failures: Array<{ claim: Claim; token: TokenAt; looked: string[] }>;
}

/**
 * Looks for every token of every claim in its sentence's citations (`read` gives a code note's
 * pinned lines, `pageText` a verbatim page's text).
 */
export function tokenReport(
  data: ContentData,
  read: LinesReader | undefined,
  pageText: TextReader = fileText,
): TokenReport {
  const texts = citationTexts(data, read, pageText);
  const excerpts = new Map(data.excerpts.map((e) => [excerptId(e), e]));
  const report: TokenReport = { checked: 0, skipped: 0, failures: [] };
  for (const claim of claimsOf(data))
    for (const sentence of claim.sentences) {
      const ids = [...new Set([...sentence.cites, ...(claim.cites ?? [])])];
      for (const token of sentence.tokens) {
        report.checked++;
        if (
          ids.some((id) => {
            const t = texts.get(id);
            return t != null && carries(t, token);
          })
        )
          continue;
        if (ids.some((id) => texts.get(id) === null)) {
          report.skipped++;
          continue;
        }
        const looked = ids
          .filter((id) => texts.has(id) || !id.startsWith(LINK))
          .map((id) => {
            const e = excerpts.get(id);
            return e ? `${id} (${linesText(e.lines)})` : id.startsWith(LINK) ? `the page ${id.slice(LINK.length)}` : id;
          });
        report.failures.push({ claim, token, looked });
      }
    }
  return report;
}

const CARRY_HINT =
  'cite the lines that carry it (or widen the excerpt to them), reword, or mark the sentence as our reading :reading[...] (docs/claims.md)';
/** The rule, reading code notes from `lines` (default: the kubernetes/kubernetes copies beside the repository). */
export function citationsCarryTokens(
  lines: () => LinesReader | undefined = pinnedLines,
  pageText: TextReader = fileText,
): Check {
  return function citationsCarryTokens(data, problems) {
    const read = lines();
    if (!read) sayUnread();
    for (const { claim, token, looked } of tokenReport(data, read, pageText).failures) {
      const nth = claim.md === undefined ? 0 : claim.md.slice(0, token.offset).split(token.value).length - 1;
      const where =
        claim.md === undefined
          ? { ...claim.where, line: token.line, col: token.col }
          : { ...claim.where, seek: { text: token.value, nth } };
      const said = looked.length === 0 ? 'this sentence cites nothing' : `looked in ${looked.join(', ')}`;
      problems.add(
        where,
        `${token.kind} "${token.value}" is in none of its sentence's citations (${said}): ${CARRY_HINT}`,
      );
    }
  };
}

export const checks = {
  citedIdsResolve,
  summariesCiteOrMark,
  claimPagesCiteOrMark,
  citationsCarryTokens: citationsCarryTokens(),
} satisfies Checks;
