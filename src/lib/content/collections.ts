// The one registry of content collections: each one's name, the file or folder it reads (relative
// to the content folder), its reader and its entries' ids. The content layer's collections
// (src/content.config.ts), the loaders, the plain-Node readers and the content data type all
// derive from it, so adding a collection is one entry here.
import { join } from 'node:path';
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
  readPages,
  readFigures,
} from './read.ts';

interface Collection<T> {
  /** The file or folder it reads, relative to the content folder. */
  path: string;
  read: (abs: string, render: Render) => Promise<Read<T>>;
  /** The entry's id in the content layer's store. */
  id: (entry: T) => string;
}
const collection = <T>(c: Collection<T>): Collection<T> => c;
const byId = (e: { id: string }) => e.id;

export const COLLECTIONS = {
  site: collection({ path: 'site.yaml', read: readSite, id: () => 'site' }),
  sources: collection({ path: 'sources.yaml', read: readSources, id: byId }),
  backends: collection({ path: 'comparison/backends.yaml', read: readBackends, id: byId }),
  axes: collection({ path: 'comparison/axes.yaml', read: readAxes, id: byId }),
  excerpts: collection({ path: 'excerpts', read: readExcerpts, id: excerptId }),
  evidence: collection({ path: 'evidence', read: readEvidence, id: byId }),
  // Figures: lanes, stages, steps and edges, laid out and drawn at build time (src/lib/figures/).
  figures: collection({ path: 'figures', read: readFigures, id: byId }),
  // MDX: the content layer reads these with Astro's glob loader (loaders.ts, pagesCollection).
  pages: collection({ path: 'pages', read: readPages, id: byId }),
};

export type CollectionName = keyof typeof COLLECTIONS;
export const COLLECTION_NAMES = Object.keys(COLLECTIONS) as CollectionName[];
type EntryOf<K extends CollectionName> = (typeof COLLECTIONS)[K] extends Collection<infer T> ? T : never;

/** Every collection's entries: the site document alone, the others as lists. */
export type ContentData = { site: EntryOf<'site'> } & { [K in Exclude<CollectionName, 'site'>]: EntryOf<K>[] };
/** Every collection's read (entries, problems, YAML files). */
export type ContentReads = { [K in CollectionName]: Read<EntryOf<K>> };

/** Paths of the collections, relative to the content folder (for messages and the tools). */
export const PATHS = Object.fromEntries(COLLECTION_NAMES.map((n) => [n, COLLECTIONS[n].path])) as {
  [K in CollectionName]: string;
};

/** One collection of a content folder, read from disk. */
export function readCollection<K extends CollectionName>(
  name: K,
  dir: string,
  render: Render,
): Promise<ContentReads[K]> {
  const { path, read } = COLLECTIONS[name] as unknown as Collection<EntryOf<K>>;
  return read(join(dir, path), render) as Promise<ContentReads[K]>;
}

/** Every collection of a content folder, read from disk (the plain-Node path). */
export async function readAll(dir: string, render: Render): Promise<ContentReads> {
  const reads = await Promise.all(COLLECTION_NAMES.map((n) => readCollection(n, dir, render)));
  return Object.fromEntries(COLLECTION_NAMES.map((n, i) => [n, reads[i]])) as ContentReads;
}
