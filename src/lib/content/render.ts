// Inline Markdown from YAML, rendered by the site's configured Markdown processor and plugins.
import type { AstroConfig, AstroUserConfig } from 'astro';
import type { Render } from './inline.ts';

/** The markdown config, as astro.config.mjs writes it or as Astro resolves it; it needs a processor. */
type Markdown = NonNullable<AstroUserConfig['markdown']> & Pick<AstroConfig['markdown'], 'processor'>;

/**
 * The processor of astro.config.mjs, with typographic quotes off: these fields hold verbatim
 * quotes, where "--flag" must not become an em dash or 'x' curly.
 */
export function siteRender(markdown: Markdown, image?: AstroConfig['image']): Render {
  const renderer = markdown.processor.createRenderer({
    image, syntaxHighlight: markdown.syntaxHighlight, shikiConfig: markdown.shikiConfig, gfm: markdown.gfm, smartypants: false,
  } as Parameters<Markdown['processor']['createRenderer']>[0]);
  return async (md) => (await (await renderer).render(md, { frontmatter: {} })).code;
}
