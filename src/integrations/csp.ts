// A strict Content-Security-Policy for a site whose pages carry their own styles and scripts
// inline (one request renders a page). After `astro build` it reads every page it wrote and:
//   1. gives Shiki's code colours, turned from style="" attributes into classes during the build
//      (style-to-class transformer), their rules as one more inline <style>, on pages with code;
//   2. fails the build on any style="" or on*="" attribute, which only 'unsafe-inline' could allow;
//   3. puts the page's own policy, with the sha256 of each of its inline scripts and styles, in a
//      <meta http-equiv> at the top of <head>: it holds on any host, with or without headers;
//   4. writes the same policy, with every page's hashes and the directives a <meta> cannot carry
//      (frame-ancestors), into <outDir>/_headers for hosts that read it.
// Astro's own CSP (security.csp) is not used: it puts its <meta> at the end of <head>, after the
// theme script it should govern, warns on Shiki (which fails the clean build log), and writes no
// _headers for static output.
// In `astro dev` nothing changes: Shiki keeps its style attributes and no policy is set.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { routes } from '../lib/routes.ts';
import { transformerStyleToClass } from '@shikijs/transformers';
import type { ShikiTransformer } from 'shiki';
import type { Element, Root, RootContent } from 'hast';
import {
  formatPolicy,
  inlineAttributes,
  inlineHashes,
  unionHashes,
  usedShikiCss,
  withPolicyHeader,
  withPolicyMeta,
  HEADER_ONLY_POLICY,
  type InlineHashes,
} from '../lib/csp.ts';

const SHIKI_CLASS_PREFIX = 'shiki-c-';

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * Shiki's style-to-class transformer converts the styles of tokens and <pre>; Astro adds a few more
 * after it has run (the +/- marker of a diff line). Last in the list, this gives them classes too.
 */
function remainingStylesToClass(styleToClass: ShikiTransformer): ShikiTransformer {
  const visit = (node: Root | RootContent, convert: (el: Element) => void) => {
    if (node.type === 'element' && node.properties.style) convert(node);
    if ('children' in node) for (const child of node.children) visit(child, convert);
  };
  return {
    name: 'csp:remaining-styles-to-class',
    root(root) {
      visit(root, (el) => styleToClass.span!.call(this, el, 0, 0, el, { content: '', offset: 0 }));
    },
  };
}

export default function cspIntegration(): AstroIntegration {
  const styleToClass = transformerStyleToClass({ classPrefix: SHIKI_CLASS_PREFIX });
  return {
    name: 'csp',
    hooks: {
      'astro:config:setup': ({ command, updateConfig }) => {
        // Only builds: in dev the classes' rules would never reach the page.
        if (command === 'build')
          updateConfig({
            markdown: { shikiConfig: { transformers: [styleToClass, remainingStylesToClass(styleToClass)] } },
          });
      },
      // Before Pagefind's hook (integrations run in order), so the index sees the final pages.
      'astro:build:done': async ({ dir, logger }) => {
        const out = fileURLToPath(dir);
        const registry = styleToClass.getClassRegistry() as Map<string, string | Record<string, string>>;
        const pages: InlineHashes[] = [];
        const problems: string[] = [];
        for (const file of await htmlFiles(out)) {
          const name = relative(out, file);
          if (name.startsWith(routes.searchBundle)) continue;
          let html = await readFile(file, 'utf8');
          const code = usedShikiCss(html, registry, SHIKI_CLASS_PREFIX);
          if (code) html = html.replace('</head>', `<style>${code}</style></head>`);
          const attributes = [...new Set(inlineAttributes(html))];
          if (attributes.length > 0)
            problems.push(`${name}: inline ${attributes.join(', ')} attribute(s) would need 'unsafe-inline'`);
          const hashes = inlineHashes(html);
          pages.push(hashes);
          await writeFile(file, withPolicyMeta(html, formatPolicy(hashes)));
        }
        if (problems.length > 0) throw new Error(`csp: the policy would break these pages:\n${problems.join('\n')}`);
        const headersFile = join(out, '_headers');
        const all = unionHashes(pages);
        await writeFile(
          headersFile,
          withPolicyHeader(await readFile(headersFile, 'utf8'), formatPolicy(all, HEADER_ONLY_POLICY)),
        );
        logger.info(
          `policy in ${pages.length} pages and _headers: ${all.scripts.length} script and ${all.styles.length} style hashes`,
        );
      },
    },
  };
}
