// The site's one Markdown pipeline, for MDX pages (astro.config.mjs) and for the inline Markdown
// held in YAML (cell answers, excerpts), which the content loaders render through the same
// processor and plugins. remark-directive parses the claims syntax (:cite[…], :reading[…],
// :::reading, :::intro; docs/claims.md), which remark-claims renders.
import { unified, rehypeHeadingIds } from '@astrojs/markdown-remark';
import remarkGfm from 'remark-gfm';
import remarkDirective from 'remark-directive';
import rehypeAutolinkHeadings from 'rehype-autolink-headings';
import rehypeExternalLinks from 'rehype-external-links';
import type { AstroUserConfig } from 'astro';
import { headingLink } from './heading-link.ts';
import { rehypeBaseLinks } from './rehype-base-links.ts';
import { remarkClaims } from './remark-claims.ts';

type MarkdownConfig = NonNullable<AstroUserConfig['markdown']>;

/** The pipeline for a deploy base; it holds no content (citations resolve where a page renders). */
export function markdownConfig(base: string) {
  return {
    // Astro 7's default processor (Sätteri) runs no remark/rehype plugins; remark-gfm needs unified.
    processor: unified({
      gfm: false, // remark-gfm below does GFM; the bundled copy would run twice
      remarkPlugins: [remarkGfm, remarkDirective, remarkClaims],
      // Ids first, so the heading-link plugin can link them (Astro otherwise adds ids after user plugins).
      rehypePlugins: [
        rehypeHeadingIds,
        [rehypeAutolinkHeadings, headingLink],
        [rehypeExternalLinks, { rel: ['noopener'] }],
        [rehypeBaseLinks, { base }],
      ],
    }),
    // No typographic quotes or dashes on the pages either: a page quotes the exercise and the KEPs
    // verbatim (the exercise page is the seed word for word), and "x" or kube-proxy's must stay the
    // characters the source has, as they do in the YAML fields (content/render.ts).
    smartypants: false,
    syntaxHighlight: 'shiki' as const,
    shikiConfig: {
      // The high-contrast pair passes WCAG AA colour contrast in both schemes (github-light does not).
      themes: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' },
      defaultColor: false as const,
    },
  } satisfies MarkdownConfig;
}
