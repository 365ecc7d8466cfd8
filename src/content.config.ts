// The content collections are defined in src/lib/content/astro-collections.ts, loaded here by Node
// itself rather than through Vite. Through Vite, every module the loaders import (the content reader,
// its schemas and rules, the Markdown pipeline, Astro's own modules behind them) would be
// transformed on each sync, a cost paid at every build and dev start. Loaded
// by Node, the loaders and astro.config.mjs share one module instance, so one content reader
// (src/lib/content/reader.ts) serves the loaders, the Markdown pipeline's citations and the sitemap.
// In `astro dev`, content edits reload live; an edit to the code of the loaders or the reader restarts
// the dev server (`npm run dev` runs it in Node's watch mode, tools/task.sh), since Node keeps the
// modules it loaded for the life of the process.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);
export const { collections } = load(
  './lib/content/astro-collections.ts',
) as typeof import('./lib/content/astro-collections.ts');
