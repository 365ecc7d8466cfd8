// Link gate for the built site: every internal link and every #fragment in the HTML under a
// build folder must resolve to a file and, for fragments, to an element id on that page. The
// folder is served the way a static host serves it, mounted at SITE_BASE, so a link that lacks
// the base fails too. Links to SITE_URL (canonical, og:url) are checked as internal links.
// External links are never fetched (no network): they must only be well-formed http(s) or mailto.
// The crawling and fragment checking are linkinator's; this file picks what to check and
// prints each failure as: the page, the href, what is missing.
//
//   node tools/check-links.ts [build dir, default dist]    (SITE_BASE and SITE_URL as for the build)
//
// Exit 0 when every link resolves, 1 when any does not, 2 on a usage error.
import { existsSync, mkdtempSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { LinkChecker, LinkState, type LinkResult } from 'linkinator';
import { normaliseBase } from '../src/lib/base.ts';
import { freePort } from './lib/ports.ts';
import { sitePathOfFile } from './lib/site-pages.ts';

export interface LinkProblem {
  /** The page the link is on, as a site path ("/rows/drain/"). */
  page: string;
  /** Where the link points, as a site path with its fragment, or the external URL as written. */
  href: string;
  missing: string;
}

export interface LinkReport {
  pages: number;
  /** Distinct link targets: internal ones resolved, external ones checked for form. */
  links: number;
  problems: LinkProblem[];
}

export interface CheckOptions {
  /** The build folder (dist/). */
  dir: string;
  /** SITE_BASE the folder was built with ('/' or '/sub/'). */
  base?: string;
  /** SITE_URL the folder was built with; links to it are internal. */
  site?: string;
}

const HOST = '127.0.0.1'; // linkinator's own static server listens here
const EXTERNAL_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

const htmlFiles = (dir: string): string[] =>
  (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((f) => f.endsWith('.html'))
    .map((f) => f.split(sep).join('/'))
    .sort();

/** linkinator's result URLs drop the local server's origin: "sub/rows/" or "http://…" (external). */
const sitePath = (url: string | undefined): string =>
  url === undefined ? '(unknown)' : /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `/${url.replace(/^\.?\/+/, '')}`;

/** What a broken result is missing, in words an author can act on. */
function describeMissing(r: LinkResult, base: string): string {
  const href = sitePath(r.url);
  const errors = (r.failureDetails ?? []).map((d) => (d instanceof Error ? d.message : '')).filter(Boolean);
  // A broken result whose page answered 2xx is a missing #fragment (linkinator records those with
  // the page's status and the fragment in the URL): read that structure, not the error text.
  const hash = href.indexOf('#');
  if (hash !== -1 && r.status !== undefined && r.status >= 200 && r.status < 300) {
    return `no element with id="${decodeURIComponent(href.slice(hash + 1))}" on ${href.slice(0, hash)}`;
  }
  if (r.status === 0 && !href.startsWith('/'))
    return `not a well-formed URL${errors.length ? ` (${errors.join('; ')})` : ''}`;
  if (r.status === 404) {
    const page = href.replace(/#.*$/, '');
    const hint = page.startsWith(base) ? '' : ` (the link does not start with the base path ${base})`;
    return `no page or file at ${page}${hint}`;
  }
  return `HTTP ${r.status ?? 'error'}${errors.length ? ` (${errors.join('; ')})` : ''}`;
}

/** A skipped (never fetched) link must still be well-formed: a known scheme and, for http(s), a host. */
function externalProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a well-formed URL';
  }
  if (!EXTERNAL_SCHEMES.has(parsed.protocol))
    return `unsupported scheme "${parsed.protocol}" (use https:, http: or mailto:)`;
  if (parsed.protocol !== 'mailto:' && !parsed.hostname.includes('.') && parsed.hostname !== 'localhost')
    return `host "${parsed.hostname}" is not a domain name`;
  return undefined;
}

export async function checkLinks(options: CheckOptions): Promise<LinkReport> {
  const dir = resolve(options.dir);
  const base = normaliseBase(options.base);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new Error(`build folder ${options.dir} not found (build first)`);
  const files = htmlFiles(dir);
  if (files.length === 0) throw new Error(`no HTML pages in ${options.dir} (build first)`);

  // Serve the folder at the base: a temporary root whose <base> path links to the folder.
  let root = dir;
  let cleanup = () => {};
  if (base !== '/') {
    root = mkdtempSync(join(tmpdir(), 'check-links-'));
    const mount = join(root, ...base.split('/').filter(Boolean));
    mkdirSync(dirname(mount), { recursive: true });
    symlinkSync(dir, mount, 'dir');
    cleanup = () => rmSync(root, { recursive: true, force: true });
  }

  const port = await freePort(HOST);
  const local = `http://${HOST}:${port}`;
  const siteOrigin = options.site ? new URL(options.site).origin : undefined;
  const isInternal = (url: string): boolean => {
    try {
      const origin = new URL(url).origin;
      return origin === local || origin === siteOrigin;
    } catch {
      return false;
    }
  };

  try {
    const checker = new LinkChecker();
    const result = await checker.check({
      path: files.map((f) => `${base.slice(1)}${sitePathOfFile(f)}`),
      serverRoot: root,
      port,
      recurse: true,
      checkFragments: true,
      checkCss: true,
      // Links to the deployed origin (canonical, og:url, sitemap) are checked against this build.
      urlRewriteExpressions:
        siteOrigin && siteOrigin !== local
          ? [
              {
                pattern: new RegExp(`^${siteOrigin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=/|$)`),
                replacement: local,
              },
            ]
          : [],
      // Everything else is external: never fetched, only checked for form below.
      linksToSkip: async (url: string) => !isInternal(url),
    });

    const problems: LinkProblem[] = [];
    const seen = new Set<string>();
    const add = (p: LinkProblem) => {
      const key = `${p.page}\n${p.href}\n${p.missing}`;
      if (!seen.has(key)) problems.push(p);
      seen.add(key);
    };
    // linkinator names a start page by the path it was given ("exercise", "."); show the page's URL path.
    const pageOf = (parent: string | undefined): string => {
      const path = sitePath(parent)
        .replace(/(^|\/)\.(?=\/|$)/g, '')
        .replace(/\/index\.html$/, '/')
        .replace(/\/+/g, '/');
      const onDisk = join(root, ...path.split('/').filter(Boolean));
      return !path.endsWith('/') && existsSync(onDisk) && statSync(onDisk).isDirectory() ? `${path}/` : path || '/';
    };
    for (const r of result.links) {
      const page = pageOf(r.parent);
      if (r.state === LinkState.BROKEN) add({ page, href: sitePath(r.url), missing: describeMissing(r, base) });
      // linkinator reads any <meta content> that parses as a URL as a link, so a title such as
      // "kep-3866: An nftables-based …" comes back as a skipped "kep-3866:" URL. Text with spaces
      // is not a URL anyone wrote as a link (an href with a space fails as BROKEN above).
      else if (r.state === LinkState.SKIPPED && r.url && !/\s/.test(r.url)) {
        const missing = externalProblem(r.url);
        if (missing) add({ page, href: r.url, missing });
      }
    }
    problems.sort((a, b) => a.page.localeCompare(b.page) || a.href.localeCompare(b.href));
    // linkinator reports a working link once (from whichever page reached it first) and a broken
    // one from every page: count distinct targets, which does not depend on crawl order.
    const links = new Set(result.links.map((r) => r.url)).size;
    return { pages: files.length, links, problems };
  } finally {
    cleanup();
  }
}

export function formatProblem(p: LinkProblem): string {
  return `${p.page}: href "${p.href}": ${p.missing}`;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length > 1 || args.some((a) => a.startsWith('-'))) {
    console.error(
      'usage: node tools/check-links.ts [build dir, default dist]   (SITE_BASE, SITE_URL from the environment)',
    );
    return 2;
  }
  const dir = args[0] ?? 'dist';
  const base = normaliseBase(process.env.SITE_BASE);
  let report: LinkReport;
  try {
    report = await checkLinks({ dir, base, site: process.env.SITE_URL || undefined });
  } catch (error) {
    console.error(`check-links: ${(error as Error).message}`);
    return 2;
  }
  const where = relative(process.cwd(), resolve(dir)) || dir;
  for (const p of report.problems) console.error(`check-links: ${formatProblem(p)}`);
  const summary = `check-links: ${where} at ${base}: ${report.pages} pages, ${report.links} link targets, ${report.problems.length} broken links`;
  if (report.problems.length > 0) {
    console.error(summary);
    console.error('check-links: fix each href above (or add the missing page / element id), then build again');
    return 1;
  }
  console.log(summary);
  return 0;
}

if (import.meta.main) process.exitCode = await main();
