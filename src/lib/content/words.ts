// Words of inline Markdown as a reader sees them, for the short answer's length limit: syntax
// (code ticks, emphasis, a link's address, HTML tags) is not a word, and a citation directive
// (`:cite[...]`, the claims syntax) renders as a small link, not as words; `:reading[...]` reads as
// its text. Plain module: the schemas validate with it before anything is rendered.

/** A text directive, `:name[content]{attrs}`; its content may hold code spans (with brackets in them). */
const DIRECTIVE = /:([a-z][\w-]*)\[((?:[^[\]`]|`[^`]*`)*)\](\{[^}]*\})?/gi;

/** The plain text of inline Markdown: code spans keep their text as written, markup outside them goes. */
export function plainInline(md: string): string {
  return md
    .replace(DIRECTIVE, (_, name: string, content: string) => (name === 'cite' ? ' ' : content))
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part.slice(1, -1) : prose(part)))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

const prose = (md: string): string =>
  md
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/[*_~]/g, '');

/** How many words a reader counts: whitespace-separated runs holding a letter or a digit. */
export const wordCount = (md: string): number =>
  plainInline(md)
    .split(' ')
    .filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
