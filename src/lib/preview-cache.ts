// Where what the build draws for the project's own content is kept: the link-preview images in
// preview-images/ (see preview-image.ts), in the repository; for any other content folder, the build cache.
// And the upkeep of preview-images/
// at the end of a build. Light on purpose: astro.config.mjs imports it, and nothing here loads the
// renderers or the content model.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const COMMITTED_DIR = join(process.cwd(), 'preview-images');

/** Is this run building the project's own content folder (not CONTENT_DIR's fixture or synthetic table)? */
export const isOwnContent = (): boolean =>
  resolve(process.env.CONTENT_DIR ?? 'content') === join(process.cwd(), 'content');

/** A folder in the build cache (CACHE_DIR, else Astro's own, node_modules/.astro): never in the repository. */
export const buildCacheDir = (name: string): string => resolve(process.env.CACHE_DIR ?? 'node_modules/.astro', name);

/** The versions package.json pins the dependencies at (exact versions), for the names of kept files. */
export const pinnedVersions = (): Record<string, string> =>
  (JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { dependencies: Record<string, string> })
    .dependencies;

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * Removes from `dir` every PNG that is none of `built` (the images a build of the project's own
 * content wrote): an axis renamed or gone, a card whose text changed. Returns the names removed.
 */
export function pruneUnused(dir: string, built: string[]): string[] {
  if (!existsSync(dir)) return [];
  const used = new Set(built.map(sha256));
  const stale = readdirSync(dir).filter((name) => name.endsWith('.png') && !used.has(sha256(join(dir, name))));
  for (const name of stale) rmSync(join(dir, name));
  return stale;
}
