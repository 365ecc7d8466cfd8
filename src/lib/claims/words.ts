// Words of inline Markdown as a reader sees them, for the short answer's length limit: the field is
// parsed as the site parses it (remark-gfm, remark-directive, block syntax escaped as inline.ts
// renders it) and read as text, so syntax (code ticks, emphasis, a link's address, HTML) is not a
// word. In the claims syntax a citation (`:cite[...]`) renders as a small link, not as words;
// `:reading[...]` reads as its text; any other directive is text as the page shows it. Plain
// module: the schemas validate with it before anything is rendered.
import type { Nodes, Parent, Text } from 'mdast';
import { directiveToMarkdown } from 'mdast-util-directive';
import { toMarkdown } from 'mdast-util-to-markdown';
import { toString } from 'mdast-util-to-string';
import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { CITE, READING } from './syntax.ts';
import { escapeBlockSyntax } from './syntax.ts';

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkDirective);

/** Stands for a directive's label while the rest of it is written back as Markdown. */
const LABEL: Text = { type: 'text', value: '\uE000' };

/** The text of a node as a reader sees it; blocks, breaks and HTML tags part words. */
function words(node: Nodes): string {
  switch (node.type) {
    case 'html':
    case 'break':
      return ' ';
    case 'textDirective':
      if (node.name === CITE) return ' ';
      if (node.name === READING) return node.children.map(words).join('');
      return toMarkdown(
        { ...node, children: node.children.length > 0 ? [LABEL] : [] },
        { extensions: [directiveToMarkdown()] },
      )
        .trim()
        .replace(LABEL.value, node.children.map(words).join(''));
    default:
      return 'children' in node
        ? (node as Parent).children.map((child) => words(child as Nodes)).join(node.type === 'root' ? ' ' : '')
        : toString(node);
  }
}

/** The plain text of inline Markdown: code spans keep their text as written, markup outside them goes. */
export const plainInline = (md: string): string =>
  words(parser.parse(escapeBlockSyntax(md)))
    .replace(/\s+/g, ' ')
    .trim();

/** How many words a reader counts: whitespace-separated runs holding a letter or a digit. */
export const wordCount = (md: string): number =>
  plainInline(md)
    .split(' ')
    .filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
