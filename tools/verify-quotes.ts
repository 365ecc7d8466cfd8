// Checks every verbatim quote in content/excerpts/*.yaml against a kubernetes/enhancements
// checkout (the pinned copy in ../shared/sources/kubernetes-enhancements will do): the quote is
// verbatim, its `lines` are no wider than the lines it occupies, and its `cut` says where it breaks
// off mid-sentence (quoteRule, tools/lib/quotes.ts).
//
//   node tools/verify-quotes.ts <path to a kubernetes/enhancements checkout> [--content <dir>]
//
// The content is read with the site's readers (src/lib/content/load.ts), so it is validated by
// the same schemas as the build. Prints one located line per failure,
// `content/excerpts/x.yaml:LINE:COL: excerpt "<source>/<id>", field "quote" (or "lines", "cut"): …`,
// then "N quotes checked, M failures". Exit 0 when all match, 1 on any failure, missing file or
// invalid content, 2 on a usage error.
import { folderReader, runExcerptCli } from './lib/content-cli.ts';
import { quoteRule } from './lib/quotes.ts';

process.exitCode = await runExcerptCli({
  tool: 'verify-quotes',
  folderName: 'path to a kubernetes/enhancements checkout',
  noun: 'quotes',
  rule: quoteRule,
  reader: folderReader,
});
