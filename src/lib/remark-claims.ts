// The claims syntax (docs/claims.md), as remark-directive parses it, turned into HTML:
//   :cite[id id ...]   a bracket group of small links, one per id, to the excerpt (or row, or
//                      evidence); each link shows the source and its lines ("KEP-265 L98–102"),
//                      is named "Source: KEP-265 L98–102", prints a code file's path on paper, and
//                      is left out of the search index's text (data-pagefind-ignore);
//   :reading[...]      one sentence or clause of our own inference, labelled "Our reading:";
//   :::reading ... ::: paragraphs of our reading, under a visible "Our reading" label;
//   :::intro ... :::   text that makes no claim (an introduction, navigation): plain prose.
// Any other directive is text that only looked like one ("10:30", "foo:bar"): it is put back
// exactly as written. Links are site paths from the root; rehype-base-links adds the base.
import type { Root, Parent, PhrasingContent, RootContent, Text } from 'mdast';
import type { ElementContent } from 'hast';
import type { ContainerDirective, LeafDirective, TextDirective } from 'mdast-util-directive';
import type { VFile } from 'vfile';
import type {} from 'mdast-util-to-hast'; // types: data.hName, hProperties, hChildren
import { visit, SKIP } from 'unist-util-visit';
import { CITE, READING, INTRO, READING_LABEL, citeIds, type CiteResolver, type CiteTarget } from './claims/syntax.ts';

type Directive = ContainerDirective | LeafDirective | TextDirective;
const DIRECTIVES = new Set(['containerDirective', 'leafDirective', 'textDirective']);
const isDirective = (node: { type: string }): node is Directive => DIRECTIVES.has(node.type);

export interface ClaimsOptions {
  /** Resolves cited ids; called only when a document cites something. */
  cites?: () => Promise<CiteResolver>;
}

const text = (value: string): Text => ({ type: 'text', value });
const h = (
  tagName: string,
  className: string | undefined,
  children: ElementContent[],
  extra: Record<string, string> = {},
): ElementContent => ({
  type: 'element',
  tagName,
  properties: { ...(className && { className: [className] }), ...extra },
  children,
});

/** A citation link's accessible name: "Source: topology.go L55–66, pkg/proxy/topology.go" (holds what it shows). */
export const citeName = (t: CiteTarget): string => `${t.prefix}${t.text}${t.detail}`;

function citeLink(id: string, target: CiteTarget | undefined): ElementContent {
  if (!target) return h('span', 'cite-unknown', [{ type: 'text', value: `unknown citation “${id}”` }]);
  // The name is given whole: a visually hidden part inside a link is its own box in some browsers,
  // which breaks the name ("KEP-265 , lines 98–102"). It begins with what the link shows (WCAG 2.5.3).
  return h(
    'a',
    'cite',
    [{ type: 'text', value: target.text }, h('span', 'cite-detail', [{ type: 'text', value: target.detail }])],
    { href: target.href, ariaLabel: citeName(target), dataCite: id },
  );
}

/** `[link, link]`: the links of one citation, in a span the stylesheet sets small. */
function citeGroup(node: TextDirective, resolve: CiteResolver): void {
  const links = citeIds(node).map((id) => citeLink(id, resolve(id)));
  const children: ElementContent[] = [{ type: 'text', value: '[' }];
  links.forEach((link, i) => children.push(...(i > 0 ? [{ type: 'text', value: ', ' } as const] : []), link));
  children.push({ type: 'text', value: ']' });
  node.data = { hName: 'span', hProperties: { className: ['cites'], dataPagefindIgnore: '' }, hChildren: children };
}

function readingText(node: TextDirective): void {
  const label: Text = {
    ...text(`${READING_LABEL}:`),
    data: { hName: 'span', hProperties: { className: ['reading-label'] } },
  };
  node.children.unshift(label, text(' '));
  node.data = { hName: 'span', hProperties: { className: ['reading'] } };
}

function readingBlock(node: ContainerDirective): void {
  node.children.unshift({
    type: 'paragraph',
    data: { hProperties: { className: ['reading-label'] } },
    children: [text(READING_LABEL)],
  });
  node.data = { hName: 'div', hProperties: { className: ['reading-block'] } };
}

/** The directive's text as written, when the tree came from a file (it always does here). */
function written(node: Directive, source: string | undefined): string | undefined {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  return source !== undefined && start !== undefined && end !== undefined ? source.slice(start, end) : undefined;
}

/** What a stray text or leaf directive was before it was parsed: its text around its label. */
function restorePhrasing(node: TextDirective | LeafDirective, source: string | undefined): PhrasingContent[] {
  const raw = written(node, source);
  const marker = node.type === 'textDirective' ? ':' : '::';
  const children = node.children as PhrasingContent[];
  if (raw === undefined) {
    const attrs = Object.entries(node.attributes ?? {}).map(([k, v]) => (v ? `${k}="${v}"` : k));
    const label = children.length > 0 ? '[' : '';
    return [
      text(`${marker}${node.name}${label}`),
      ...children,
      text(`${label && ']'}${attrs.length > 0 ? `{${attrs.join(' ')}}` : ''}`),
    ];
  }
  const start = node.position!.start.offset!;
  const first = children[0]?.position?.start.offset;
  const last = children.at(-1)?.position?.end.offset;
  if (first === undefined || last === undefined) return [text(raw)];
  return [text(raw.slice(0, first - start)), ...children, text(raw.slice(last - start))];
}

function restoreBlock(node: ContainerDirective, source: string | undefined): RootContent[] {
  const raw = written(node, source) ?? `:::${node.name}\n:::`;
  const lines = raw.split('\n');
  const body = node.children.filter((c) => !(c.type === 'paragraph' && c.data?.directiveLabel));
  const paragraph = (value: string): RootContent => ({ type: 'paragraph', children: [text(value)] });
  const closing = lines.length > 1 && /^\s*:::+\s*$/.test(lines.at(-1)!) ? [paragraph(lines.at(-1)!.trim())] : [];
  return [paragraph(lines[0]!), ...body, ...closing];
}

export function remarkClaims(options: ClaimsOptions = {}) {
  return async (tree: Root, file: VFile): Promise<void> => {
    const source = typeof file.value === 'string' ? file.value : file.value ? String(file.value) : undefined;
    let cites = false;
    visit(tree, (node) => {
      if (node.type === 'textDirective' && node.name === CITE) cites = true;
    });
    const resolve: CiteResolver = cites && options.cites ? await options.cites() : () => undefined;

    visit(tree, (node, index, parent: Parent | undefined) => {
      if (!isDirective(node) || !parent || index === undefined) return;
      if (node.type === 'textDirective' && node.name === CITE) {
        citeGroup(node, resolve);
        return SKIP; // its label is ids, now links
      }
      if (node.type === 'textDirective' && node.name === READING) return readingText(node);
      if (node.type === 'containerDirective' && node.name === READING) return readingBlock(node);
      if (node.type === 'containerDirective' && node.name === INTRO) {
        parent.children.splice(index, 1, ...node.children);
        return index; // visit what it held, in its place
      }
      const restored =
        node.type === 'containerDirective'
          ? restoreBlock(node, source)
          : node.type === 'leafDirective'
            ? [{ type: 'paragraph', children: restorePhrasing(node, source) } satisfies RootContent]
            : restorePhrasing(node, source);
      parent.children.splice(index, 1, ...(restored as typeof parent.children));
      return index; // its children may hold directives too
    });
  };
}
