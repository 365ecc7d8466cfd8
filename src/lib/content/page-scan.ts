// What the cross-file rules need to know of Markdown, read from its parsed tree (remark-parse with
// remark-mdx for pages, remark-gfm and remark-directive as the site's pipeline parses it), with
// line and column: the excerpts a page embeds (<Excerpt id="…" />), the ids its headings will
// get, the ids it cites (:cite[…]) and the prose that neither cites nor is marked as our reading.
// Code, headings, components' attributes and the frontmatter are not prose, because the tree says so.
import GithubSlugger from 'github-slugger';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
import remarkGfm from 'remark-gfm';
import remarkDirective from 'remark-directive';
import { toString } from 'mdast-util-to-string';
import { visit } from 'unist-util-visit';
import type { Root, Nodes, Parents } from 'mdast';
import type { TextDirective } from 'mdast-util-directive';
import { CITE, READING, INTRO, citeIds } from '../remark-claims.ts';
import { escapeBlockSyntax } from './inline.ts';

export interface At { line: number; col: number }
export interface CiteAt extends At { id: string }
/** A paragraph, list item or table row with neither a citation nor a reading mark. */
export interface UnmarkedAt extends At {
  kind: 'paragraph' | 'list item' | 'table row';
  /** Its first words, to recognise it by. */
  text: string;
}

export interface MarkdownScan {
  cites: CiteAt[];
  unmarked: UnmarkedAt[];
}
export interface PageScan extends MarkdownScan {
  embeds: Array<{ id: string; line: number }>;
  headings: Array<{ id: string; line: number }>;
}

const mdxParser = unified().use(remarkParse).use(remarkMdx).use(remarkGfm).use(remarkDirective);
const inlineParser = unified().use(remarkParse).use(remarkGfm).use(remarkDirective);

const at = (node: Nodes): At => ({ line: node.position?.start.line ?? 1, col: node.position?.start.column ?? 1 });

/** Every id of every :cite[…], at the id itself when the label is one line of text. */
function citesOf(tree: Root): CiteAt[] {
  const cites: CiteAt[] = [];
  visit(tree, 'textDirective', (node: TextDirective) => {
    if (node.name !== CITE) return;
    const label = node.children.length === 1 && node.children[0]!.type === 'text' ? node.children[0]! : undefined;
    const start = label?.position?.start;
    const value = label?.type === 'text' ? label.value : '';
    let from = 0;
    for (const id of citeIds(node)) {
      const i = value.indexOf(id, from);
      from = i + id.length;
      const oneLine = start && i >= 0 && !value.slice(0, i).includes('\n');
      cites.push(oneLine ? { id, line: start.line, col: start.column + i } : { id, ...at(node) });
    }
  });
  return cites;
}

/** Whether a node holds a citation or a reading mark (not counting nested lists: their items answer for themselves). */
function marked(node: Nodes): boolean {
  if (node.type === 'textDirective' && (node.name === CITE || node.name === READING)) return true;
  if (node.type === 'list') return false;
  return 'children' in node && (node.children as Nodes[]).some(marked);
}

/** Whether a node holds prose of its own: text outside nested lists, code and components' attributes. */
function prose(node: Nodes): boolean {
  if (node.type === 'text') return node.value.trim() !== '';
  if (node.type === 'list' || node.type === 'code' || node.type === 'html') return false;
  return 'children' in node && (node.children as Nodes[]).some(prose);
}

const firstWords = (node: Nodes): string => {
  const own = node.type === 'listItem' ? node.children.filter((c) => c.type !== 'list') : [node];
  const words = own.map((c) => toString(c, { includeImageAlt: false })).join(' ').replace(/\s+/g, ' ').trim();
  return words.length > 60 ? `${words.slice(0, 57)}…` : words;
};

/**
 * The prose with no mark: each paragraph outside a list, each list item and each table body row,
 * unless it sits in a :::reading or :::intro block. Headings, code, HTML and the frontmatter are
 * never prose; components (<Callout>) are looked into, an <Excerpt /> holds none.
 */
function unmarkedOf(tree: Root): UnmarkedAt[] {
  const found: UnmarkedAt[] = [];
  const check = (node: Nodes, kind: UnmarkedAt['kind']) => {
    if (prose(node) && !marked(node)) found.push({ kind, ...at(node), text: firstWords(node) });
  };
  const walk = (parent: Parents) => {
    for (const node of parent.children as Nodes[]) {
      switch (node.type) {
        case 'containerDirective':
          if (node.name !== READING && node.name !== INTRO) walk(node);
          break;
        case 'heading': case 'code': case 'html': case 'yaml': case 'definition': case 'thematicBreak':
          break;
        case 'paragraph':
          check(node, 'paragraph');
          break;
        case 'listItem':
          check(node, 'list item');
          for (const child of node.children) if (child.type === 'list') walk(child);
          break;
        case 'table':
          for (const row of node.children.slice(1)) check(row, 'table row');
          break;
        default:
          if ('children' in node) walk(node);
      }
    }
  };
  walk(tree);
  return found;
}

/** The frontmatter blanked, line for line, so positions in the tree are positions in the file. */
const withoutFrontmatter = (text: string): string =>
  text.replace(/^---\r?\n[\s\S]*?\r?\n---(?=\r?\n|$)/, (fm) => fm.replace(/[^\r\n]/g, ''));

/**
 * Parsing is the cost (micromark: a few hundred ms for all pages), and the loaders and the checks
 * ask for the same texts again within one load; the last scans are kept, by text.
 */
function memo<T>(scan: (text: string) => T, size = 512): (text: string) => T {
  const cache = new Map<string, T>();
  return (text) => {
    let hit = cache.get(text);
    if (hit === undefined) {
      hit = scan(text);
      if (cache.size >= size) cache.delete(cache.keys().next().value!);
      cache.set(text, hit);
    }
    return hit;
  };
}

export const scanPage = memo((text: string): PageScan => {
  const tree = mdxParser.parse(withoutFrontmatter(text));
  const slugger = new GithubSlugger();
  const embeds: PageScan['embeds'] = [];
  const headings: PageScan['headings'] = [];
  visit(tree, (node) => {
    if (node.type === 'heading') headings.push({ id: slugger.slug(toString(node, { includeImageAlt: false })), line: at(node).line });
    if ((node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && node.name === 'Excerpt') {
      const id = node.attributes.find((a) => a.type === 'mdxJsxAttribute' && a.name === 'id')?.value;
      if (typeof id === 'string') embeds.push({ id, line: at(node).line });
    }
  });
  return { embeds, headings, cites: citesOf(tree), unmarked: unmarkedOf(tree) };
});

/** The inline Markdown of a YAML field (a cell's answer, a summary, a note), parsed as the site renders it. */
export const scanInline = memo((md: string): MarkdownScan => {
  const tree = inlineParser.parse(escapeBlockSyntax(md));
  return { cites: citesOf(tree), unmarked: unmarkedOf(tree) };
});
