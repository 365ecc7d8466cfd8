// The Content-Security-Policy of a built page, from the page itself: every inline <script> and
// <style> is allowed by its sha256 hash and nothing else inline is, so no directive needs
// 'unsafe-inline'. Pure functions over HTML text, used by src/integrations/csp.ts after the build
// and by the unit tests.
import { createHash } from 'node:crypto';

/** The policy every page starts from; the build adds each page's hashes to script-src and style-src. */
export const BASE_POLICY: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  // Pagefind compiles its WebAssembly search index.
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'style-src': ["'self'"],
  // Pagefind's stylesheet draws its icons as data: SVGs.
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'worker-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
};

/**
 * Directives a <meta> policy cannot carry (browsers ignore them there, with a console error), so
 * they travel only in the HTTP header (_headers).
 */
export const HEADER_ONLY_POLICY: Readonly<Record<string, readonly string[]>> = {
  'frame-ancestors': ["'none'"],
};

export interface InlineHashes {
  scripts: string[];
  styles: string[];
}

/** 'sha256-…' of a text, as CSP hashes it (UTF-8 bytes of the element's text). */
export const cspHash = (text: string): string =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

// Built pages are Astro's own serialisation: attributes are quoted, and a script's or style's text
// cannot contain its end tag, so these patterns find exactly what a browser parses as such.
const INLINE_SCRIPT = /<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi;
const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style>/gi;
/** Inline code a hash cannot allow: style="" and on*="" attributes. */
const INLINE_ATTRIBUTE = /<[a-z][^>]*?\s(style|on[a-z]+)=/gi;

/** Hashes of the page's inline scripts and styles, sorted, without duplicates. */
export function inlineHashes(html: string): InlineHashes {
  const hashes = (re: RegExp) => [...new Set([...html.matchAll(re)].map((m) => cspHash(m[1]!)))].sort();
  return { scripts: hashes(INLINE_SCRIPT), styles: hashes(INLINE_STYLE) };
}

/** Attributes that would need 'unsafe-inline' (or 'unsafe-hashes'): "style", "onclick", ... */
export const inlineAttributes = (html: string): string[] =>
  [...html.matchAll(INLINE_ATTRIBUTE)].map((m) => m[1]!.toLowerCase());

/** Serialises directives, with the hashes added to script-src and style-src. */
export function formatPolicy(hashes: InlineHashes, extra: Readonly<Record<string, readonly string[]>> = {}): string {
  const directives: Record<string, readonly string[]> = {
    ...BASE_POLICY,
    'script-src': [...BASE_POLICY['script-src']!, ...hashes.scripts],
    'style-src': [...BASE_POLICY['style-src']!, ...hashes.styles],
    ...extra,
  };
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

/** Every hash of several pages, for the one policy a header sends with all of them. */
export const unionHashes = (pages: InlineHashes[]): InlineHashes => ({
  scripts: [...new Set(pages.flatMap((p) => p.scripts))].sort(),
  styles: [...new Set(pages.flatMap((p) => p.styles))].sort(),
});

const CHARSET = /<meta charset="utf-8"\s*\/?>/i;

/**
 * The page with its policy in a <meta http-equiv> right after <meta charset>, before anything
 * it governs (a meta policy applies only to what the parser meets after it).
 */
export function withPolicyMeta(html: string, policy: string): string {
  if (!CHARSET.test(html)) throw new Error('no <meta charset="utf-8"> to put the policy after');
  if (/http-equiv="content-security-policy"/i.test(html)) throw new Error('the page already has a policy <meta>');
  const attr = policy.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  return html.replace(CHARSET, (m) => `${m}<meta http-equiv="content-security-policy" content="${attr}">`);
}

/**
 * _headers with `Content-Security-Policy: <policy>` as the first header of its `/*` block (any
 * policy line already there is replaced).
 */
export function withPolicyHeader(headers: string, policy: string): string {
  const lines = headers.split('\n').filter((l) => !/^\s+Content-Security-Policy:/i.test(l));
  const at = lines.findIndex((l) => l.trim() === '/*');
  if (at === -1) throw new Error('_headers has no /* block for the Content-Security-Policy');
  lines.splice(at + 1, 0, `  Content-Security-Policy: ${policy}`);
  return lines.join('\n');
}

/**
 * The rules of Shiki's style-to-class transformer (class name -> declarations) that the page
 * uses, as one stylesheet; '' when it uses none. Throws on a class with no rule.
 */
export function usedShikiCss(
  html: string,
  registry: ReadonlyMap<string, string | Record<string, string>>,
  prefix: string,
): string {
  const classes = [...html.matchAll(/\sclass="([^"]*)"/g)].flatMap((m) => m[1]!.split(/\s+/));
  const used = [...new Set(classes.filter((c) => c.startsWith(prefix)))].sort();
  return used
    .map((name) => {
      const style = registry.get(name);
      if (style === undefined)
        throw new Error(`the code class ${name} has no rule (was the page highlighted in another process?)`);
      const body =
        typeof style === 'string'
          ? style
          : Object.entries(style)
              .map(([k, v]) => `${k}:${v}`)
              .join(';');
      return `.${name}{${body}}`;
    })
    .join('');
}
