// Authors write site links from the root ("/keps/kep-265/"); this puts the deploy base in front
// at build time, so the same Markdown works at "/" and under any sub-path. It descends into every
// node with children, MDX components (<Callout>…</Callout>) included, and also rewrites an `<a>`
// written as JSX in MDX.
import type { Root, Element } from 'hast';
import { joinBase } from './base.ts';

/** The parts of hast and MDX JSX nodes this plugin reads. */
interface AnyNode {
  type: string;
  tagName?: string;
  name?: string | null;
  properties?: Element['properties'];
  attributes?: Array<{ type: string; name?: string; value?: unknown }>;
  children?: AnyNode[];
}

const isSiteLink = (href: unknown): href is string =>
  typeof href === 'string' && href.startsWith('/') && !href.startsWith('//');

function walk(node: AnyNode, base: string): void {
  for (const child of node.children ?? []) {
    if (child.type === 'element' && child.tagName === 'a' && child.properties && isSiteLink(child.properties.href)) {
      child.properties.href = joinBase(base, child.properties.href);
    }
    if ((child.type === 'mdxJsxFlowElement' || child.type === 'mdxJsxTextElement') && child.name === 'a') {
      for (const attr of child.attributes ?? []) {
        if (attr.type === 'mdxJsxAttribute' && attr.name === 'href' && isSiteLink(attr.value))
          attr.value = joinBase(base, attr.value);
      }
    }
    walk(child, base);
  }
}

export function rehypeBaseLinks(options: { base: string }) {
  return (tree: Root) => walk(tree as AnyNode, options.base);
}
