// The claims syntax (docs/claims.md), as remark-directive parses it, turned into HTML:
//   :cite[id id ...]   the Cite component (components/Cite.astro), which renders a bracket group of
//                      small links, one per id, where the page renders (claims/syntax.ts, CITE_*);
//   :reading[...]      one sentence or clause of our own inference, labelled "Our reading:";
//   :::reading ... ::: paragraphs of our reading, under a visible "Our reading" label;
//   :::intro ... :::   text that makes no claim (an introduction, navigation): plain prose.
// Any other directive is text that only looked like one ("foo:bar", "a:b:c"): it is written back as
// Markdown by mdast-util-directive's serialiser, which spells it as written except where the syntax
// has two spellings (`:y[]` before a space reads `:y`, `{k=v}` reads `{k="v"}`).
import type { Data, Paragraph, Root, Parent, PhrasingContent, RootContent, Text } from 'mdast';
import type { Element } from 'hast';
import { h } from 'hastscript';
import {
  directiveToMarkdown,
  type ContainerDirective,
  type LeafDirective,
  type TextDirective,
} from 'mdast-util-directive';
import { toMarkdown } from 'mdast-util-to-markdown';
import type {} from 'mdast-util-to-hast'; // types: data.hName, hProperties, hChildren
import { visit, SKIP } from 'unist-util-visit';
import { CITE, READING, INTRO, READING_LABEL, CITE_COMPONENT, CITE_ELEMENT, citeIds } from './claims/syntax.ts';

type Directive = ContainerDirective | LeafDirective | TextDirective;
const DIRECTIVES = new Set(['containerDirective', 'leafDirective', 'textDirective']);
const isDirective = (node: { type: string }): node is Directive => DIRECTIVES.has(node.type);

const text = (value: string): Text => ({ type: 'text', value });

/** Puts the hast element `el` in place of an mdast node when it is turned into hast. */
const renderAs = (node: { data?: Data }, el: Element, withChildren = true): void => {
  node.data = {
    hName: el.tagName,
    hProperties: el.properties,
    ...(withChildren && { hChildren: el.children }),
  };
};

/**
 * A `:cite[...]` as the page renders it (claims/syntax.ts): in MDX, the component `<Cite ids="…" />`;
 * elsewhere (a YAML field), an empty placeholder element that RichText.astro renders as the same
 * component. Nothing here resolves an id: the Markdown pipeline holds no content.
 */
function citeGroup(node: TextDirective, mdx: boolean, parent: Parent, index: number): void {
  const ids = citeIds(node).join(' ');
  if (mdx) {
    // An MDX JSX text element (mdast-util-mdx-jsx's node), which MDX compiles to the component.
    const element = {
      type: 'mdxJsxTextElement',
      name: CITE_COMPONENT,
      attributes: [{ type: 'mdxJsxAttribute', name: 'ids', value: ids }],
      children: [],
    };
    parent.children.splice(index, 1, element as never);
    return;
  }
  node.children = [];
  renderAs(node, h(CITE_ELEMENT, { dataIds: ids }));
}

function readingText(node: TextDirective): void {
  const label: Text = text(`${READING_LABEL}:`);
  renderAs(label, h('span.reading-label'), false);
  node.children.unshift(label, text(' '));
  renderAs(node, h('span.reading'), false);
}

function readingBlock(node: ContainerDirective): void {
  const label: Paragraph = { type: 'paragraph', children: [text(READING_LABEL)] };
  label.data = { hProperties: h('p.reading-label').properties };
  node.children.unshift(label);
  renderAs(node, h('div.reading-block'), false);
}

/** A directive written back as Markdown, by mdast-util-directive's own serialiser. */
const markdownOf = (node: Directive): string =>
  toMarkdown(node, { extensions: [directiveToMarkdown()] }).replace(/\n$/, '');

/** Stands for a text or leaf directive's label while the rest of it is written back. */
const LABEL = '\uE000';

/** A stray text or leaf directive as text; its label stays parsed, so Markdown in it renders. */
function restorePhrasing(node: TextDirective | LeafDirective): PhrasingContent[] {
  if (node.children.length === 0) return [text(markdownOf(node))];
  const [before = '', after = ''] = markdownOf({ ...node, children: [text(LABEL)] }).split(LABEL);
  return [text(before), ...node.children, text(after)];
}

/** A stray container directive: its fences, as paragraphs of text, around what it holds. */
function restoreBlock(node: ContainerDirective): RootContent[] {
  const head = node.children[0];
  const label = head?.type === 'paragraph' && head.data?.directiveLabel ? [head] : [];
  const lines = markdownOf({ ...node, children: label }).split('\n');
  const paragraph = (value: string): RootContent => ({ type: 'paragraph', children: [text(value)] });
  return [paragraph(lines[0]!), ...node.children.slice(label.length), paragraph(lines.at(-1)!)];
}

export function remarkClaims() {
  return (tree: Root, file: { path?: string }): void => {
    // An MDX page (Astro's MDX integration compiles it with these plugins) renders components.
    const mdx = file.path?.endsWith('.mdx') ?? false;
    visit(tree, (node, index, parent: Parent | undefined) => {
      if (!isDirective(node) || !parent || index === undefined) return;
      if (node.type === 'textDirective' && node.name === CITE) {
        citeGroup(node, mdx, parent, index);
        return SKIP; // its label is ids, now the component's
      }
      if (node.type === 'textDirective' && node.name === READING) return readingText(node);
      if (node.type === 'containerDirective' && node.name === READING) return readingBlock(node);
      if (node.type === 'containerDirective' && node.name === INTRO) {
        parent.children.splice(index, 1, ...node.children);
        return index; // visit what it held, in its place
      }
      const restored =
        node.type === 'containerDirective'
          ? restoreBlock(node)
          : node.type === 'leafDirective'
            ? [{ type: 'paragraph', children: restorePhrasing(node) } satisfies RootContent]
            : restorePhrasing(node);
      parent.children.splice(index, 1, ...(restored as typeof parent.children));
      return index; // its children may hold directives too
    });
  };
}
