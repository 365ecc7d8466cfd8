// The built search index, queried in Node as the search page queries it in the browser: Pagefind's
// own search script (<build>/pagefind/pagefind.js, its WebAssembly and index files) with the page's
// options (src/lib/search.ts). Outside a browser it runs on the main thread; its files are fetched
// by URL, so file: URLs are read from disk here.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SEARCH_OPTIONS } from '../../src/lib/search.ts';

export interface SubResult {
  title: string;
  url: string;
  excerpt: string;
  locations: number[];
}

export interface ResultData {
  url: string;
  excerpt: string;
  content: string;
  meta: { title: string };
  sub_results: SubResult[];
  anchors: { element: string; id: string; title?: string; text?: string }[];
}

export interface Pagefind {
  search(query: string | null): Promise<{ results: { score: number; data(): Promise<ResultData> }[] }>;
  options(options: object): Promise<void>;
}

let fetchPatched = false;
function readFileUrls(): void {
  if (fetchPatched) return;
  fetchPatched = true;
  const fetchOther = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.protocol !== 'file:') return fetchOther(input, init);
    return new Response(await readFile(fileURLToPath(url)));
  };
}

/**
 * The index of the build in `dist`, with the search page's options (`options` replaces them, `{}`
 * for Pagefind's defaults); result URLs start with the build's base, as on the site. Load one per process.
 */
export async function loadIndex(dist: string, base: string, options: object = SEARCH_OPTIONS): Promise<Pagefind> {
  readFileUrls();
  const pagefind = (await import(pathToFileURL(resolve(dist, 'pagefind/pagefind.js')).href)) as Pagefind;
  await pagefind.options({ ...options, baseUrl: base });
  return pagefind;
}

/** Every result of `query`, in rank order, with its data. */
export async function searchAll(pagefind: Pagefind, query: string | null): Promise<ResultData[]> {
  const found = await pagefind.search(query);
  return Promise.all(found.results.map((r) => r.data()));
}

/** Text of an excerpt without its <mark> highlighting. */
export const plainExcerpt = (excerpt: string): string => excerpt.replace(/<[^>]+>/g, '');

/** The sub-result with the most hits: the one the Component UI always shows (it shows the 3 with most). */
export const bestSubResult = (d: ResultData): SubResult | undefined =>
  [...d.sub_results].sort((a, b) => b.locations.length - a.locations.length)[0];
