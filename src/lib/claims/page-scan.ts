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
import { CITE, READING, INTRO, citeIds } from './syntax.ts';
import { escapeBlockSyntax } from './syntax.ts';
import { textTokens, type Token } from './tokens.ts';

export interface At {
  line: number;
  col: number;
}
export interface CiteAt extends At {
  id: string;
}
/** A paragraph, list item or table row with neither a citation nor a reading mark. */
export interface UnmarkedAt extends At {
  kind: 'paragraph' | 'list item' | 'table row';
  /** Its first words, to recognise it by. */
  text: string;
}

/** A token of a claim (tokens.ts), where it is written: line and column, and its offset in the text parsed. */
export interface TokenAt extends Token, At {
  offset: number;
}
/** One sentence of a claim (a table row is one): the tokens it must have carried, and the ids it cites. */
export interface Sentence {
  tokens: TokenAt[];
  cites: string[];
}

export interface MarkdownScan {
  cites: CiteAt[];
  unmarked: UnmarkedAt[];
  /** The sentences outside our reading that hold a token (a :::intro block's too). */
  sentences: Sentence[];
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
  const words = own
    .map((c) => toString(c, { includeImageAlt: false }))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return words.length > 60 ? `${words.slice(0, 57)}…` : words;
};

/**
 * Each paragraph outside a list, each list item (then its nested lists) and each table body row, in
 * document order, outside the container directives named in `skip`. Headings, code, HTML, the
 * frontmatter, definitions and rules are never prose; other containers are looked into.
 */
function eachClaim(tree: Root, skip: ReadonlySet<string>, visitClaim: (node: Nodes, kind: UnmarkedAt['kind']) => void) {
  const walk = (parent: Parents) => {
    for (const node of parent.children as Nodes[]) {
      switch (node.type) {
        case 'containerDirective':
          if (!skip.has(node.name)) walk(node);
          break;
        case 'heading':
        case 'code':
        case 'html':
        case 'yaml':
        case 'definition':
        case 'thematicBreak':
          break;
        case 'paragraph':
          visitClaim(node, 'paragraph');
          break;
        case 'listItem':
          visitClaim(node, 'list item');
          for (const child of node.children) if (child.type === 'list') walk(child);
          break;
        case 'table':
          for (const row of node.children.slice(1)) visitClaim(row, 'table row');
          break;
        default:
          if ('children' in node) walk(node);
      }
    }
  };
  walk(tree);
}

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
  eachClaim(tree, new Set([READING, INTRO]), check);
  return found;
}

// A sentence ends at . ! or ? (and any closing quote or bracket) before white space and anything
// but a lower-case letter; "e.g." and "i.e." do not end one.
const SENTENCE_END = /(?<!\b(?:e\.g|i\.e|etc|vs|cf))[.!?]["'”’)\]]*\s+(?=$|[^a-z])/g;

/** Line and column of each offset of a text. */
function positions(source: string): (offset: number) => At {
  const starts = [0];
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - starts[lo]! + 1 };
  };
}

/**
 * Where a token found at index `i` of a node's text is written in the source: the same occurrence
 * of its text inside the node's span (a node's text can differ from its source by indentation).
 */
function locate(
  node: Nodes,
  value: string,
  i: number,
  raw: string,
  source: string,
  pos: (offset: number) => At,
): At & { offset: number } {
  const from = node.position?.start.offset ?? 0;
  const span = source.slice(from, node.position?.end.offset ?? source.length);
  let nth = 0;
  for (let j = value.indexOf(raw); j !== -1 && j < i; j = value.indexOf(raw, j + 1)) nth++;
  let k = -1;
  for (let n = 0; n <= nth; n++) {
    k = span.indexOf(raw, k + 1);
    if (k === -1) break;
  }
  const offset = from + (k === -1 ? 0 : k);
  return { ...pos(offset), offset };
}

/** What a link is recorded as among a sentence's citations: "link:/exercise/". */
export const LINK = 'link:';

const ENDS_SENTENCE = /[.!?]["'”’)\]]*\s*$/;

/**
 * The sentences of one claim (a paragraph, a list item's own text, a table row when `split` is
 * false), each with its tokens and the ids it cites. A citation written just after a sentence's
 * full stop still belongs to that sentence; our reading's words are skipped, and a reading that
 * ends with a full stop ends its sentence.
 */
function sentencesIn(unit: Nodes, split: boolean, source: string, pos: (offset: number) => At): Sentence[] {
  const out: Sentence[] = [];
  let current: Sentence = { tokens: [], cites: [] };
  let fresh = true; // nothing but white space since the last sentence ended
  const end = () => {
    if (current.tokens.length > 0 || current.cites.length > 0) out.push(current);
    current = { tokens: [], cites: [] };
    fresh = true;
  };
  const walk = (node: Nodes) => {
    switch (node.type) {
      case 'text': {
        const value = node.value;
        const tokens = textTokens(value);
        const cuts = split ? [...value.matchAll(SENTENCE_END)].map((m) => m.index + m[0].length) : [];
        let from = 0;
        for (const cut of [...cuts, value.length]) {
          for (const t of tokens.filter((t) => t.index >= from && t.index < cut))
            current.tokens.push({ ...t, ...locate(node, value, t.index, t.value, source, pos) });
          if (value.slice(from, cut).trim() !== '') fresh = false;
          if (cuts.includes(cut)) end();
          from = cut;
        }
        return;
      }
      case 'inlineCode':
        current.tokens.push({
          kind: 'code span',
          value: node.value,
          index: 0,
          ...locate(node, node.value, 0, node.value, source, pos),
        });
        fresh = false;
        return;
      case 'textDirective':
        if (node.name === CITE) {
          // "…words. :cite[x]": the citation closes the sentence before it.
          if (fresh && out.length > 0) out[out.length - 1]!.cites.push(...citeIds(node));
          else current.cites.push(...citeIds(node));
          return;
        }
        if (node.name === READING) {
          if (split && ENDS_SENTENCE.test(toString(node))) end();
          return;
        }
        break;
      case 'link':
        // A link to a page is a citation of it where the page is a verbatim text (the exercise).
        current.cites.push(`${LINK}${node.url.replace(/#.*$/, '')}`);
        break;
      case 'list':
      case 'code':
      case 'html':
      case 'image':
      case 'imageReference':
        return;
    }
    if ('children' in node) for (const child of node.children as Nodes[]) walk(child);
  };
  walk(unit);
  end();
  return out.filter((s) => s.tokens.length > 0);
}

/**
 * The sentences of every claim: each paragraph, list item and table row outside our reading
 * (inside a :::intro block too: an introduction that carries a token makes a claim).
 */
function sentencesOf(tree: Root, source: string): Sentence[] {
  const pos = positions(source);
  const found: Sentence[] = [];
  eachClaim(tree, new Set([READING]), (node, kind) =>
    found.push(...sentencesIn(node, kind !== 'table row', source, pos)),
  );
  return found;
}

/** The frontmatter blanked, line for line, so positions in the tree are positions in the file. */
const withoutFrontmatter = (text: string): string =>
  text.replace(/^---\r?\n[\s\S]*?\r?\n---(?=\r?\n|$)/, (fm) => fm.replace(/[^\r\n]/g, ''));

/**
 * Parsing is the cost (micromark, over every page), and the loaders and the checks
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
  const body = withoutFrontmatter(text);
  const tree = mdxParser.parse(body);
  const slugger = new GithubSlugger();
  const embeds: PageScan['embeds'] = [];
  const headings: PageScan['headings'] = [];
  visit(tree, (node) => {
    if (node.type === 'heading')
      headings.push({ id: slugger.slug(toString(node, { includeImageAlt: false })), line: at(node).line });
    if ((node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && node.name === 'Excerpt') {
      const id = node.attributes.find((a) => a.type === 'mdxJsxAttribute' && a.name === 'id')?.value;
      if (typeof id === 'string') embeds.push({ id, line: at(node).line });
    }
  });
  return { embeds, headings, cites: citesOf(tree), unmarked: unmarkedOf(tree), sentences: sentencesOf(tree, body) };
});

/** The inline Markdown of a YAML field (a cell's answer, a summary, a note), parsed as the site renders it. */
export const scanInline = memo((md: string): MarkdownScan => {
  const source = escapeBlockSyntax(md);
  const tree = inlineParser.parse(source);
  return { cites: citesOf(tree), unmarked: unmarkedOf(tree), sentences: sentencesOf(tree, source) };
});
