// Plain text from HTML the site's Markdown pipeline rendered (cell answers for CSV and metadata).
import type { Element, ElementContent, Nodes, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toString } from 'hast-util-to-string';
import { CITE_ELEMENT } from './claims/syntax.ts';

/** A citation: its placeholder (claims/syntax.ts), or the group Cite.astro renders. */
const isCites = (node: Nodes): boolean =>
  node.type === 'element' &&
  (node.tagName === CITE_ELEMENT ||
    (Array.isArray(node.properties.className) && node.properties.className.includes('cites')));

/** `node` without its citation groups, and without the white space before each (" [a], b" reads ", b"). */
function withoutCites<T extends Root | Element>(node: T): T {
  const children: ElementContent[] = [];
  for (const child of node.children as ElementContent[]) {
    const last = children.at(-1);
    if (!isCites(child)) children.push(child.type === 'element' ? withoutCites(child) : child);
    else if (last?.type === 'text') children[children.length - 1] = { ...last, value: last.value.trimEnd() };
  }
  return { ...node, children };
}

/**
 * The text of `html`, its white space collapsed. Citation groups (`:cite[...]`, rendered as
 * <span class="cites">[…]</span>) are links beside the words, listed on their own in every
 * plain-text output (the export's cites, a page's sources), so plain text leaves them out; "Our
 * reading:" labels stay, they are words of the claim.
 */
export function plainText(html: string): string {
  return toString(withoutCites(fromHtml(html, { fragment: true })))
    .replace(/\s+/g, ' ')
    .trim();
}
