// What every concern's rules share: the rule's type, where a problem is, and how a list reads.
import type { FigureEntry, Origin } from '../entries.ts';
import type { ContentData } from '../collections.ts';
import type { ItemKind, Problems, YamlPath } from '../../problems.ts';

/** One rule: reads the content, adds each problem it finds, located, saying what to do. */
export type Check = (data: ContentData, problems: Problems) => void;

/** A concern's rules by name (each rule's name is its key): the registry (index.ts) runs them all. */
export type Checks = Readonly<Record<string, Check>>;

/** A list entry's place: its file, and the path inside it (the entry's index first). */
export const at = (o: Origin, ...path: YamlPath) => ({ file: o.file, at: [o.index, ...path] });
export const listOf = (xs: Iterable<string>) => [...xs].join(', ') || 'none';

/** A figure's place: its file, and the path inside it. */
export const inFigure = (f: FigureEntry, ...path: YamlPath) => ({ file: f.file, at: path });

export function duplicates<T extends Origin & { id: string }>(
  list: T[],
  kind: ItemKind,
  problems: Problems,
  idOf = (e: T) => e.id,
) {
  const seen = new Map<string, T>();
  for (const e of list) {
    const first = seen.get(idOf(e));
    if (first && first.file === e.file)
      problems.add(
        { ...at(e, 'id'), item: { kind, id: idOf(e) }, field: 'id' },
        `duplicate ${kind} id "${idOf(e)}" (also at index ${first.index}): ids must be unique; rename one`,
      );
    if (!first) seen.set(idOf(e), e);
  }
}
