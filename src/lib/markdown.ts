// Inline Markdown for short strings held in YAML (cell answers, notes, verbatim quotes that
// carry Markdown such as `code`). Block syntax is not used: these render inside table cells.
import { Marked } from 'marked';

const marked = new Marked({
  async: false,
  renderer: {
    link({ href, title, tokens }) {
      const text = this.parser.parseInline(tokens);
      const external = /^https?:\/\//.test(href);
      const attrs = [`href="${href}"`, title ? `title="${title}"` : '', external ? 'rel="noopener"' : ''].filter(Boolean);
      return `<a ${attrs.join(' ')}>${text}</a>`;
    },
  },
});

export function inline(md: string): string {
  return marked.parseInline(md.trim()) as string;
}

const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** Plain text for exports and metadata: the rendered HTML with its tags removed. */
export function plain(md: string): string {
  return inline(md)
    .replace(/<[^>]+>/g, '')
    .replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => entities[e] ?? e)
    .replace(/\s+/g, ' ')
    .trim();
}
