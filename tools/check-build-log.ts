// Build-log gate: `npm run build` must print no warning. tools/task.sh pipes `astro build` through
// this script, which passes every line on unchanged and, at the end, exits 1 and lists the
// warnings if there were any. A warning is a line (colour codes stripped) that
//   - Astro's logger tagged [WARN] (Astro, its integrations, and vite/rolldown through Astro), or
//   - starts with a warning word: Node's "(node:123) ExperimentalWarning: …", "Warning: …",
//     "WARN …", "npm warn …".
// Page paths and other words that merely contain "warn" (a /warnings/ page) do not count.
//
//   astro build 2>&1 | node tools/check-build-log.ts
//
// Exit 0 when the log holds no warning, 1 when it does.
import { createInterface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';

const WARNING_LINE = [
  /\[WARN\]/,
  /^\s*(?:\(node:\d+\)\s+)?(?:\[[A-Z0-9]+\]\s+)?\w*Warning:/,
  /^\s*(?:npm\s+)?warn(?:ing)?\b/i,
];

/** The lines of a build log that are warnings, colour codes stripped. */
export function findWarnings(log: string): string[] {
  return log
    .split('\n')
    .map((line) => stripVTControlCharacters(line))
    .filter((line) => WARNING_LINE.some((re) => re.test(line)));
}

async function main(): Promise<number> {
  const warnings: string[] = [];
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    process.stdout.write(`${line}\n`);
    warnings.push(...findWarnings(line));
  }
  if (warnings.length === 0) return 0;
  process.stderr.write(
    `\ncheck-build-log: the build printed ${warnings.length} warning(s); a clean build prints none:\n`,
  );
  for (const w of warnings) process.stderr.write(`  ${w.trim()}\n`);
  return 1;
}

if (import.meta.main) process.exitCode = await main();
