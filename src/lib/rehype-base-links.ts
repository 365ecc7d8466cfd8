// Authors write site links from the root ("/keps/kep-265/"); this puts the deploy base in front
// at build time, so the same Markdown works at "/" and under any sub-path.
import type { Root, Element } from 'hast';
import { joinBase } from './base.ts';

function walk(node: Root | Element, base: string): void {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    const href = child.properties.href;
    if (child.tagName === 'a' && typeof href === 'string' && href.startsWith('/') && !href.startsWith('//')) {
      child.properties.href = joinBase(base, href);
    }
    walk(child, base);
  }
}

export function rehypeBaseLinks(options: { base: string }) {
  return (tree: Root) => walk(tree, options.base);
}
