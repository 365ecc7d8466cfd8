// Exit 0 when <dir>/node_modules holds exactly the packages <dir>/package-lock.json locks, 1 when
// something is missing or stale (tools/task.sh then runs npm ci). npm records the tree it installed
// in node_modules/.package-lock.json (its "hidden lockfile"), with the lock's entries minus the root.
// With --prod, only what building and serving need: the lock's entries npm does not mark `dev`
// (what `npm ci --omit=dev` installs); a whole install holds those too.
//   node tools/lib/deps-current.ts [--prod] [dir]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Lock = { packages?: Record<string, { version?: string; optional?: boolean; dev?: boolean }> };

const read = (file: string): Lock | undefined => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Lock;
  } catch {
    return undefined;
  }
};

export function depsCurrent(dir: string, prodOnly = false): boolean {
  const want = read(join(dir, 'package-lock.json'))?.packages;
  const have = read(join(dir, 'node_modules/.package-lock.json'))?.packages;
  if (!want || !have) return false;
  const wanted = Object.entries(want).filter(([path, p]) => path.startsWith('node_modules/') && !(prodOnly && p.dev));
  // Optional packages for other platforms (an esbuild or sharp binary) are locked but never installed.
  return (
    wanted.every(([path, p]) => have[path]?.version === p.version || (p.optional === true && !(path in have))) &&
    Object.keys(have).every((path) => path in want)
  );
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const prod = args.includes('--prod');
  process.exit(depsCurrent(args.find((a) => a !== '--prod') ?? '.', prod) ? 0 : 1);
}
