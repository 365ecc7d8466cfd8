// Words of inline Markdown as a reader sees them, for the short answer's length limit: syntax
// (code ticks, emphasis, a link's address, HTML tags) is not a word, and a citation directive
// (`:cite[...]`, the claims syntax) renders as a small link, not as words; `:reading[...]` reads as
// its text. Plain module: the schemas validate with it before anything is rendered.

/** The plain text of one line of inline Markdown. */
export function plainInline(md: string): string {
  return md
    .replace(/:cite\[[^\]]*\](\{[^}]*\})?/g, ' ')
    .replace(/:[a-z][\w-]*\[([^\]]*)\](\{[^}]*\})?/gi, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/[`*_~]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** How many words a reader counts: whitespace-separated runs holding a letter or a digit. */
export const wordCount = (md: string): number =>
  plainInline(md).split(' ').filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
