// Graphviz for the figures' layout (dot, compiled to WebAssembly by @viz-js/viz), and where its
// answers are kept: a clean build that loads Graphviz and lays out both figures takes about 2.5 %
// longer, wall and CPU time (docs/performance.md). As with the link-preview images
// (src/lib/preview-image.ts), each answer is kept in a file named by the figure and a hash of all
// that decides it, the DOT text and Graphviz's version:
//   - figure-layouts/ in the repository, for the project's own content: a clean checkout (CI, a
//     host's deploy build) lays out no figure and never loads Graphviz. A build or dev render of
//     content/ that changes a figure lays it out, writes the new file there and removes that figure's
//     old one: commit it with the content change (tests/unit/figure-layouts.test.ts fails until then);
//   - the build cache (CACHE_DIR, else node_modules/.astro) for any other content folder.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Viz } from '@viz-js/viz';
import { isOwnContent, buildCacheDir, pinnedVersions } from '../preview-cache.ts';

/** Lays out a graph in DOT and returns Graphviz's JSON; `figure` names whose graph it is. */
export type Graphviz = (dot: string, figure: string) => Promise<unknown>;

let viz: Promise<Viz> | undefined;

/** Graphviz itself, loaded on the first layout, not at import. */
export const runGraphviz: Graphviz = async (dot) => {
  viz ??= import('@viz-js/viz').then((m) => m.instance());
  return (await viz).renderJSON(dot);
};

const pinned = pinnedVersions()['@viz-js/viz'];

/** The file that keeps a figure's layout: its id, then a hash of the DOT text and Graphviz's version. */
export const layoutFile = (figure: string, dot: string): string =>
  `${figure}.${createHash('sha256').update(JSON.stringify({ dot, graphviz: pinned })).digest('hex').slice(0, 16)}.json`;

const ofFigure = (figure: string, name: string) => name.startsWith(`${figure}.`) && /^\.[0-9a-f]{16}\.json$/.test(name.slice(figure.length));

/** Graphviz's answers kept in `dir`: read when kept, else laid out and kept, replacing that figure's older one. */
export function keptGraphviz(dir: string, run: Graphviz = runGraphviz): Graphviz {
  return async (dot, figure) => {
    const file = layoutFile(figure, dot);
    try {
      return JSON.parse(readFileSync(join(dir, file), 'utf8')) as unknown;
    } catch { /* not laid out yet */ }
    const json = await run(dot, figure);
    mkdirSync(dir, { recursive: true });
    for (const old of readdirSync(dir)) if (ofFigure(figure, old)) rmSync(join(dir, old));
    writeFileSync(join(dir, file), `${JSON.stringify(json)}\n`);
    return json;
  };
}

export const COMMITTED_LAYOUTS = join(process.cwd(), 'figure-layouts');

/** Where this run keeps layouts: the repository's folder for content/, the build cache otherwise. */
export const siteGraphviz = (): Graphviz =>
  keptGraphviz(isOwnContent() ? COMMITTED_LAYOUTS : buildCacheDir('figure-layouts'));
