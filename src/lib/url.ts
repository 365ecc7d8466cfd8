import { joinBase } from './base.ts';

/** A site-relative path with the deploy base in front: url('rows/drain/') -> '/sub/rows/drain/'. */
export function url(path = ''): string {
  return joinBase(import.meta.env.BASE_URL, path);
}

/**
 * A site-relative path as a link that works where it lands: absolute at the site's address when the
 * build knows it (SITE_URL: Astro's `site`), else from the host's root ('/sub/rows/drain/'). A build
 * without SITE_URL publishes no address of its own (no development origin).
 */
export function address(path: string, site: URL | undefined): string {
  return site ? new URL(url(path), site).href : url(path);
}
