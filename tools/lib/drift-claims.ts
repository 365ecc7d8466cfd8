// Which claims cite each excerpt: the mapping the drift report is grouped by. The content is read
// by the site's own readers and checks (src/lib/content: readAll, combine, locatorFor; citations
// scanned with scanInline, as the build's citedIdsResolve does), so a claim is located exactly
// where a build problem about it would be.
import type { ContentData } from '../../src/lib/content/load.ts';
import { readAll } from '../../src/lib/content/load.ts';
import { combine, locatorFor } from '../../src/lib/content/load.ts';
import { ContentError, type Locator, type YamlPath } from '../../src/lib/problems.ts';
import { plainRender } from '../../src/lib/content/load.ts';
import { scanInline } from '../../src/lib/claims/index.ts';
import { excerptId } from '../../src/lib/claims/index.ts';
import type { Read } from '../../src/lib/content/load.ts';

/** What kind of claim cites an item, in the order the report lists them. */
export const CLAIM_KINDS = ['cell', 'short', 'summary', 'page', 'figure', 'excerpt'] as const;
export type ClaimKind = (typeof CLAIM_KINDS)[number];

export interface Claim {
  kind: ClaimKind;
  file: string;
  line?: number;
  col?: number;
  /** What the claim is in, by `kind`: a cell's or summary's axis, a figure's step, an excerpt's full id. */
  item?: string;
  /** A cell's backend, a figure step's backend. */
  backend?: string;
  /** The field that cites: cites[1], answer, short, summary, :cite, <Excerpt>, steps[2].cites[0]. */
  field: string;
}

export interface LoadedContent {
  data: ContentData;
  locate: Locator;
}

/** Reads and checks a content folder as loadContent does, keeping the locator; throws a ContentError. */
export async function loadLocated(dir: string): Promise<LoadedContent> {
  const read = await readAll(dir, plainRender);
  const all = Object.values(read) as Read<unknown>[];
  const locate = locatorFor(all.flatMap((r) => r.files));
  const data = {
    site: read.site.entries[0]!,
    sources: read.sources.entries,
    backends: read.backends.entries,
    axes: read.axes.entries,
    excerpts: read.excerpts.entries,
    evidence: read.evidence.entries,
    growth: read.growth.entries,
    pages: read.pages.entries,
    figures: read.figures.entries,
  } satisfies ContentData;
  const readProblems = all.flatMap((r) => r.problems);
  if (!data.site) throw new ContentError(readProblems);
  const problems = combine(readProblems, data, locate);
  if (problems.length > 0) throw new ContentError(problems);
  return { data, locate };
}

/** Every claim that cites an excerpt, by the excerpt's full id ("<source>/<excerpt>"). */
export function citingClaims({ data, locate }: LoadedContent): Map<string, Claim[]> {
  const claims = new Map<string, Claim[]>();
  const add = (id: string, claim: Claim) => {
    const list = claims.get(id) ?? [];
    list.push(claim);
    claims.set(id, list);
  };
  const place = (file: string, path: YamlPath, seek?: { text: string; nth: number }) => ({
    file,
    ...locate(file, path, seek),
  });
  /** The :cite ids of an inline Markdown field, each located at the id as written. */
  const inline = (md: string, file: string, path: YamlPath, claim: Omit<Claim, 'file'>) => {
    if (!md.includes(':cite[')) return;
    const seen = new Map<string, number>();
    for (const cite of scanInline(md).cites) {
      const nth = seen.get(cite.id) ?? 0;
      seen.set(cite.id, nth + 1);
      add(cite.id, { ...claim, ...place(file, path, { text: cite.id, nth }) });
    }
  };

  for (const axis of data.axes) {
    inline(axis.summary, axis.file, [axis.index, 'summary'], { kind: 'summary', item: axis.id, field: 'summary' });
    for (const [backend, cell] of Object.entries(axis.cells)) {
      const at = (...path: YamlPath) => [axis.index, 'cells', backend, ...path];
      const cellClaim = { item: axis.id, backend };
      cell.cites.forEach((id, i) =>
        add(id, { kind: 'cell', ...cellClaim, field: `cites[${i}]`, ...place(axis.file, at('cites', i)) }),
      );
      inline(cell.short, axis.file, at('short'), { kind: 'short', ...cellClaim, field: 'short' });
      inline(cell.answer, axis.file, at('answer'), { kind: 'cell', ...cellClaim, field: 'answer' });
      if (cell.measure)
        inline(cell.measure.how, axis.file, at('measure', 'how'), { kind: 'cell', ...cellClaim, field: 'measure.how' });
    }
  }
  for (const page of data.pages) {
    for (const cite of page.cites)
      add(cite.id, { kind: 'page', file: page.file, line: cite.line, col: cite.col, field: ':cite' });
    for (const embed of page.embeds)
      add(embed.id, { kind: 'page', file: page.file, line: embed.line, col: 1, field: '<Excerpt>' });
  }
  for (const figure of data.figures) {
    const items = [
      ...(figure.stages ?? []).map((s, i) => ({
        list: 'stages',
        i,
        id: s.id,
        backend: undefined as string | undefined,
        cites: s.cites,
      })),
      ...figure.steps.map((s, i) => ({
        list: 'steps',
        i,
        id: s.id,
        backend: s.backend as string | undefined,
        cites: s.cites,
      })),
    ];
    for (const { list, i, id: step, backend, cites } of items)
      (cites ?? []).forEach((id, j) =>
        add(id, {
          kind: 'figure',
          item: step,
          backend,
          field: `${figure.id}: ${list}[${i}].cites[${j}]`,
          ...place(figure.file, [list, i, 'cites', j]),
        }),
      );
  }
  for (const e of data.excerpts)
    for (const key of ['quote', 'note', 'answers'] as const) {
      const md = e[key];
      if (md !== undefined) inline(md, e.file, [e.index, key], { kind: 'excerpt', item: excerptId(e), field: key });
    }
  return claims;
}
