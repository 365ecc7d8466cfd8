// Inline Markdown from YAML, rendered by the site's configured Markdown processor and plugins.
import type { AstroConfig, AstroUserConfig } from 'astro';
import type { Render } from './inline.ts';

/** The markdown config, as astro.config.mjs writes it or as Astro resolves it; it needs a processor. */
type Markdown = NonNullable<AstroUserConfig['markdown']> & Pick<AstroConfig['markdown'], 'processor'>;

/**
 * One line of words in which neither Markdown nor HTML finds any syntax: letters, digits, spaces and
 * sentence punctuation, no link a GFM autolink could see, no colon before a letter (a directive,
 * :cite[…]). The processor renders such a line as one
 * paragraph of the same text (smartypants is off), so it is not run for it: about half of the fields
 * are such lines, and rendering them was a large part of the content sync (docs/performance.md). A unit test
 * renders every such field of content/ both ways (tests/unit/markdown.test.ts).
 */
export const isPlainLine = (md: string): boolean =>
  /^[\p{L}\p{N} ,.;:'"?()%=+/-]*$/u.test(md) && !/(?:https?|ftp|mailto):|www\.|:\p{L}/iu.test(md);

/**
 * The processor of astro.config.mjs, with typographic quotes off: these fields hold verbatim
 * quotes, where "--flag" must not become an em dash or 'x' curly.
 */
export function siteRender(markdown: Markdown, image?: AstroConfig['image']): Render {
  const renderer = markdown.processor.createRenderer({
    image,
    syntaxHighlight: markdown.syntaxHighlight,
    shikiConfig: markdown.shikiConfig,
    gfm: markdown.gfm,
    smartypants: false,
  } as Parameters<Markdown['processor']['createRenderer']>[0]);
  return async (md) =>
    isPlainLine(md) ? `<p>${md}</p>` : (await (await renderer).render(md, { frontmatter: {} })).code;
}
