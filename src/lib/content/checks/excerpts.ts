// Sources and their excerpts (sources.yaml, excerpts/<source>.yaml): ids, quotes only where a
// pinned copy can verify them, code notes with an anchor found in their lines (and their verbatim
// code, where they show some, the same lines byte for byte).
import { excerptId } from '../../claims/syntax.ts';
import { verifyAnchors } from '../../upstream/anchors.ts';
import { sayUnread, upstreamPath, KUBERNETES_REPO, type FileReader } from '../../upstream/upstream.ts';
import { pinnedFiles } from './disk.ts';
import { at, duplicates, listOf, type Check, type Checks } from './shared.ts';

const uniqueSourceIds: Check = (data, problems) => duplicates(data.sources, 'source', problems);
const uniqueExcerptIds: Check = (data, problems) => duplicates(data.excerpts, 'excerpt', problems, excerptId);

const excerptFilesNameASource: Check = (data, problems) => {
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

const quotesOnlyFromPinnedCopies: Check = (data, problems) => {
  const sources = new Map(data.sources.map((s) => [s.id, s]));
  for (const e of data.excerpts) {
    const source = sources.get(e.source);
    if (source && e.quote !== undefined && !source.quotable)
      problems.add(
        { ...at(e, 'quote'), item: { kind: 'excerpt', id: excerptId(e) }, field: 'quote' },
        `source "${source.id}" has no pinned copy to verify quotes against; write a note in your own words instead`,
      );
  }
};

const oneFragmentPerPage: Check = (data, problems) => {
  const sources = new Map(data.sources.map((s) => [s.id, s]));
  const anchors = new Map<string, string>();
  for (const e of data.excerpts) {
    const source = sources.get(e.source);
    if (!source) continue;
    const key = `${source.page}#${e.id}`;
    const other = anchors.get(key);
    if (other && other !== excerptId(e))
      problems.add(
        { ...at(e, 'id'), item: { kind: 'excerpt', id: excerptId(e) }, field: 'id' },
        `fragment "#${e.id}" on page ${source.page} is already used by "${other}"; rename this excerpt`,
      );
    anchors.set(key, excerptId(e));
  }
};

/** An anchor is a token to search for (`KUBE-SVC-`, `"statistic"`, a function name), not a statement. */
const ANCHOR_MAX = 80;

const codeNotesHaveAnchors: Check = (data, problems) => {
  for (const e of data.excerpts) {
    const item = { kind: 'excerpt', id: excerptId(e) } as const;
    if (e.note !== undefined && e.anchor === undefined)
      problems.add(
        { ...at(e, 'note'), item, field: 'anchor' },
        'a code note needs an anchor: add "anchor:" with a short verbatim identifier or string literal from exactly these lines ' +
          '(e.g. a chain prefix or a function name, never a whole statement), so anyone can re-find them at the pinned commit',
      );
    else if (e.anchor !== undefined && (e.anchor.length > ANCHOR_MAX || /\n/.test(e.anchor)))
      problems.add(
        { ...at(e, 'anchor'), item, field: 'anchor' },
        `an anchor is one short token from the lines (an identifier or a string literal, at most ${ANCHOR_MAX} characters on one line), never a whole statement`,
      );
  }
};

/**
 * Each code note's anchor within its lines of the pinned file, and its verbatim `code` byte for byte
 * those lines (anchors.ts and code.ts, the rule of `npm run verify:anchors`), for the notes of `repo`
 * whose file the copies hold. A file they do not hold is left to `npm run verify:anchors`, which
 * reports it missing: the build does not block a note on a file not yet copied.
 */
export function anchorsInTheirLines(files: () => FileReader | undefined = pinnedFiles, repo = KUBERNETES_REPO): Check {
  return function anchorsInTheirLines(data, problems) {
    const read = files();
    if (!read) return sayUnread();
    const sources = new Map(data.sources.filter((s) => s.repo === repo).map((s) => [s.id, s]));
    const held = data.excerpts.filter((e) => {
      const s = sources.get(e.source);
      return s !== undefined && read(`${s.repo}/${s.commit}/${upstreamPath(s, e)}`) !== null;
    });
    const { failures } = verifyAnchors({ sources: data.sources, excerpts: held }, read);
    for (const { excerpt: e, field, problem, at: path, seek } of failures) {
      const item = { kind: 'excerpt', id: excerptId(e) } as const;
      problems.add({ ...at(e, ...(path ?? [field])), ...(seek && { seek }), item, field }, problem);
    }
  };
}

export const checks = {
  uniqueSourceIds,
  excerptFilesNameASource,
  uniqueExcerptIds,
  quotesOnlyFromPinnedCopies,
  codeNotesHaveAnchors,
  oneFragmentPerPage,
  anchorsInTheirLines: anchorsInTheirLines(),
} satisfies Checks;
