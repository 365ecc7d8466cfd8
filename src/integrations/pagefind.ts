// Pagefind as part of `astro build`: when the build is done, index the HTML it wrote and put the
// search bundle in <outDir>/pagefind/, so a host whose build command is plain `astro build` ships a
// working /search/. Uses Pagefind's Node API, which reads no pagefind.yml: every option is here.
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
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
];

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
          const added = await index.addDirectory({ path: site });
          check('addDirectory', added.errors);
          files = added.page_count;
          const written = await index.writeFiles({ outputPath });
          check('writeFiles', written.errors);
        } finally {
          await pagefind.close();
        }
        // addDirectory counts the HTML files it read; only pages with data-pagefind-body are indexed.
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
