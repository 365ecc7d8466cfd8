// Options for rehype-autolink-headings: a link to each h2/h3's fragment, after the heading, inside a
// wrapper, the way Starlight does it - the visible icon is hidden from assistive tech and the link's
// accessible name says which section it points to. The class names (anchor-link, anchor-icon) are
// the built HTML's and the CSS's, so they stay.
import type { Options } from 'rehype-autolink-headings';
import type { Element, ElementContent } from 'hast';

function textOf(node: Element | ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

export const headingLink: Options = {
  behavior: 'after',
  test: ['h2', 'h3'],
  properties: { class: 'anchor-link' },
  group: (heading: Element) => ({
    type: 'element',
    tagName: 'div',
    properties: { class: `heading-wrapper level-${heading.tagName}` },
    children: [],
  }),
  content: (heading: Element) => [
    {
      type: 'element',
      tagName: 'span',
      properties: { ariaHidden: 'true', class: 'anchor-icon' },
      children: [{ type: 'text', value: '#' }],
    },
    {
      type: 'element',
      tagName: 'span',
      properties: { class: 'sr-only' },
      children: [{ type: 'text', value: `Section titled “${textOf(heading)}”` }],
    },
  ],
};
