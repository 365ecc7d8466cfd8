// The one registry of content collections: each one's name, the file or folder it reads (relative
// to the content folder), its reader, how its Markdown fields are rendered, and its entries' ids.
// The loaders, the rules' reads (load.ts) and the content data type derive from it, so adding a
// collection is one entry here.
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Render } from './inline.ts';
import type { Read } from './entries.ts';
import { excerptId } from '../claims/syntax.ts';
import {
  readSite,
  readSources,
  readBackends,
  readAxes,
  readExcerpts,
  readEvidence,
  readGrowthSweeps,
  readPages,
  readFigures,
  renderAxis,
  renderExcerpt,
  renderFigure,
} from './read.ts';

interface Collection<P, T> {
  /** The file or folder it reads, relative to the content folder. */
  path: string;
  /** Reads and validates it; no Markdown is rendered yet (the citation index needs only this). */
  read: (abs: string) => Promise<Read<P>>;
  /** Renders an entry's Markdown fields; absent when it has none. */
  render?: (entry: P, render: Render) => Promise<T>;
  /** The entry's id in the content layer's store. */
  id: (entry: T) => string;
}
const plain = <T>(c: Collection<T, T>): Collection<T, T> => c;
const rendered = <P, T>(c: Collection<P, T> & { render: Collection<P, T>['render'] }): Collection<P, T> => c;
const byId = (e: { id: string }) => e.id;

export const COLLECTIONS = {
  site: plain({ path: 'site.yaml', read: readSite, id: () => 'site' }),
  sources: plain({ path: 'sources.yaml', read: readSources, id: byId }),
  backends: plain({ path: 'comparison/backends.yaml', read: readBackends, id: byId }),
  axes: rendered({ path: 'comparison/axes.yaml', read: readAxes, render: renderAxis, id: byId }),
  excerpts: rendered({ path: 'excerpts', read: readExcerpts, render: renderExcerpt, id: excerptId }),
  evidence: plain({ path: 'evidence', read: readEvidence, id: byId }),
  growth: plain({ path: 'growth', read: readGrowthSweeps, id: byId }), // lab/growth.sh sweeps, raw output beside
  // Figures: lanes, stages, steps and edges, laid out and drawn at build time (src/lib/figures/).
  figures: rendered({ path: 'figures', read: readFigures, render: renderFigure, id: byId }),
  // MDX: in the content layer, Astro's glob() loader reads these (collections-config.ts).
  pages: plain({ path: 'pages', read: readPages, id: byId }),
};

export type CollectionName = keyof typeof COLLECTIONS;
export const COLLECTION_NAMES = Object.keys(COLLECTIONS) as CollectionName[];
type EntryOf<K extends CollectionName> = Parameters<(typeof COLLECTIONS)[K]['id']>[0];
type ParsedOf<K extends CollectionName> =
  Awaited<ReturnType<(typeof COLLECTIONS)[K]['read']>> extends Read<infer P> ? P : never;

/** Every collection's entries: the site document alone, the others as lists. */
export type ContentData = { site: EntryOf<'site'> } & { [K in Exclude<CollectionName, 'site'>]: EntryOf<K>[] };
/** Every collection's read (entries, problems, YAML files). */
export type ContentReads = { [K in CollectionName]: Read<EntryOf<K>> };
/** Every collection's read before its Markdown fields are rendered. */
export type ParsedReads = { [K in CollectionName]: Read<ParsedOf<K>> };

/** Paths of the collections, relative to the content folder (for messages and the tools). */
export const PATHS = Object.fromEntries(COLLECTION_NAMES.map((n) => [n, COLLECTIONS[n].path])) as {
  [K in CollectionName]: string;
};

type Untyped = Collection<unknown, unknown>;

/** Size and modification time of every file at `path` (a file, or a folder's files): what an edit changes. */
export function stamp(path: string): string {
  const out: string[] = [];
  const walk = (p: string) => {
    let s;
    try {
      s = statSync(p, { bigint: true });
    } catch {
      return; // absent: the reader reports it
    }
    if (s.isDirectory()) for (const e of readdirSync(p).sort()) walk(join(p, e));
    else out.push(`${p}:${s.size}:${s.mtimeNs}`);
  };
  walk(path);
  return out.join('\n');
}

const parsed = new Map<string, { stamp: string; read: Promise<unknown> }>();

/**
 * One collection of a content folder, read from disk and validated, its Markdown not rendered. Read
 * once while its files stay as they are: the loaders and the rules (load.ts, checkContent) of one
 * build share the read.
 */
export function parseCollection<K extends CollectionName>(name: K, dir: string): Promise<ParsedReads[K]> {
  const { path, read } = COLLECTIONS[name] as unknown as Untyped;
  const abs = resolve(dir, path);
  const now = stamp(abs);
  const last = parsed.get(abs);
  if (last?.stamp === now) return last.read as Promise<ParsedReads[K]>;
  const fresh = read(abs);
  parsed.set(abs, { stamp: now, read: fresh });
  return fresh as Promise<ParsedReads[K]>;
}

/** One collection of a content folder, read from disk, its Markdown fields rendered (when it has any). */
export async function readCollection<K extends CollectionName>(
  name: K,
  dir: string,
  render: Render,
): Promise<ContentReads[K]> {
  const read = await parseCollection(name, dir);
  const { render: renderEntry } = COLLECTIONS[name] as unknown as Untyped;
  if (!renderEntry) return read as unknown as ContentReads[K];
  const entries: unknown[] = [];
  for (const entry of read.entries as unknown[]) entries.push(await renderEntry(entry, render));
  return { ...read, entries } as ContentReads[K];
}

/** The store id of an entry of a collection. */
export const entryId = <K extends CollectionName>(name: K, entry: EntryOf<K>): string =>
  (COLLECTIONS[name] as unknown as Untyped).id(entry);

/** Every collection of a content folder, read from disk and rendered. */
export async function readAll(dir: string, render: Render): Promise<ContentReads> {
  const reads = await Promise.all(COLLECTION_NAMES.map((n) => readCollection(n, dir, render)));
  return Object.fromEntries(COLLECTION_NAMES.map((n, i) => [n, reads[i]])) as ContentReads;
}
