// What a `:cite[...]` id points at, and the one place the Markdown pipeline reads it from.
//   - citeTargets(data): every citable id of validated content (pure; the checks use it too, so
//     the ids the build accepts are exactly the ids the renderer can link);
//   - citeIndex(dir): the same, read from a content folder for the Markdown pipeline
//     (astro.config.mjs), re-read when a file under it changes. Point the pipeline elsewhere here.
// Ids: "<source>/<excerpt>" (an excerpt), "row/<row>" (a row of the table), "evidence/<id>".
import { statSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { readCollection, PATHS, type ContentData } from './collections.ts';
import { plainRender } from './inline.ts';
import { routes } from '../routes.ts';
import { citeText } from '../claims/cite-text.ts';
import { excerptId, axisCiteId, evidenceCiteId, type CiteResolver, type CiteTarget } from '../claims/syntax.ts';

type Citable = Pick<ContentData, 'sources' | 'excerpts' | 'axes' | 'evidence'>;

export function citeTargets(data: Citable): Map<string, CiteTarget> {
  const targets = new Map<string, CiteTarget>();
  const sources = new Map(data.sources.map((s) => [s.id, s]));
  for (const e of data.excerpts) {
    const source = sources.get(e.source);
    if (!source) continue;
    const id = excerptId(e);
    targets.set(id, {
      id,
      kind: 'excerpt',
      href: `/${routes.excerpt(source.page, e.id)}`,
      label: source.label,
      text: citeText(source.label, e.lines),
      detail: e.path ? `, ${e.path}` : '',
      prefix: 'Source: ',
    });
  }
  for (const axis of data.axes)
    targets.set(axisCiteId(axis.id), {
      id: axisCiteId(axis.id),
      kind: 'axis',
      href: `/${routes.axisFragment(axis.id)}`,
      label: 'table',
      text: `${axis.id.replace(/-/g, ' ')} row`,
      detail: `: ${axis.question}`,
      prefix: '',
    });
  for (const ev of data.evidence)
    targets.set(evidenceCiteId(ev.id), {
      id: evidenceCiteId(ev.id),
      kind: 'evidence',
      href: `/${routes.evidence(ev.id)}`,
      label: 'evidence',
      text: 'evidence',
      detail: ` ${ev.id}, captured ${ev.captured}`,
      prefix: '',
    });
  return targets;
}

/** Names and modification times of the files the targets come from: a change re-reads them. */
function signature(dir: string): string {
  const files = [PATHS.sources, PATHS.axes].map((f) => join(dir, f));
  for (const sub of [PATHS.excerpts, PATHS.evidence]) {
    const d = join(dir, sub);
    if (existsSync(d))
      files.push(
        ...readdirSync(d)
          .sort()
          .map((f) => join(d, f)),
      );
  }
  return files.map((f) => (existsSync(f) ? `${f}@${statSync(f).mtimeMs}` : f)).join('\n');
}

/**
 * The targets of a content folder, for the Markdown pipeline. Read lazily (a render with no
 * citation never reads), through the same readers as the content layer, without rendering.
 */
export function citeIndex(dir: string): () => Promise<CiteResolver> {
  let cached: { key: string; targets: Promise<Map<string, CiteTarget>> } | undefined;
  return async () => {
    const key = signature(dir);
    if (cached?.key !== key) {
      const read = <K extends 'sources' | 'excerpts' | 'axes' | 'evidence'>(name: K) =>
        readCollection(name, dir, plainRender);
      const targets = Promise.all([read('sources'), read('excerpts'), read('axes'), read('evidence')]).then(
        ([sources, excerpts, axes, evidence]) =>
          citeTargets({
            sources: sources.entries,
            excerpts: excerpts.entries,
            axes: axes.entries,
            evidence: evidence.entries,
          }),
      );
      cached = { key, targets };
    }
    const targets = await cached.targets;
    return (id) => targets.get(id);
  };
}
