// Pagefind as part of `astro build`: when the build is done, index the HTML it wrote and put the
// search bundle in <outDir>/pagefind/, so a host whose build command is plain `astro build` ships a
// working /search/. Uses Pagefind's Node API, which reads no pagefind.yml: every option is here.
// What the index holds: each page's words without its citations and chrome, and a
// sub-result per heading, per cell of the home table and per figure (data-pagefind-title).
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import * as pagefind from 'pagefind';
import type { PagefindServiceConfig } from 'pagefind';
import { routes } from '../lib/routes.ts';

export interface PagefindOptions {
  /** Folder under the build output that receives the bundle; search.astro loads it from there. */
  outputSubdir?: string;
  /** Passed to pagefind.createIndex as is. */
  index?: PagefindServiceConfig;
  /**
   * Integrations whose astro:build:done must finish the pages before Pagefind indexes them (the
   * CSP integration rewrites every page). Astro runs the hooks in the integrations' order, so each
   * must come before this one in the config; the build fails if one does not.
   */
  after?: string[];
}

/** What pagefind-entry.json says about the index it describes (the fields read here). */
interface PagefindEntry {
  version: string;
  languages: Record<string, { page_count: number }>;
}

// Pages opt in with data-pagefind-body; these selectors inside them are chrome, not content.
export const EXCLUDE_SELECTORS = [
  '.anchor-link', // "Section titled …" heading links (screen-reader text)
  '.copy-link', // the table's copy-link buttons
  '.excerpt-self', // an excerpt's link to itself
  '.cites', // citation groups in running text (also data-pagefind-ignore): snippets show the prose
  '.cite-list', // a cell's or a figure step's citation links
  '.cell-sources', // a cell's "Sources: …." around its citation links, which would read "Sources: ."
  '.figure-cites', // a figure step's "(…)" around its citation links, which would read "()"
  '.excerpt figcaption', // an excerpt's source, lines and section: its citation, glued to the quote's last word
  '.legend', // the table's key: no hit in a cell lands on it (it would head every cell's words)
  'table.comparison caption', // the table's caption and headers: each cell's sub-result title names its
  'table.comparison th', //     row and column (data-pagefind-title), and a row header would fall in the row above
  '.cell-column', // the row and column repeated in each cell for narrow screens: the cell's title says them
  '.cell-provenance', // a cell's badge (its kind, its sources' names, "Cited · ·" once the links are out)
  '.cell-tools', // "Link to this cell"
  '.figure-file', // "The drawing alone (SVG, …)"
  '.growth-table', // the growth figures' numbers, which their text gives in words (its header cells run together)
];

/** The citation groups that follow the words they cite: Cite.astro's in running text, a figure step's. */
const CITATION_GROUPS = ['cites', 'figure-cites'];
const beforeCitationGroup = new RegExp(`\\s+(?=<span class="(?:${CITATION_GROUPS.join('|')})"[\\s>])`, 'g');

/**
 * A built page as Pagefind should read it. A citation group is left out of the index (above), but
 * the white space before it stays, and Pagefind splits words on white space: "counts none [cites];
 * its" would be indexed, and shown in excerpts, as "counts none ; its", and a list item ending in
 * one would end in a space, where Pagefind adds no full stop before the next ("kept Weight 0: …").
 * So the white space before each group goes with it, as in plain text (src/lib/markdown.ts):
 * "counts none; its", "kept. Weight 0: …". Only what is indexed changes, not the site's HTML.
 */
export const forIndex = (html: string): string => html.replace(beforeCitationGroup, '');

/** Every HTML file under `dir`, relative to it with "/", sorted; Pagefind's own folder left out. */
async function htmlFiles(dir: string, outputSubdir: string): Promise<string[]> {
  const own = outputSubdir.replace(/\/+$/, '') + '/';
  return (await readdir(dir, { recursive: true }))
    .map((f) => f.split(sep).join('/'))
    .filter((f) => f.endsWith('.html') && !f.startsWith(own))
    .sort();
}

/** Throws with every message if a Pagefind call reported errors. */
function check(step: string, errors: string[]): void {
  if (errors.length > 0) throw new Error(`pagefind ${step} failed:\n${errors.join('\n')}`);
}

export default function pagefindIntegration(options: PagefindOptions = {}): AstroIntegration {
  const outputSubdir = options.outputSubdir ?? routes.searchBundle;
  const config: PagefindServiceConfig = { excludeSelectors: EXCLUDE_SELECTORS, ...options.index };
  return {
    name: 'pagefind',
    hooks: {
      'astro:config:done': ({ config }) => {
        const names = config.integrations.map((i) => i.name);
        const self = names.indexOf('pagefind');
        for (const name of options.after ?? [])
          if (!names.includes(name) || names.indexOf(name) > self)
            throw new Error(
              `pagefind must come after the "${name}" integration in astro.config.mjs: it indexes the pages "${name}" finishes`,
            );
      },
      // `dir` is the configured outDir (OUT_DIR for tests and the bench) for a static build.
      'astro:build:done': async ({ dir, logger }) => {
        const site = fileURLToPath(dir);
        const outputPath = join(site, outputSubdir);
        let files: number;
        try {
          const { errors, index } = await pagefind.createIndex(config);
          check('createIndex', errors);
          if (!index) throw new Error('pagefind createIndex returned no index');
          // Page by page rather than addDirectory, to index each as forIndex reads it; the URL is
          // computed from the path as addDirectory computes it ("rows/drain/index.html": /rows/drain/).
          const paths = await htmlFiles(site, outputSubdir);
          for (const sourcePath of paths) {
            const content = forIndex(await readFile(join(site, sourcePath), 'utf8'));
            const added = await index.addHTMLFile({ sourcePath, content });
            check(`addHTMLFile ${sourcePath}`, added.errors);
          }
          files = paths.length;
          const written = await index.writeFiles({ outputPath });
          check('writeFiles', written.errors);
        } finally {
          await pagefind.close();
        }
        // Every HTML file was read; only pages with data-pagefind-body are indexed.
        const entry = JSON.parse(await readFile(join(outputPath, 'pagefind-entry.json'), 'utf8')) as PagefindEntry;
        const pages = Object.values(entry.languages).reduce((sum, l) => sum + l.page_count, 0);
        const languages = Object.keys(entry.languages).join(', ');
        const shown = relative(process.cwd(), outputPath);
        logger.info(
          `indexed ${pages} of ${files} HTML pages (${languages}) into ${shown.startsWith('..') ? outputPath : shown}/`,
        );
      },
    },
  };
}
