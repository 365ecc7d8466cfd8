// After `astro build` of the project's own content: preview-images/ keeps exactly the images the
// build wrote, so a card no page uses any more does not stay in the repository (src/lib/preview-cache.ts).
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { COMMITTED_DIR, isOwnContent, pruneUnused } from '../lib/preview-cache.ts';
import { routes } from '../lib/routes.ts';

export default function previewCache(): AstroIntegration {
  return {
    name: 'preview-cache',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        if (!isOwnContent()) return;
        const out = fileURLToPath(dir);
        const built = (await readdir(out, { recursive: true }))
          .filter((f) => f.endsWith('.png') && f.startsWith(routes.previews))
          .map((f) => join(out, f));
        if (built.length === 0) return; // a build that wrote no preview image says nothing about which are used
        const removed = pruneUnused(COMMITTED_DIR, built);
        if (removed.length > 0)
          logger.info(`removed ${removed.length} preview image(s) no page uses from preview-images/`);
      },
    },
  };
}
