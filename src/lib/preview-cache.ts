// Where the link-preview images drawn for the project's own content are kept: preview-images/, in
// the repository (see preview-image.ts), and its upkeep at the end of a build. Light on purpose:
// astro.config.mjs imports it, and nothing here loads the renderers or the content model.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const COMMITTED_DIR = join(process.cwd(), 'preview-images');

/** Is this run building the project's own content folder (not CONTENT_DIR's fixture or synthetic table)? */
export const isOwnContent = (): boolean => resolve(process.env.CONTENT_DIR ?? 'content') === join(process.cwd(), 'content');

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * Removes from `dir` every PNG that is none of `built` (the images a build of the project's own
 * content wrote): a row renamed or gone, a card whose text changed. Returns the names removed.
 */
export function pruneUnused(dir: string, built: string[]): string[] {
  if (!existsSync(dir)) return [];
  const used = new Set(built.map(sha256));
  const stale = readdirSync(dir).filter((name) => name.endsWith('.png') && !used.has(sha256(join(dir, name))));
  for (const name of stale) rmSync(join(dir, name));
  return stale;
}
