// Inline Markdown (cell answers, summaries, excerpt notes) rendered to HTML: by the site's own
// pipeline in the content layer (render.ts), or escaped as text where nothing renders a page.
import { escapeBlockSyntax } from '../claims/syntax.ts';

/** Renders inline Markdown to HTML. The site passes Astro's own pipeline; scripts, plainRender. */
export type Render = (markdown: string) => Promise<string>;

/** For plain-Node callers that never render a page: the text, HTML-escaped. */
export const plainRender: Render = async (md) => md.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Inline Markdown, with block syntax escaped; the one paragraph the renderer wraps it in is removed. */
export async function renderInline(render: Render, md: string): Promise<string> {
  const html = (await render(escapeBlockSyntax(md))).trim();
  const m = /^<p>([\s\S]*)<\/p>$/.exec(html);
  return m && !m[1]!.includes('<p>') ? m[1]! : html;
}
