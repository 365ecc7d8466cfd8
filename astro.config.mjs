// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import sitemap from '@astrojs/sitemap';
import { normaliseBase, joinBase } from './src/lib/base.ts';
import { markdownConfig } from './src/lib/markdown-pipeline.ts';
import pagefind from './src/integrations/pagefind.ts';
import csp from './src/integrations/csp.ts';
import { isHeadInjectDirectiveWarning } from './src/lib/rolldown-logs.ts';
import { contentDir } from './src/lib/content/dir.ts';
import { parseCollection } from './src/lib/content/collections.ts';
import { movedAxisPaths } from './src/lib/content/moved.ts';
import { routes } from './src/lib/routes.ts';
import previewCache from './src/integrations/preview-cache.ts';
import { lastChanged } from './src/lib/history.ts';

// The same build deploys at the root or under any sub-path: both come from the environment. Without
// SITE_URL the build publishes no address of its own: links from the host's root, and none of what
// only an absolute address serves (og:url, og:image, the sitemap); the build log says so once.
const site = process.env.SITE_URL || undefined;
const base = normaliseBase(process.env.SITE_BASE);
// OUT_DIR lets the benchmark build elsewhere without touching dist/.
const outDir = process.env.OUT_DIR || 'dist';
const cacheDir = process.env.CACHE_DIR ?? './node_modules/.astro';
// Pages at axes' old ids only redirect (noindex); the sitemap lists where they lead instead.
const moved = new Set(
  movedAxisPaths((await parseCollection('axes', contentDir)).entries).map((p) => joinBase(base, p)),
);
/** @param {string} path */
const isMoved = (path) => moved.has(path);
// A cell's own page (rows/<axis>/<backend>/) is for sharing and noindex; the axis page is listed.
const cellPage = new RegExp(`^${joinBase(base, 'rows/').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^/]+/[^/]+/$`);

/**
 * One line in the build log for each thing the build leaves out because it was not told it.
 * @returns {import('astro').AstroIntegration}
 */
const buildNotes = () => ({
  name: 'build-notes',
  hooks: {
    'astro:build:done': ({ logger }) => {
      if (!site)
        logger.info(
          "no SITE_URL: links are from the host's root; no canonical link, og:url, og:image, sitemap or Sitemap line (set SITE_URL to publish them)",
        );
      if (!lastChanged(contentDir, ['.']))
        logger.info('no full git history of content/ here: pages show no "Content last changed" date');
    },
  },
});

export default defineConfig({
  site,
  base,
  outDir,
  trailingSlash: 'always',
  // With OUT_DIR, tests build content fixtures with their own cache too, away from dist/'s.
  cacheDir,
  // One request renders a page: its stylesheets and scripts are inlined into it (a page's CSS is a
  // few KB; its scripts a few hundred bytes). src/integrations/csp.ts then allows each by its hash.
  build: { format: 'directory', inlineStylesheets: 'always' },
  vite: {
    // Vite's dependency cache in Astro's: two dev servers of copies of the project (tests/e2e/dev.spec.ts)
    // share node_modules, and one re-optimizing the dependencies under the other broke its live reload.
    cacheDir: `${cacheDir}/vite`,
    server: {
      watch: {
        // In `astro dev` a content edit rewrites .astro/data-store.json, and Astro reloads the open page
        // as it writes it. The watcher then reports the same write; within 1 s Astro knows it for its
        // own, later (a busy machine) it reloaded the page a second time, rendering it twice per edit.
        ignored: ['**/.astro/data-store.json'],
        // A file saved in two steps (truncated, then written, as an editor or a busy machine may space
        // them) changes twice; chokidar, Vite's watcher, keeps only the first 'change' of a file within
        // 50 ms (paulmillr/chokidar#1455, open; #1084), so a loader could read the emptied file and never
        // hear of the finished one. chokidar's documented awaitWriteFinish reports a change once the
        // file's size has held for 100 ms instead. Delete when chokidar reports the last change of a
        // burst (the fix discussed in #1455/#1456).
        awaitWriteFinish: { stabilityThreshold: 100, pollInterval: 20 },
      },
    },
    build: {
      assetsInlineLimit: 4096, // Astro inlines processed <script>s below this size
      rolldownOptions: {
        // One harmless rolldown warning per MDX page, from Astro itself (withastro/astro#18087; see
        // src/lib/rolldown-logs.ts). Only that one is dropped; every other log goes on as before.
        onLog(level, log, handler) {
          if (level === 'warn' && isHeadInjectDirectiveWarning(log)) return;
          handler(level, log);
        },
      },
    },
  },
  integrations: [
    mdx(),
    // The search page is noindex and has no content of its own; 404.html is never listed; nor are
    // the redirects left at axes' old ids.
    ...(site
      ? [
          sitemap({
            filter: (page) =>
              new URL(page).pathname !== joinBase(base, routes.search) &&
              !isMoved(new URL(page).pathname) &&
              !cellPage.test(new URL(page).pathname),
          }),
        ]
      : []),
    buildNotes(),
    // preview-images/ keeps exactly the link-preview images this build of content/ wrote.
    previewCache(),
    // Shiki's colours as classes; each page's policy (inline hashes) in the page and in _headers.
    csp(),
    // Indexes the finished HTML into <outDir>/pagefind/, so `astro build` is the whole build; it
    // checks that csp (which rewrites every page) comes before it.
    pagefind({ after: ['csp'] }),
  ],
  // One Markdown pipeline for MDX pages and the YAML fields the loaders render (src/lib/markdown-pipeline.ts);
  // it holds no content: citations are resolved where a page renders (src/components/Cite.astro).
  markdown: markdownConfig(base),
});
