// Plain text from HTML the site's Markdown pipeline rendered (cell answers for CSV and metadata).
const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * Citation groups (`:cite[...]`, rendered as <span class="cites">[…]</span>) are links beside the
 * words, listed on their own in every plain-text output (the export's cites, a page's sources), so
 * plain text leaves them out; "Our reading:" labels stay, they are words of the claim.
 */
function withoutCites(html: string): string {
  let out = '';
  let at = 0;
  for (
    let start = html.indexOf('<span class="cites">');
    start !== -1;
    start = html.indexOf('<span class="cites">', at)
  ) {
    out += html.slice(at, start);
    let depth = 0;
    const tag = /<(\/?)span\b[^>]*>/g;
    tag.lastIndex = start;
    for (let m = tag.exec(html); m; m = tag.exec(html)) {
      depth += m[1] ? -1 : 1;
      if (depth === 0) {
        at = tag.lastIndex;
        break;
      }
    }
    if (depth !== 0) return out + html.slice(start);
  }
  return out + html.slice(at);
}

export function plainText(html: string): string {
  return withoutCites(html)
    .replace(/<[^>]+>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) =>
      e[0] === '#'
        ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
        : (named[e.toLowerCase()] ?? whole),
    )
    .replace(/\s+/g, ' ')
    .trim();
}
