// What the cross-file rules need to know of an MDX page, read from its source text with line
// numbers: which excerpts it embeds (<Excerpt id="…" />) and the ids its headings will get.
import GithubSlugger from 'github-slugger';

export interface PageScan {
  embeds: Array<{ id: string; line: number }>;
  headings: Array<{ id: string; line: number }>;
}

/** Heading text as rehype-heading-ids sees it: inline Markdown and JSX reduced to their text. */
const headingText = (md: string): string =>
  md
    .replace(/<[^>]*\/>/g, '') // self-closing components
    .replace(/<\/?[A-Za-z][^>]*>/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/[`*_~]/g, '')
    .trim();

export function scanPage(text: string): PageScan {
  const lines = text.split(/\r?\n/);
  // Skip the frontmatter: its "# comments" are not headings.
  let start = 0;
  if (lines[0] === '---') {
    const end = lines.indexOf('---', 1);
    start = end === -1 ? lines.length : end + 1;
  }
  const slugger = new GithubSlugger();
  const embeds: PageScan['embeds'] = [];
  const headings: PageScan['headings'] = [];
  let fence = false;
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) headings.push({ id: slugger.slug(headingText(h[2]!)), line: i + 1 });
    for (const m of line.matchAll(/<Excerpt\s+[^>]*?\bid=["']([^"']+)["']/g)) embeds.push({ id: m[1]!, line: i + 1 });
  }
  return { embeds, headings };
}
