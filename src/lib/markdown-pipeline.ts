// The site's one Markdown pipeline, for MDX pages (astro.config.mjs) and for the inline Markdown
// held in YAML (cell answers, excerpts), which the content loaders render through the same
// processor and plugins.
import { unified, rehypeHeadingIds } from '@astrojs/markdown-remark';
import remarkGfm from 'remark-gfm';
import rehypeAutolinkHeadings from 'rehype-autolink-headings';
import rehypeExternalLinks from 'rehype-external-links';
import type { AstroUserConfig } from 'astro';
import { headingAnchor } from './heading-anchor.ts';
import { rehypeBaseLinks } from './rehype-base-links.ts';

type MarkdownConfig = NonNullable<AstroUserConfig['markdown']>;

export function markdownConfig(base: string) {
  return {
    // Astro 7's default processor (Sätteri) runs no remark/rehype plugins; remark-gfm needs unified.
    processor: unified({
      gfm: false, // remark-gfm below does GFM; the bundled copy would run twice
      remarkPlugins: [remarkGfm],
      // Ids first, so the anchor plugin can link them (Astro otherwise adds ids after user plugins).
      rehypePlugins: [
        rehypeHeadingIds,
        [rehypeAutolinkHeadings, headingAnchor],
        [rehypeExternalLinks, { rel: ['noopener'] }],
        [rehypeBaseLinks, { base }],
      ],
    }),
    syntaxHighlight: 'shiki' as const,
    shikiConfig: {
      // The high-contrast pair passes WCAG AA colour contrast in both schemes (github-light does not).
      themes: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' },
      defaultColor: false as const,
    },
  } satisfies MarkdownConfig;
}
