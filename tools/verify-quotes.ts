// Checks every verbatim quote in content/excerpts/*.yaml against a kubernetes/enhancements
// checkout (the pinned copy in ../shared/sources/kubernetes-enhancements will do): the quote is
// verbatim, its `lines` are no wider than the lines it occupies, and its `cut` says where it breaks
// off mid-sentence (all in verifyQuotes, tools/lib/quotes.ts).
//
//   node tools/verify-quotes.ts <path to a kubernetes/enhancements checkout> [--content <dir>]
//
// The content is read with the site's readers (src/lib/content/load.ts), so it is validated by
// the same schemas as the build. Prints one line per mismatch, named by the full excerpt id
// ("kep-3866/data-plane: …"), then "N quotes checked, M mismatches". Exit 0 when all match,
// 1 on any mismatch, missing file or invalid content, 2 on a usage error.
import { readFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadSourcesAndExcerpts } from '../src/lib/content/load.ts';
import { ContentError, describe } from '../src/lib/content/errors.ts';
import { verifyQuotes } from './lib/quotes.ts';

const USAGE = 'usage: node tools/verify-quotes.ts <path to a kubernetes/enhancements checkout> [--content <dir>]';

function usage(message?: string): never {
  if (message) console.error(`verify-quotes: ${message}`);
  console.error(USAGE);
  process.exit(2);
}

function parseArgs(argv: string[]): { checkout: string; content: string } {
  let checkout: string | undefined;
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
      console.log(USAGE);
      process.exit(0);
    } else if (arg.startsWith('-')) {
      usage(`unknown option ${arg}`);
    } else if (checkout === undefined) {
      checkout = arg;
    } else {
      usage(`unexpected argument ${arg}`);
    }
  }
  if (checkout === undefined) usage('missing checkout path');
  if (!existsSync(checkout) || !statSync(checkout).isDirectory()) usage(`checkout ${checkout} is not a directory`);
  if (!existsSync(content) || !statSync(content).isDirectory()) usage(`content directory ${content} not found`);
  return { checkout, content };
}

async function main(): Promise<number> {
  const { checkout, content } = parseArgs(process.argv.slice(2));
  // The content is read by the site's own loader: the same schemas, the same error messages.
  let data: Awaited<ReturnType<typeof loadSourcesAndExcerpts>>;
  try {
    data = await loadSourcesAndExcerpts(content);
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    for (const p of error.problems) console.log(`content: ${describe(p)}`);
    const n = error.problems.length;
    console.log(`0 quotes checked, content invalid (${n} problem${n === 1 ? '' : 's'})`);
    return 1;
  }
  const readFile = (repoPath: string): string | null => {
    const file = join(checkout, repoPath);
    return existsSync(file) ? readFileSync(file, 'utf8') : null;
  };
  const { checked, problems } = verifyQuotes(data, readFile);
  for (const p of problems) console.log(p);
  console.log(`${checked} quotes checked, ${problems.length} mismatches`);
  return problems.length > 0 ? 1 : 0;
}

process.exitCode = await main();
