// How often a reader meets a confidence mark on the home page and /drain/ of a build:
//   node tools/confidence-marks.ts [dist]
// Counts every "Our reading" label in <main> but the legend's, the "our reading" marks in figure
// drawings and in their text equivalents, and hedges in plain words ("as we read", "in our reading",
// "as we understand"); "first load" leaves out the labels inside closed <details> (the table's cells).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as cheerio from 'cheerio';

const dist = process.argv[2] ?? 'dist';
for (const page of ['index.html', 'drain/index.html']) {
  const $ = cheerio.load(readFileSync(join(dist, page), 'utf8'));
  $('script, style').remove();
  const labels = $('main .reading-label').filter((_, el) => $(el).closest('.legend').length === 0);
  const closed = labels.filter((_, el) => $(el).closest('details').length > 0).length;
  const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;
  const drawn = count($('main svg').text(), /our reading/gi);
  $('main svg').remove();
  const figureText = count($('main .figure-text').text(), /our reading/gi);
  $('.reading-label, .legend, .figure-text').remove();
  const plain = count($('main').text(), /as we read|in our reading|as we understand|our reading/gi);
  const total = labels.length + drawn + figureText + plain;
  console.log(
    `${page}: ${total} marks (${total - closed} on first load): ${labels.length} labels (${closed} in closed details), ${drawn} in drawings, ${figureText} in figure text, ${plain} in plain words`,
  );
}
