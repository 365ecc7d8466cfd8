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
import { folderReader, loadOrReport, parseCheckArgs } from './lib/content-cli.ts';
import { verifyQuotes } from './lib/quotes.ts';

async function main(): Promise<number> {
  const { folder: checkout, content } = parseCheckArgs(
    process.argv.slice(2),
    'verify-quotes',
    'path to a kubernetes/enhancements checkout',
  );
  // The content is read by the site's own loader: the same schemas, the same error messages.
  const data = await loadOrReport(content, 'quotes');
  if (!data) return 1;
  const { checked, problems } = verifyQuotes(data, folderReader(checkout));
  for (const p of problems) console.log(p);
  console.log(`${checked} quotes checked, ${problems.length} mismatches`);
  return problems.length > 0 ? 1 : 0;
}

process.exitCode = await main();
