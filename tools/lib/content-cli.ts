// What the checkers of content against upstream files share (tools/verify-quotes.ts,
// tools/verify-anchors.ts): one folder argument and `--content <dir>`, usage errors exiting 2, the
// content read by the site's own loader, and one rule run over it by verifyExcerpts, every problem
// printed located.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadSourcesAndExcerpts } from '../../src/lib/content/load.ts';
import { ContentError, Problems, describe } from '../../src/lib/problems.ts';
import { addFailures, verifyExcerpts, type ExcerptRule } from '../../src/lib/upstream/index.ts';

export interface CheckArgs {
  folder: string;
  content: string;
}

const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();

/**
 * Parses `<folder> [--content <dir>]` (the folder may be left out where the tool has a default);
 * prints usage and exits 2 when they are wrong.
 */
export function parseCheckArgs(argv: string[], tool: string, folderName: string, defaultFolder?: string): CheckArgs {
  const usageLine = `usage: node tools/${tool}.ts ${defaultFolder === undefined ? `<${folderName}>` : `[<${folderName}>]`} [--content <dir>]`;
  const usage: (message?: string) => never = (message) => {
    if (message) console.error(`${tool}: ${message}`);
    console.error(usageLine);
    process.exit(2);
  };
  let folder: string | undefined;
  let content = 'content';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--content') {
      const value = argv[++i];
      if (!value) usage('--content needs a directory');
      content = value;
    } else if (arg.startsWith('--content=')) {
      content = arg.slice('--content='.length);
    } else if (arg === '-h' || arg === '--help') {
      console.log(usageLine);
      process.exit(0);
    } else if (arg.startsWith('-')) {
      usage(`unknown option ${arg}`);
    } else if (folder === undefined) {
      folder = arg;
    } else {
      usage(`unexpected argument ${arg}`);
    }
  }
  folder ??= defaultFolder;
  if (folder === undefined) usage(`missing ${folderName}`);
  if (!isDir(folder)) usage(`${folder} is not a directory`);
  if (!isDir(content)) usage(`content directory ${content} not found`);
  return { folder, content };
}

export type SourcesAndExcerpts = Awaited<ReturnType<typeof loadSourcesAndExcerpts>>;

/**
 * sources.yaml and excerpts/ read by the site's loader (same schemas, same messages). On invalid
 * content prints each problem and `0 <noun> checked, content invalid (…)`, and returns undefined.
 */
export async function loadOrReport(content: string, noun: string): Promise<SourcesAndExcerpts | undefined> {
  try {
    return await loadSourcesAndExcerpts(content);
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    for (const p of error.problems) console.log(`content: ${describe(p)}`);
    const n = error.problems.length;
    console.log(`0 ${noun} checked, content invalid (${n} problem${n === 1 ? '' : 's'})`);
    return undefined;
  }
}

/** Reads `<folder>/<relative path>` as UTF-8, or null when the file is not there. */
export const folderReader =
  (folder: string) =>
  (relative: string): string | null => {
    const file = join(folder, relative);
    return existsSync(file) ? readFileSync(file, 'utf8') : null;
  };

/**
 * Reads `<repo>/<commit>/<path>` from a folder laid out that way, or from a folder of one
 * repository's copies laid out `<commit>/<path>` (../shared/sources/kubernetes); null when neither holds it.
 */
export const upstreamReader = (folder: string) => {
  const read = folderReader(folder);
  return (upstream: string): string | null => read(upstream) ?? read(upstream.split('/').slice(2).join('/'));
};

export interface ExcerptCli {
  /** The tool's name, `tools/<tool>.ts`. */
  tool: string;
  /** What the folder argument is, for the usage line. */
  folderName: string;
  /** The folder when none is given (none: the argument is required). */
  defaultFolder?: string;
  /** What is counted: "quotes", "code notes". */
  noun: string;
  rule: ExcerptRule<SourcesAndExcerpts['sources'][number], SourcesAndExcerpts['excerpts'][number]>;
  /** Makes the file reader from the folder. */
  reader: (folder: string) => (upstream: string) => string | null;
  /**
   * Why some pins cannot be read on this machine at all (a whole copy absent, not one file), if so:
   * the run then says so and checks nothing, and fails under CI=true, as the tests that read
   * ../shared do (tests/support/shared.ts).
   */
  unavailable?: (data: SourcesAndExcerpts, folder: string) => string[];
}

/**
 * A checker's whole run: reads the arguments and the content, runs the rule, prints each failure
 * located (`<file>:<line>:<col>: excerpt "<source>/<id>", field "<field>": …`), then `N <noun> checked, M
 * failures`. Returns the exit code: 0 when nothing failed, 1 on a failure or invalid content.
 */
export async function runExcerptCli(cli: ExcerptCli, argv = process.argv.slice(2)): Promise<number> {
  const { folder, content } = parseCheckArgs(argv, cli.tool, cli.folderName, cli.defaultFolder);
  const data = await loadOrReport(content, cli.noun);
  if (!data) return 1;
  const absent = cli.unavailable?.(data, folder) ?? [];
  if (absent.length > 0) {
    for (const reason of absent) console.log(`${cli.tool}: ${reason}`);
    if (process.env.CI === 'true') {
      console.log(`0 ${cli.noun} checked: CI=true, so they must not be skipped`);
      return 1;
    }
    console.log(`0 ${cli.noun} checked: skipped because this is not CI`);
    return 0;
  }
  const { checked, failures } = verifyExcerpts(data, cli.rule, cli.reader(folder));
  const problems = new Problems(data.locate);
  addFailures(problems, failures);
  for (const p of problems.list) console.log(describe(p));
  console.log(`${checked} ${cli.noun} checked, ${failures.length} failure${failures.length === 1 ? '' : 's'}`);
  return failures.length > 0 ? 1 : 0;
}
