// The rules a schema alone cannot see, because they join two entries or two files. One small
// function per rule; each adds located problems (file, line, row, column, field) and says what to do.
import type { FigureEntry, Origin } from './entries.ts';
import { PATHS, type ContentData } from './collections.ts';
import type { Problems, YamlPath } from './errors.ts';
import { existsSync, readFileSync } from 'node:fs';
import { LINK, scanInline, type Sentence, type TokenAt, type UnmarkedAt } from './page-scan.ts';
import { routes } from '../routes.ts';
import { citeTargets } from './citations.ts';
import { linesText } from '../claims/cite-text.ts';
import { carries } from './tokens.ts';
import {
  folderFiles,
  folderLines,
  kubernetesSources,
  sayUnread,
  KUBERNETES_REPO,
  type FileReader,
  type LinesReader,
} from './upstream.ts';
import { verifyAnchors } from './anchors.ts';
import { upstreamPath } from './model.ts';

/**
 * The claims rule (docs/claims.md): on every page that makes claims, and in every row summary, each
 * paragraph, list item and table row cites or is marked as our reading. On: it is how the site
 * keeps every sentence as strong as its source.
 */
export const ENFORCE_CLAIMS = true;

export type Check = (data: ContentData, problems: Problems) => void;

/** A list entry's place: its file, and the path inside it (the entry's index first). */
const at = (o: Origin, ...path: YamlPath) => ({ file: o.file, at: [o.index, ...path] });
const listOf = (xs: Iterable<string>) => [...xs].join(', ') || 'none';

function duplicates<T extends Origin & { id: string }>(
  list: T[],
  kind: string,
  key: 'row' | 'column',
  problems: Problems,
  idOf = (e: T) => e.id,
) {
  const seen = new Map<string, T>();
  for (const e of list) {
    const first = seen.get(idOf(e));
    if (first && first.file === e.file)
      problems.add(
        { ...at(e, 'id'), [key]: e.id, field: 'id' },
        `duplicate ${kind} id "${idOf(e)}" (also at index ${first.index}): ids must be unique; rename one`,
      );
    if (!first) seen.set(idOf(e), e);
  }
}

export const uniqueSourceIds: Check = (data, problems) => duplicates(data.sources, 'source', 'row', problems);
export const uniqueBackendIds: Check = (data, problems) => duplicates(data.backends, 'backend', 'column', problems);
export const uniqueAxisIds: Check = (data, problems) => duplicates(data.axes, 'axis', 'row', problems);
export const uniqueExcerptIds: Check = (data, problems) =>
  duplicates(data.excerpts, 'excerpt', 'row', problems, (e) => `${e.source}/${e.id}`);

// Renames: an axis or a backend may list the ids it was published under (`formerly`). Each old id
// keeps its links alive (a redirect page, an anchor on the page), so it must point at one entry only.
type Renamable = Origin & { id: string; formerly?: string[] };

function formerIdsAreFree<T extends Renamable>(list: T[], kind: string, key: 'row' | 'column', problems: Problems) {
  const current = new Map(list.map((e) => [e.id, e]));
  for (const e of list)
    (e.formerly ?? []).forEach((old, i) => {
      const owner = current.get(old);
      if (owner)
        problems.add(
          { ...at(e, 'formerly', i), [key]: e.id, field: `formerly[${i}]` },
          `old id "${old}" is the id of ${owner === e ? 'this same' : 'the current'} ${kind}${owner === e ? '' : ` at index ${owner.index}`}: ` +
            `a link to "${old}" cannot lead to both; remove it from formerly (or rename that ${kind} instead)`,
        );
    });
}

function formerIdsClaimedOnce<T extends Renamable>(list: T[], kind: string, key: 'row' | 'column', problems: Problems) {
  const claimed = new Map<string, T>();
  for (const e of list)
    (e.formerly ?? []).forEach((old, i) => {
      const first = claimed.get(old);
      if (first)
        problems.add(
          { ...at(e, 'formerly', i), [key]: e.id, field: `formerly[${i}]` },
          `old id "${old}" is already claimed by ${first === e ? 'this' : `${kind} "${first.id}" (index ${first.index})`}: ` +
            `an old link can only lead to one ${kind}; keep it on the ${kind} that really had that id`,
        );
      else claimed.set(old, e);
    });
}

export const formerAxisIdsAreFree: Check = (data, problems) => formerIdsAreFree(data.axes, 'axis', 'row', problems);
export const formerAxisIdsClaimedOnce: Check = (data, problems) =>
  formerIdsClaimedOnce(data.axes, 'axis', 'row', problems);
export const formerBackendIdsAreFree: Check = (data, problems) =>
  formerIdsAreFree(data.backends, 'backend', 'column', problems);
export const formerBackendIdsClaimedOnce: Check = (data, problems) =>
  formerIdsClaimedOnce(data.backends, 'backend', 'column', problems);

export const excerptFilesNameASource: Check = (data, problems) => {
  const sources = new Set(data.sources.map((s) => s.id));
  const reported = new Set<string>();
  for (const e of data.excerpts) {
    if (sources.has(e.source) || reported.has(e.file)) continue;
    reported.add(e.file);
    problems.add(
      { file: e.file, line: 1, col: 1 },
      `no source "${e.source}" in sources.yaml: an excerpt file is named after its source (sources: ${listOf(sources)})`,
    );
  }
};

export const quotesOnlyFromPinnedCopies: Check = (data, problems) => {
  const sources = new Map(data.sources.map((s) => [s.id, s]));
  for (const e of data.excerpts) {
    const source = sources.get(e.source);
    if (source && e.quote !== undefined && !source.quotable)
      problems.add(
        { ...at(e, 'quote'), row: e.id, field: 'quote' },
        `source "${source.id}" has no pinned copy to verify quotes against; write a note in your own words instead`,
      );
  }
};

export const oneAnchorPerPage: Check = (data, problems) => {
  const sources = new Map(data.sources.map((s) => [s.id, s]));
  const anchors = new Map<string, string>();
  for (const e of data.excerpts) {
    const source = sources.get(e.source);
    if (!source) continue;
    const key = `${source.page}#${e.id}`;
    const other = anchors.get(key);
    if (other && other !== `${e.source}/${e.id}`)
      problems.add(
        { ...at(e, 'id'), row: e.id, field: 'id' },
        `anchor "#${e.id}" on page ${source.page} is already used by "${other}"; rename this excerpt`,
      );
    anchors.set(key, `${e.source}/${e.id}`);
  }
};

export const cellsNameKnownBackends: Check = (data, problems) => {
  const backends = new Set(data.backends.map((b) => b.id));
  for (const axis of data.axes)
    for (const column of Object.keys(axis.cells))
      if (!backends.has(column))
        problems.add(
          { ...at(axis, 'cells', column), row: axis.id, column, field: 'cells' },
          `unknown backend "${column}" (backends: ${listOf(backends)}); fix the key or add the backend to ${PATHS.backends}`,
        );
};

export const everyRowHasEveryCell: Check = (data, problems) => {
  for (const axis of data.axes)
    for (const b of data.backends)
      if (!axis.cells[b.id])
        problems.add(
          { ...at(axis, 'cells'), row: axis.id, column: b.id, field: 'cells' },
          `missing cell: every row needs one cell per backend; add "${b.id}:" with answer and cites`,
        );
};

export const citesResolve: Check = (data, problems) => {
  const ids = new Set(data.excerpts.map((e) => `${e.source}/${e.id}`));
  for (const axis of data.axes)
    for (const [column, cell] of Object.entries(axis.cells))
      cell.cites.forEach((id, i) => {
        if (!ids.has(id))
          problems.add(
            { ...at(axis, 'cells', column, 'cites', i), row: axis.id, column, field: `cites[${i}]` },
            `unknown excerpt id "${id}": cite "<source>/<excerpt>" with an id from content/excerpts/<source>.yaml`,
          );
      });
};

export const measuredOnlyInRunColumns: Check = (data, problems) => {
  const backends = new Map(data.backends.map((b) => [b.id, b]));
  for (const axis of data.axes)
    for (const [column, cell] of Object.entries(axis.cells))
      if (cell.measure && backends.get(column)?.run === false)
        problems.add(
          { ...at(axis, 'cells', column, 'measure'), row: axis.id, column, field: 'measure' },
          `measured cell in column "${column}", which was not run in this phase (backends.yaml: run: false); remove measure and cite sources instead`,
        );
};

export const evidenceMatchesItsCell: Check = (data, problems) => {
  const evidence = new Map(data.evidence.map((e) => [e.id, e]));
  for (const axis of data.axes)
    for (const [column, cell] of Object.entries(axis.cells)) {
      const id = cell.measure?.evidence;
      if (id === undefined) continue;
      const where = {
        ...at(axis, 'cells', column, 'measure', 'evidence'),
        row: axis.id,
        column,
        field: 'measure.evidence',
      };
      const ev = evidence.get(id);
      if (!ev) {
        problems.add(
          where,
          `no evidence file "${id}" in content/evidence/; capture it (docs/evidence.md) or remove the line`,
        );
        continue;
      }
      const mismatch: string[] = [];
      if (ev.exercise !== cell.measure!.exercise)
        mismatch.push(`exercise ${ev.exercise} (cell: ${cell.measure!.exercise})`);
      if (ev.axis !== axis.id) mismatch.push(`axis "${ev.axis}" (cell: "${axis.id}")`);
      if (ev.backend !== column) mismatch.push(`backend "${ev.backend}" (cell: "${column}")`);
      if (mismatch.length > 0)
        problems.add(where, `evidence "${ev.id}" (${ev.file}) does not match its cell: ${mismatch.join('; ')}`);
    }
};

export const evidenceIsClaimed: Check = (data, problems) => {
  const claimed = new Set(data.axes.flatMap((a) => Object.values(a.cells).map((c) => c.measure?.evidence)));
  for (const ev of data.evidence)
    if (!claimed.has(ev.id))
      problems.add(
        { file: ev.file, at: ['axis'], row: ev.axis, column: ev.backend, field: 'axis' },
        `evidence "${ev.id}" is not referenced by its cell: add "evidence: ${ev.id}" under that cell's measure in ${PATHS.axes}`,
      );
};

export const sourcePagesExist: Check = (data, problems) => {
  const pages = new Set(data.pages.map((p) => p.id));
  for (const s of data.sources)
    if (!pages.has(s.page))
      problems.add(
        { ...at(s, 'page'), row: s.id, field: 'page' },
        `no page "${s.page}" in content/pages/: create content/pages/${s.page}.mdx or point page at an existing one`,
      );
};

export const readingPagesEmbedTheirExcerpts: Check = (data, problems) => {
  const ids = new Set(data.excerpts.map((e) => `${e.source}/${e.id}`));
  for (const page of data.pages) {
    for (const embed of page.embeds)
      if (!ids.has(embed.id))
        problems.add(
          { file: page.file, line: embed.line, col: 1, field: 'Excerpt id' },
          `<Excerpt id="${embed.id}" />: no such excerpt in content/excerpts/ (ids look like "kep-3866/data-plane")`,
        );
    for (const source of data.sources.filter((s) => s.page === page.id)) {
      for (const e of data.excerpts.filter((x) => x.source === source.id)) {
        const id = `${source.id}/${e.id}`;
        const found = page.embeds.filter((x) => x.id === id);
        if (found.length === 0)
          problems.add(
            { file: page.file, line: 1, col: 1, row: id },
            `reading page of ${source.label} does not embed excerpt "${id}" (${e.file}): add <Excerpt id="${id}" /> where it belongs`,
          );
        for (const dup of found.slice(1))
          problems.add(
            { file: page.file, line: dup.line, col: 1, row: id },
            `excerpt "${id}" is embedded again (first at line ${found[0]!.line}): embed each excerpt once`,
          );
      }
    }
  }
};

export const excerptIdsAreNotHeadingIds: Check = (data, problems) => {
  const pages = new Map(data.pages.map((p) => [p.id, p]));
  const sources = new Map(data.sources.map((s) => [s.id, s]));
  for (const e of data.excerpts) {
    const page = pages.get(sources.get(e.source)?.page ?? '');
    const heading = page?.headings.find((h) => h.id === e.id);
    if (page && heading)
      problems.add(
        { ...at(e, 'id'), row: e.id, field: 'id' },
        `excerpt id "${e.id}" is also the id of the heading at ${page.file}:${heading.line}; two elements would share #${e.id}: rename the excerpt`,
      );
  }
};

// The claims syntax (docs/claims.md): cited ids resolve, and prose cites or says it is our reading.

const CITE_HINT =
  'cite an excerpt "<source>/<excerpt>" (content/excerpts/<source>.yaml), a row "row/<row>" or evidence "evidence/<id>"';
const CLAIM_HINT =
  'add :cite[<source>/<excerpt>] after the words it supports, mark our own inference :reading[...] (or put it in a :::reading block), ' +
  'or, only if it makes no claim (it introduces what follows, or navigates), put it in an :::intro block (docs/claims.md)';

const unmarkedProblem = (u: UnmarkedAt, what = `${u.kind} "${u.text}"`) =>
  `${what} neither cites nor is marked as our reading: ${CLAIM_HINT}`;

/** The inline Markdown fields of the YAML, each with its place: row summaries, cells' text, excerpts' text. */
function* inlineFields(data: ContentData) {
  for (const axis of data.axes) {
    yield { origin: axis, path: ['summary'], md: axis.summary, row: axis.id, field: 'summary' };
    for (const [column, cell] of Object.entries(axis.cells)) {
      // Every text of a cell is inline Markdown (answer, and a short answer if there is one); cites are ids.
      for (const [key, value] of Object.entries(cell))
        if (typeof value === 'string')
          yield { origin: axis, path: ['cells', column, key], md: value, row: axis.id, column, field: key };
      if (cell.measure)
        yield {
          origin: axis,
          path: ['cells', column, 'measure', 'how'],
          md: cell.measure.how,
          row: axis.id,
          column,
          field: 'measure.how',
        };
    }
  }
  for (const e of data.excerpts)
    for (const key of ['quote', 'note', 'answers'] as const) {
      const md = e[key];
      if (md !== undefined) yield { origin: e, path: [key], md, row: `${e.source}/${e.id}`, field: key };
    }
}

export const citedIdsResolve: Check = (data, problems) => {
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
          { ...at(f.origin, ...f.path), seek: { text: cite.id, nth }, row: f.row, column: f.column, field: f.field },
          `unknown cited id "${cite.id}" in :cite[...]: ${CITE_HINT}`,
        );
    }
  }
};

export const claimPagesCiteOrMark: Check = (data, problems) => {
  if (!ENFORCE_CLAIMS) return;
  for (const page of data.pages)
    if (page.data.claims !== false)
      for (const u of page.unmarked) problems.add({ file: page.file, line: u.line, col: u.col }, unmarkedProblem(u));
};

export const summariesCiteOrMark: Check = (data, problems) => {
  if (!ENFORCE_CLAIMS) return;
  for (const axis of data.axes)
    for (const u of scanInline(axis.summary).unmarked)
      problems.add(
        { ...at(axis, 'summary'), row: axis.id, field: 'summary' },
        unmarkedProblem(u, `the summary "${u.text}"`),
      );
};

// Every citation carries its words (docs/claims.md): each token of a claim (a version, a constant
// or quantity, a code span, a quoted phrase) is in the text of one of its sentence's citations.

/**
 * What a citation says: a KEP excerpt's quote, a code note's pinned lines (null when unread), each
 * after what its link names (repository, commit and path); a row, its cells' and summary's citations.
 */
function citationTexts(data: ContentData, read: LinesReader | undefined): Map<string, string | null> {
  const texts = new Map<string, string | null>();
  const sources = new Map(data.sources.map((s) => [s.id, s]));
  for (const e of data.excerpts) {
    const source = sources.get(e.source);
    if (!source) continue;
    // What its link names comes with it: the file's path at the pinned commit.
    const path = upstreamPath(source, e);
    const lines = e.quote ?? read?.(source.repo, source.commit, path, e.lines) ?? null;
    texts.set(`${e.source}/${e.id}`, lines === null ? null : `${source.repo}/blob/${source.commit}/${path}\n${lines}`);
  }
  // A row carries what its cells' and summary's citations carry.
  for (const axis of data.axes) {
    const ids = [
      ...Object.values(axis.cells).flatMap((c) => c.cites),
      ...scanInline(axis.summary).cites.map((c) => c.id),
    ];
    texts.set(`row/${axis.id}`, ids.map((id) => texts.get(id) ?? '').join('\n'));
  }
  for (const ev of data.evidence) texts.set(`evidence/${ev.id}`, JSON.stringify(ev));
  // A page that reproduces a text verbatim (claims: false, the exercise) is cited by a link to it.
  for (const page of data.pages)
    if (page.data.claims === false && existsSync(page.file))
      texts.set(`${LINK}/${routes.page(page.id)}`, readFileSync(page.file, 'utf8'));
  return texts;
}

/** One claim the rule reads: where it is, its sentences, and the ids cited for all of them (a cell's `cites`). */
interface Claim {
  where: { file: string; at?: YamlPath; line?: number; row?: string; column?: string; field?: string };
  sentences: Sentence[];
  cites?: string[];
  md?: string;
}

function* claimsOf(data: ContentData): Generator<Claim> {
  for (const page of data.pages)
    if (page.data.claims !== false) yield { where: { file: page.file }, sentences: page.sentences };
  for (const axis of data.axes) {
    yield {
      where: { ...at(axis, 'summary'), row: axis.id, field: 'summary' },
      sentences: scanInline(axis.summary).sentences,
      md: axis.summary,
    };
    for (const [column, cell] of Object.entries(axis.cells))
      for (const key of ['short', 'answer'] as const) {
        const md = cell[key];
        if (md !== undefined)
          yield {
            where: { ...at(axis, 'cells', column, key), row: axis.id, column, field: key },
            sentences: scanInline(md).sentences,
            cites: cell.cites,
            md,
          };
      }
  }
  for (const f of data.figures) {
    const items = [
      ...(f.stages ?? []).map((s, i) => ({ ...s, list: 'stages', i, lane: undefined as string | undefined })),
      ...f.steps.map((s, i) => ({ ...s, list: 'steps', i })),
    ];
    for (const { list, i, id, lane, label, cites } of items)
      if (cites !== undefined)
        // else reading: true
        yield {
          where: { ...inFigure(f, list, i, 'label'), row: id, column: lane, field: `${list}[${i}].label` },
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

/** Looks for every token of every claim in its sentence's citations (`read` gives a code note's pinned lines). */
export function tokenReport(data: ContentData, read: LinesReader | undefined): TokenReport {
  const texts = citationTexts(data, read);
  const excerpts = new Map(data.excerpts.map((e) => [`${e.source}/${e.id}`, e]));
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
const sharedLines = () => folderLines(kubernetesSources());

/** The rule, reading code notes from `lines` (default: the kubernetes/kubernetes copies beside the repository). */
export function citationsCarryTokens(lines: () => LinesReader | undefined = sharedLines): Check {
  return function citationsCarryTokens(data, problems) {
    if (!ENFORCE_CLAIMS) return;
    const read = lines();
    if (!read) sayUnread();
    for (const { claim, token, looked } of tokenReport(data, read).failures) {
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

/**
 * Each code note's anchor within its lines of the pinned file (anchors.ts, the rule of
 * `npm run verify:anchors`), for the notes of `repo` whose file the copies hold. A file they do not
 * hold is left to `npm run verify:anchors`, which reports it missing: the build does not block a
 * note on a file not yet copied.
 */
export function anchorsInTheirLines(
  files: () => FileReader | undefined = () => folderFiles(kubernetesSources()),
  repo = KUBERNETES_REPO,
): Check {
  return function anchorsInTheirLines(data, problems) {
    const read = files();
    if (!read) return sayUnread();
    const sources = new Map(data.sources.filter((s) => s.repo === repo).map((s) => [s.id, s]));
    const held = data.excerpts.filter((e) => {
      const s = sources.get(e.source);
      return s !== undefined && read(`${s.repo}/${s.commit}/${upstreamPath(s, e)}`) !== null;
    });
    const { failures } = verifyAnchors({ sources: data.sources, excerpts: held }, read);
    for (const { excerpt: e, reason } of failures)
      problems.add({ ...at(e, 'anchor'), row: `${e.source}/${e.id}`, field: 'anchor' }, reason);
  };
}

/** An anchor is a token to search for (`KUBE-SVC-`, `"statistic"`, a function name), not a statement. */
const ANCHOR_MAX = 80;

export const codeNotesHaveAnchors: Check = (data, problems) => {
  for (const e of data.excerpts) {
    const row = `${e.source}/${e.id}`;
    if (e.note !== undefined && e.anchor === undefined)
      problems.add(
        { ...at(e, 'note'), row, field: 'anchor' },
        'a code note needs an anchor: add "anchor:" with a short verbatim identifier or string literal from exactly these lines ' +
          '(e.g. a chain prefix or a function name, never a whole statement), so anyone can re-find them at the pinned commit',
      );
    else if (e.anchor !== undefined && (e.anchor.length > ANCHOR_MAX || /\n/.test(e.anchor)))
      problems.add(
        { ...at(e, 'anchor'), row, field: 'anchor' },
        `an anchor is one short token from the lines (an identifier or a string literal, at most ${ANCHOR_MAX} characters on one line), never a whole statement`,
      );
  }
};

export const navSectionsAreMenuPages: Check = (data, problems) => {
  const menu = new Set(data.pages.filter((p) => p.data.menu).map((p) => p.id));
  for (const page of data.pages)
    if (page.data.section !== undefined && !menu.has(page.data.section))
      problems.add(
        { file: page.file, ...page.keys.section, field: 'section' },
        `no navigation entry "${page.data.section}": section names a page with "menu: true" (${listOf(menu)})`,
      );
};

// Figures (content/figures/<id>.yaml): every name a figure uses must exist, in the figure or in
// the rest of the content. A figure's problems name its step (row), the step's lane (column) and
// the field's full path.
const inFigure = (f: FigureEntry, ...path: YamlPath) => ({ file: f.file, at: path });

export const figureLanesNameKnownBackends: Check = (data, problems) => {
  const backends = new Set(data.backends.map((b) => b.id));
  for (const f of data.figures) {
    const seen = new Set<string>();
    f.lanes.forEach((lane, i) => {
      const where = { ...inFigure(f, 'lanes', i, 'backend'), column: lane.backend, field: `lanes[${i}].backend` };
      if (!backends.has(lane.backend))
        problems.add(
          where,
          `unknown backend "${lane.backend}" (backends: ${listOf(backends)}): a lane shows one column of ${PATHS.backends}`,
        );
      else if (seen.has(lane.backend))
        problems.add(where, `backend "${lane.backend}" has a lane already: one lane per backend`);
      seen.add(lane.backend);
    });
  }
};

export const figureRowsExist: Check = (data, problems) => {
  const rows = new Set(data.axes.map((a) => a.id));
  for (const f of data.figures)
    f.rows.forEach((row, i) => {
      if (!rows.has(row))
        problems.add(
          { ...inFigure(f, 'rows', i), field: `rows[${i}]` },
          `unknown row "${row}" (rows: ${listOf(rows)}): name an axis id of ${PATHS.axes}`,
        );
    });
};

export const figureStepsAreUnique: Check = (data, problems) => {
  for (const f of data.figures) {
    const seen = new Map<string, string>();
    const claim = (id: string, what: string, path: YamlPath, field: string) => {
      const first = seen.get(id);
      if (first)
        problems.add(
          { ...inFigure(f, ...path), row: id, field },
          `id "${id}" is already the id of ${first} in this figure: ids must be unique; rename one`,
        );
      else seen.set(id, `${what} ${path[1] as number}`);
    };
    (f.stages ?? []).forEach((s, i) => claim(s.id, 'stage', ['stages', i, 'id'], `stages[${i}].id`));
    f.steps.forEach((s, i) => claim(s.id, 'step', ['steps', i, 'id'], `steps[${i}].id`));
  }
};

export const figureStepsNameTheirLaneAndStage: Check = (data, problems) => {
  for (const f of data.figures) {
    const lanes = new Set(f.lanes.map((l) => l.backend));
    const stages = new Set((f.stages ?? []).map((s) => s.id));
    f.steps.forEach((step, i) => {
      const where = (key: string) => ({
        ...inFigure(f, 'steps', i, key),
        row: step.id,
        column: step.lane,
        field: `steps[${i}].${key}`,
      });
      if (!lanes.has(step.lane))
        problems.add(
          where('lane'),
          `no lane "${step.lane}" in this figure (lanes: ${listOf(lanes)}); add it under lanes: or fix the step's lane`,
        );
      if (f.stages && step.stage === undefined)
        problems.add(
          where('id'),
          `this figure has stages: say which one the step belongs to (stage: one of ${listOf(stages)})`,
        );
      if (step.stage !== undefined && !stages.has(step.stage))
        problems.add(where('stage'), `no stage "${step.stage}" in this figure (stages: ${listOf(stages)})`);
    });
  }
};

export const figureEdgesJoinSteps: Check = (data, problems) => {
  for (const f of data.figures) {
    const steps = new Set(f.steps.map((s) => s.id));
    const lanes = new Map(f.steps.map((s) => [s.id, s.lane]));
    f.edges.forEach((edge, i) => {
      for (const end of ['from', 'to'] as const)
        if (!steps.has(edge[end]))
          problems.add(
            { ...inFigure(f, 'edges', i, end), row: `${edge.from} -> ${edge.to}`, field: `edges[${i}].${end}` },
            `no step "${edge[end]}" in this figure: an edge joins two step ids of this file`,
          );
      const from = lanes.get(edge.from),
        to = lanes.get(edge.to);
      if (from !== undefined && to !== undefined && from !== to)
        problems.add(
          {
            ...inFigure(f, 'edges', i, 'to'),
            row: `${edge.from} -> ${edge.to}`,
            column: from,
            field: `edges[${i}].to`,
          },
          `the edge goes from lane "${from}" to lane "${to}": an edge joins two steps of one lane (the lanes are drawn apart)`,
        );
    });
  }
};

export const figureCitesResolve: Check = (data, problems) => {
  const ids = new Set(data.excerpts.map((e) => `${e.source}/${e.id}`));
  for (const f of data.figures) {
    const items: Array<{ list: 'stages' | 'steps'; i: number; id: string; lane?: string; cites?: string[] }> = [
      ...(f.stages ?? []).map((s, i) => ({ list: 'stages' as const, i, ...s })),
      ...f.steps.map((s, i) => ({ list: 'steps' as const, i, ...s })),
    ];
    for (const { list, i, id: item, lane, cites } of items)
      (cites ?? []).forEach((id, j) => {
        if (!ids.has(id))
          problems.add(
            { ...inFigure(f, list, i, 'cites', j), row: item, column: lane, field: `${list}[${i}].cites[${j}]` },
            `unknown excerpt id "${id}": cite "<source>/<excerpt>" with an id from content/excerpts/<source>.yaml`,
          );
      });
  }
};

/** Every rule, in the order an author meets the files. */
export const CHECKS: readonly Check[] = [
  uniqueSourceIds,
  excerptFilesNameASource,
  uniqueExcerptIds,
  quotesOnlyFromPinnedCopies,
  codeNotesHaveAnchors,
  oneAnchorPerPage,
  uniqueBackendIds,
  formerBackendIdsAreFree,
  formerBackendIdsClaimedOnce,
  uniqueAxisIds,
  formerAxisIdsAreFree,
  formerAxisIdsClaimedOnce,
  cellsNameKnownBackends,
  everyRowHasEveryCell,
  citesResolve,
  measuredOnlyInRunColumns,
  evidenceMatchesItsCell,
  evidenceIsClaimed,
  sourcePagesExist,
  readingPagesEmbedTheirExcerpts,
  excerptIdsAreNotHeadingIds,
  figureLanesNameKnownBackends,
  figureRowsExist,
  figureStepsAreUnique,
  figureStepsNameTheirLaneAndStage,
  figureEdgesJoinSteps,
  figureCitesResolve,
  navSectionsAreMenuPages,
  citedIdsResolve,
  summariesCiteOrMark,
  claimPagesCiteOrMark,
  citationsCarryTokens(),
  anchorsInTheirLines(),
];

export function checkContent(data: ContentData, problems: Problems): void {
  for (const check of CHECKS) check(data, problems);
}
