// The content collections are defined in src/lib/content/astro-collections.ts. Astro loads this file
// through Vite, which would transform every module it imports (the loaders, the Markdown pipeline,
// Astro's own runtime behind `astro:content`: about 150 modules; a clean build went from 0.93x to
// 0.73x of 599455e's time when they moved out, docs/performance.md). The loaders are plain Node modules
// (tools and unit tests import them without Astro), so
// Node loads them itself. In `astro dev`, content edits reload as before; an edit to the loaders'
// code needs a restart of the dev server.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);
export const { collections } = load(
  './lib/content/astro-collections.ts',
) as typeof import('./lib/content/astro-collections.ts');
