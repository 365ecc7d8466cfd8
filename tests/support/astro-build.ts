// Astro runs of other content folders (fixture builds, the dev server test), each in a project
// root of its own: a temporary folder with a copy of the project's sources and a link to its
// node_modules. Astro writes the content layer's module lists (.astro/content-modules.mjs,
// content-assets.mjs) into the project root, so two builds of different content in one root
// race: a build that ran beside a fixture build rendered the fixture's pages ("Unexpected error
// while rendering → index"). In their own roots they never meet, so tests can run side by side.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * What a project root needs for astro build/dev, and for the npm scripts' entry point (tools/task.sh,
 * which the dev test runs as `npm run dev` does): copied, except node_modules, which is linked.
 */
const PROJECT_FILES = [
  'astro.config.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'src',
  'public',
  'tools',
  '.ci',
];

/** Makes `<work>/project`, a project root of its own; returns its path. */
export function isolatedRoot(work: string): string {
  const project = join(work, 'project');
  mkdirSync(project, { recursive: true });
  for (const f of PROJECT_FILES)
    cpSync(join(root, f), join(project, f), { recursive: true, filter: (src) => !src.endsWith('/node_modules') });
  symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'), 'dir');
  return project;
}

/** The command line of the project's Astro CLI, with the Node that runs the tests. */
export const astroCommand = (...args: string[]): [string, string[]] => [
  process.execPath,
  [join(root, 'node_modules/astro/bin/astro.mjs'), ...args],
];

export interface BuildResult {
  status: number | null;
  output: string;
  out: string;
}

/** The address the test builds are made for, as a deploy's SITE_URL (tools/task.sh exports the same). */
export const TEST_SITE_URL = process.env.TEST_SITE_URL ?? 'https://kube-proxy-study.example';

/**
 * Builds `content` into `<work>/out` (cache in `<work>/cache`, project root in `<work>/project`) at
 * `base`, as a deploy builds it (SITE_URL: TEST_SITE_URL).
 */
export function astroBuild(content: string, work: string, base = '/'): BuildResult {
  const [node, args] = astroCommand('build');
  const run = spawnSync(node, args, {
    cwd: isolatedRoot(work),
    encoding: 'utf8',
    timeout: 300_000,
    env: {
      ...process.env,
      CONTENT_DIR: resolve(content),
      OUT_DIR: join(work, 'out'),
      CACHE_DIR: join(work, 'cache'),
      SITE_BASE: base,
      SITE_URL: TEST_SITE_URL,
      ASTRO_TELEMETRY_DISABLED: '1',
    },
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}`, out: join(work, 'out') };
}
