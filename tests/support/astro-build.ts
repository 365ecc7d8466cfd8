// A real `astro build` of another content folder, into a temporary folder (never dist/), with the
// Node that runs the tests.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface BuildResult { status: number | null; output: string; out: string }

/** Builds `content` into `<work>/out` (cache in `<work>/cache`) at base `/`. */
export function astroBuild(content: string, work: string): BuildResult {
  const run = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 300_000,
    env: {
      ...process.env, CONTENT_DIR: content, OUT_DIR: join(work, 'out'), CACHE_DIR: join(work, 'cache'),
      SITE_BASE: '/', ASTRO_TELEMETRY_DISABLED: '1',
    },
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}`, out: join(work, 'out') };
}
