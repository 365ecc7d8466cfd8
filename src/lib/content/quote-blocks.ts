// A quote that keeps its source's block shape (an excerpt's `form`, schemas.ts), as HTML: `markdown`
// keeps a KEP's heading and list items as a heading and a list (their markers are markup, not text),
// `sample` keeps the lines of a code block (sample output) preformatted, line for line. The quote's
// words are untouched; verify-quotes checks them against the source (tools/lib/quotes.ts, quoteShape).
import { renderInline, type Render } from './inline.ts';

export type QuoteForm = 'markdown' | 'sample';

export interface QuoteBlock {
  kind: 'heading' | 'item' | 'paragraph';
  /** The block's inline Markdown, its marker removed and its lines joined by spaces. */
  text: string;
}

const HEADING = /^#{1,6}\s+(.*)$/;
const ITEM = /^(?:[*+-]|\d+[.)])\s+(.*)$/;

/** The blocks of a quote written with its source's line breaks: headings, list items, paragraphs. */
export function quoteBlocks(md: string): QuoteBlock[] {
  const blocks: QuoteBlock[] = [];
  let open: QuoteBlock | undefined;
  for (const raw of md.split('\n')) {
    const line = raw.trim();
    if (line === '') {
      open = undefined;
      continue;
    }
    const heading = HEADING.exec(line);
    const item = heading ? null : ITEM.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', text: heading[1]! });
      open = undefined;
    } else if (item) {
      open = { kind: 'item', text: item[1]! };
      blocks.push(open);
    } else if (open) open.text += ` ${line}`;
    else {
      open = { kind: 'paragraph', text: line };
      blocks.push(open);
    }
  }
  return blocks;
}

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The quote as HTML blocks: a heading as a `quote-heading` paragraph (not a page heading), items as a list. */
export async function renderQuoteBlocks(render: Render, md: string, form: QuoteForm): Promise<string> {
  if (form === 'sample') return `<pre class="quote-sample">${escapeHtml(md.replace(/\s+$/gm, ''))}</pre>`;
  let html = '';
  let inList = false;
  for (const block of quoteBlocks(md)) {
    const inline = await renderInline(render, block.text);
    if (block.kind === 'item' && !inList) html += '<ul>';
    if (block.kind !== 'item' && inList) html += '</ul>';
    inList = block.kind === 'item';
    html +=
      block.kind === 'item'
        ? `<li>${inline}</li>`
        : block.kind === 'heading'
          ? `<p class="quote-heading">${inline}</p>`
          : `<p>${inline}</p>`;
  }
  return inList ? `${html}</ul>` : html;
}
