// The content collections are defined in src/lib/content/collections-config.ts, which Node loads
// itself (createRequire), not Vite. Loaded through Vite, as Astro loads this file, the collections'
// module graph (the loaders, readers, schemas and rules, and Astro's own loaders and zod behind them)
// is transformed and evaluated in the content sync's Vite server first: measured on a clean build,
// 6 paired runs on one machine, 1.28x the wall time and 1.34x the CPU time of loading it with Node
// (docs/performance.md, "Clean build"; the sync's Vite server, withastro/astro#16332). Nothing is shared
// through it: the loaders keep no state across modules. Delete this indirection (import the module
// directly) once a clean build that way is within 1.05x of this one; re-measure on each Astro upgrade.
// In `npm run dev` an edit to that code restarts the process (tools/task.sh, Node's --watch-path).
import { createRequire } from 'node:module';

export const { collections } = createRequire(import.meta.url)(
  './lib/content/collections-config.ts',
) as typeof import('./lib/content/collections-config.ts');
