// The content collections are defined in src/lib/content/astro-collections.ts. Astro loads this file
// through Vite, which would transform every module it imports (the loaders, the Markdown pipeline,
// Astro's own runtime behind `astro:content`: about 150 modules, 0.6-1 s of every build and dev
// start). The loaders are plain Node modules (tools and unit tests import them without Astro), so
// Node loads them itself. In `astro dev`, content edits reload as before; an edit to the loaders'
// code needs a restart of the dev server.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);
export const { collections } = load('./lib/content/astro-collections.ts') as typeof import('./lib/content/astro-collections.ts');
