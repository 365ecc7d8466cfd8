// How often a reader meets a confidence mark on one built page: every "Our reading" label in <main>
// but the legend's, the "our reading" marks in figure drawings and in their text equivalents, and
// hedges in plain words ("as we read", "in our reading", "as we understand"). `closed`: the labels
// inside closed <details> (the table's cells), which a first load does not show.
import * as cheerio from 'cheerio';

export interface MarkCount {
  total: number;
  labels: number;
  closed: number;
  drawn: number;
  figureText: number;
  plain: number;
}

export function countMarks(html: string): MarkCount {
  const $ = cheerio.load(html);
  $('script, style').remove();
  const labels = $('main .reading-label').filter((_, el) => $(el).closest('.legend').length === 0);
  const closed = labels.filter((_, el) => $(el).closest('details:not(.figure-text)').length > 0).length;
  const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;
  const drawn = count($('main svg').text(), /our reading/gi);
  $('main svg').remove();
  const figureText = count($('main .figure-text').text(), /our reading/gi);
  $('.reading-label, .legend, .figure-text').remove();
  const plain = count($('main').text(), /as we read|in our reading|as we understand|our reading/gi);
  return { total: labels.length + drawn + figureText + plain, labels: labels.length, closed, drawn, figureText, plain };
}

/** The most marks the pages a reader starts from (/ and /drain/) may carry, details open (issue 44). */
export const MARK_BUDGET = 10;
