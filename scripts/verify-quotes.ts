// Checks every verbatim quote in content/excerpts/*.yaml against a kubernetes/enhancements
// checkout (the pinned copy in ../shared/sources/kubernetes-enhancements will do).
//
//   node scripts/verify-quotes.ts <path to a kubernetes/enhancements checkout> [--content <dir>]
//
// Prints one line per mismatch, named by the full excerpt id ("kep-3866/data-plane: …"), then
// "N quotes checked, M mismatches". Exit 0 when all match, 1 on any mismatch or missing file,
// 2 on a usage error.
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { join, dirname, basename, extname } from 'node:path';
import { parse } from 'yaml';
import { checkQuote } from '../src/lib/quotes.ts';

const ENHANCEMENTS = 'kubernetes/enhancements';
const USAGE = 'usage: node scripts/verify-quotes.ts <path to a kubernetes/enhancements checkout> [--content <dir>]';

interface SourceRow { id?: unknown; repo?: unknown; path?: unknown }
interface ExcerptRow { id?: unknown; lines?: unknown; path?: unknown; quote?: unknown }

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

const isLineRange = (v: unknown): v is [number, number] =>
  Array.isArray(v) && v.length === 2 && v.every((n) => typeof n === 'number' && Number.isInteger(n));

function readList<T>(file: string): T[] {
  const data: unknown = parse(readFileSync(file, 'utf8'));
  if (data == null) return [];
  if (!Array.isArray(data)) throw new Error(`${file}: must be a YAML list`);
  return data as T[];
}

function main(): number {
  const { checkout, content } = parseArgs(process.argv.slice(2));
  const problems: string[] = [];
  let checked = 0;

  const sources = new Map<string, SourceRow>();
  for (const s of readList<SourceRow>(join(content, 'sources.yaml'))) {
    if (typeof s?.id === 'string') sources.set(s.id, s);
  }

  const excerptDir = join(content, 'excerpts');
  const files = existsSync(excerptDir) ? readdirSync(excerptDir).filter((f) => /\.ya?ml$/.test(f)).sort() : [];
  const cache = new Map<string, string | null>();
  const readSource = (file: string): string | null => {
    if (!cache.has(file)) cache.set(file, existsSync(file) ? readFileSync(file, 'utf8') : null);
    return cache.get(file) ?? null;
  };

  for (const name of files) {
    const sourceId = basename(name, extname(name));
    const rows = readList<ExcerptRow>(join(excerptDir, name));
    const source = sources.get(sourceId);
    for (const [index, e] of rows.entries()) {
      if (typeof e?.quote !== 'string') continue;
      const id = `${sourceId}/${typeof e.id === 'string' ? e.id : `#${index + 1}`}`;
      if (!source) {
        problems.push(`${id}: no source "${sourceId}" in ${join(content, 'sources.yaml')}`);
        continue;
      }
      if (source.repo !== ENHANCEMENTS) continue; // only kubernetes/enhancements quotes are checkable here
      if (typeof source.path !== 'string') {
        problems.push(`${id}: source "${sourceId}" has no path`);
        continue;
      }
      if (!isLineRange(e.lines)) {
        problems.push(`${id}: lines must be [first, last]`);
        continue;
      }
      const rel = typeof e.path === 'string' ? join(dirname(source.path), e.path) : source.path;
      const file = join(checkout, rel);
      checked++;
      const text = readSource(file);
      if (text === null) {
        problems.push(`${id}: file not found: ${file}`);
        continue;
      }
      const result = checkQuote(e.quote, text, e.lines);
      if (!result.ok) problems.push(`${id}: ${rel}: ${result.reason}`);
    }
  }

  for (const p of problems) console.log(p);
  console.log(`${checked} quotes checked, ${problems.length} mismatches`);
  return problems.length > 0 ? 1 : 0;
}

process.exitCode = main();
