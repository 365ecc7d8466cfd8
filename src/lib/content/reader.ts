// The one reader of a content folder. Every file is read and validated once (read.ts, through the
// registry in collections.ts), its Markdown fields rendered once, and everything else is computed
// from what was read: the cross-file problems (the rules of checks.ts), the citation index the
// Markdown pipeline resolves `:cite[...]` with, and the site paths left at axes' old ids.
//   - The content layer (loaders.ts) and the Markdown pipeline and sitemap (astro.config.mjs) share
//     the process's reader of the content folder, `contentReader(dir)`; in `astro dev` a loader
//     re-reads the collection whose files changed (`reread`), and the problems follow.
//   - Scripts and tests (load.ts) make a reader of their own, read once.
// Pure Node: no Astro import, so tools and unit tests run it without Astro.
import { resolve } from 'node:path';
import type { Problem } from '../problems.ts';
import { ContentError, Problems, sortProblems, type Locator } from '../problems.ts';
import type { Render } from './inline.ts';
import type { Read } from './entries.ts';
import type { YamlFile } from './yaml.ts';
import {
  COLLECTION_NAMES,
  parseCollection,
  renderCollection,
  type CollectionName,
  type ContentData,
  type ContentReads,
  type ParsedReads,
} from './collections.ts';
import { CHECKS } from './checks/index.ts';
import { citeTargets } from './citations.ts';
import type { CiteResolver, CiteTarget } from '../claims/syntax.ts';
import { movedAxisPaths } from './moved.ts';

/** A locator over the YAML files read: file + path -> line and column. */
export function locatorFor(files: YamlFile[]): Locator {
  const byFile = new Map(files.map((f) => [f.file, f]));
  return (file, path, seek) => byFile.get(file)?.at(path, seek);
}

/**
 * The cross-file rules over `data`. A rule that reads a collection listed in `waiting` (one with a
 * problem of its own: a file that does not parse, an entry its schema rejects) does not report: it
 * would run on part of that collection and report what is only missing ("unknown axis" for every
 * axis of an axes.yaml that does not parse). It reports once the collection reads cleanly.
 */
export function crossFileProblems(data: ContentData, waiting: ReadonlySet<CollectionName>, locate: Locator): Problem[] {
  const out: Problem[] = [];
  for (const check of CHECKS) {
    const read = new Set<CollectionName>();
    const view = {} as ContentData;
    for (const name of COLLECTION_NAMES)
      Object.defineProperty(view, name, {
        enumerable: true,
        get: () => {
          read.add(name);
          return data[name];
        },
      });
    const problems = new Problems(locate);
    check(view, problems);
    if (![...read].some((name) => waiting.has(name))) out.push(...problems.list);
  }
  return out;
}

/** The problems of a content folder's reads: each collection's own, then the cross-file rules'. */
export function contentProblems(reads: ContentReads): Problem[] {
  const all = COLLECTION_NAMES.map((n) => reads[n] as Read<unknown>);
  const own = all.flatMap((r) => r.problems);
  const data = dataOf(reads);
  if (!data.site) return sortProblems(own);
  const waiting = new Set(COLLECTION_NAMES.filter((n) => reads[n].problems.length > 0));
  return sortProblems([...own, ...crossFileProblems(data, waiting, locatorFor(all.flatMap((r) => r.files)))]);
}

/** The entries of every collection: the site document alone, the others as lists. */
export function dataOf(reads: ContentReads): ContentData {
  const lists = Object.fromEntries(COLLECTION_NAMES.map((n) => [n, reads[n].entries]));
  return { ...lists, site: reads.site.entries[0] } as ContentData;
}

const CITED = ['sources', 'excerpts', 'axes', 'evidence'] as const;

/** Whether `:cite[...]` ids resolve to entries of `name` (so a citation's text follows its edits). */
const citesInto = (name: CollectionName): boolean => (CITED as readonly string[]).includes(name);

/** The ids whose target differs between two citation indexes (added, gone or changed). */
function changedTargets(before: Map<string, CiteTarget>, after: Map<string, CiteTarget>): Set<string> {
  const same = (id: string) => JSON.stringify(before.get(id)) === JSON.stringify(after.get(id));
  return new Set([...before.keys(), ...after.keys()].filter((id) => !same(id)));
}

export class ContentReader {
  readonly dir: string;
  #parsed = new Map<CollectionName, Promise<Read<unknown>>>();
  /** Each collection's last read, once it is in. */
  #latest = new Map<CollectionName, Read<unknown>>();
  #rendered = new Map<CollectionName, Promise<Read<unknown>>>();
  /** Collections another reader hands over (`expect`, `put`): the pages, which Astro's glob loader reads. */
  #handed = new Map<CollectionName, { read: Promise<Read<unknown>>; resolve: (r: Read<unknown>) => void }>();
  #targets: Promise<Map<string, CiteTarget>> | undefined;
  #listeners = new Set<(name: CollectionName, citations: ReadonlySet<string>) => void>();
  /** The citation targets as last handed out (`citeTargets`): to tell which changed. */
  #handedTargets: Map<string, CiteTarget> | undefined;

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  /** A collection read and validated, its Markdown not rendered (what the citation index needs). */
  parsed<K extends CollectionName>(name: K): Promise<ParsedReads[K]> {
    const handed = this.#handed.get(name);
    if (handed) return handed.read as Promise<ParsedReads[K]>;
    let read = this.#parsed.get(name);
    if (!read) {
      read = parseCollection(name, this.dir) as Promise<Read<unknown>>;
      this.#parsed.set(name, read);
      void read.then((r) => this.#parsed.get(name) === read && this.#latest.set(name, r));
    }
    return read as Promise<ParsedReads[K]>;
  }

  /** A collection as the site stores it: read, validated, its Markdown fields rendered by `render`. */
  collection<K extends CollectionName>(name: K, render: Render): Promise<ContentReads[K]> {
    let read = this.#rendered.get(name);
    if (!read) {
      read = this.parsed(name).then((parsed) => renderCollection(name, parsed, render));
      this.#rendered.set(name, read);
    }
    return read as Promise<ContentReads[K]>;
  }

  /** Every collection, rendered. */
  async all(render: Render): Promise<ContentReads> {
    const reads = await Promise.all(COLLECTION_NAMES.map((n) => this.collection(n, render)));
    return Object.fromEntries(COLLECTION_NAMES.map((n, i) => [n, reads[i]])) as ContentReads;
  }

  /** Every problem of the folder, located; empty when there is none. */
  async problems(render: Render): Promise<Problem[]> {
    return contentProblems(await this.all(render));
  }

  /** `name` is read by another (Astro's glob loader for the pages) and handed over with `put`. */
  expect(name: CollectionName): void {
    if (this.#handed.has(name)) return;
    let resolveRead!: (r: Read<unknown>) => void;
    const read = new Promise<Read<unknown>>((r) => (resolveRead = r));
    this.#handed.set(name, { read, resolve: resolveRead });
  }

  /** Hands over an expected collection, read anew; after the first, every reader's listener hears of it. */
  put<K extends CollectionName>(name: K, read: ContentReads[K]): void {
    const handed = this.#handed.get(name);
    if (!handed) throw new Error(`content reader: ${name} is not handed over (expect it first)`);
    const first = !this.#rendered.has(name);
    handed.resolve(read as Read<unknown>);
    this.#latest.set(name, read as Read<unknown>);
    const settled = Promise.resolve(read as Read<unknown>);
    this.#handed.set(name, { read: settled, resolve: () => {} });
    this.#rendered.set(name, settled);
    if (!first) this.#changed(name);
  }

  /**
   * Reads a collection again (its files changed), and tells the listeners once it is read, with the
   * citations whose target changed (their text, label, link). Every other collection this reader
   * rendered that uses one of them is rendered again when next asked for.
   */
  async reread<K extends CollectionName>(name: K, render: Render): Promise<ContentReads[K]> {
    this.#parsed.delete(name);
    this.#rendered.delete(name);
    let changed: ReadonlySet<string> = new Set();
    if (citesInto(name)) {
      const before = this.#handedTargets;
      this.#targets = undefined;
      this.#handedTargets = undefined;
      // None handed out before: nothing rendered so far shows a citation.
      if (before) {
        changed = changedTargets(before, await this.citeTargets());
        for (const other of this.#rendered.keys())
          if (!this.#handed.has(other) && this.cites(other, changed)) this.#rendered.delete(other);
      }
    }
    const read = await this.collection(name, render);
    this.#changed(name, changed);
    return read;
  }

  /** Whether the collection, as last read, may cite one of `ids` (its text names one). */
  cites(name: CollectionName, ids: ReadonlySet<string>): boolean {
    if (ids.size === 0) return false;
    const read = this.#latest.get(name);
    if (!read) return true;
    const text = JSON.stringify(read.entries);
    return [...ids].some((id) => text.includes(id));
  }

  /** Called with a collection's name after it was read again, and the citations whose target changed. */
  onChange(listener: (name: CollectionName, citations: ReadonlySet<string>) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(name: CollectionName, citations: ReadonlySet<string> = new Set()): void {
    for (const listener of this.#listeners) listener(name, citations);
  }

  /** Every citable id, from the validated sources, excerpts, axes and evidence. */
  citeTargets(): Promise<Map<string, CiteTarget>> {
    this.#targets ??= Promise.all([
      this.parsed('sources'),
      this.parsed('excerpts'),
      this.parsed('axes'),
      this.parsed('evidence'),
    ]).then(([sources, excerpts, axes, evidence]) => {
      const targets = citeTargets({
        sources: sources.entries,
        excerpts: excerpts.entries,
        axes: axes.entries,
        evidence: evidence.entries,
      });
      this.#handedTargets = targets;
      return targets;
    });
    return this.#targets;
  }

  /**
   * The site paths left at axes' old ids (redirects, which the sitemap does not list), from the
   * axes last read. For the end of a build, whose content layer has read them.
   */
  movedAxisPaths(): string[] {
    const axes = this.#latest.get('axes') as ParsedReads['axes'] | undefined;
    if (!axes) throw new Error(`content reader: ${this.dir} has no axes read yet (the content layer reads them first)`);
    return movedAxisPaths(axes.entries);
  }
}

const readers = new Map<string, ContentReader>();

/** The process's reader of a content folder, shared by the content layer, the Markdown pipeline and the sitemap. */
export function contentReader(dir: string): ContentReader {
  const key = resolve(dir);
  let reader = readers.get(key);
  if (!reader) readers.set(key, (reader = new ContentReader(key)));
  return reader;
}

/**
 * The citations of the process's reader of `dir`, for the Markdown pipeline (astro.config.mjs).
 * Looked up when a document cites something, so a render with no citation reads nothing.
 */
export function citeIndex(dir: string): () => Promise<CiteResolver> {
  return async () => {
    const targets = await contentReader(dir).citeTargets();
    return (id) => targets.get(id);
  };
}

/** Throws a ContentError listing every problem, when there are any. */
export function throwIfProblems(problems: Problem[]): void {
  if (problems.length > 0) throw new ContentError(problems);
}
