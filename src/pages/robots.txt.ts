// robots.txt, pointing crawlers at the sitemap index with the configured site and base.
// Crawlers read robots.txt only at the root of a host, so under a sub-path it is advisory.
import type { APIRoute } from 'astro';
import { url } from '../lib/url.ts';
import { routes } from '../lib/routes.ts';

export const GET: APIRoute = ({ site }) => {
  if (!site) throw new Error('robots.txt needs `site` in astro.config.mjs (SITE_URL)');
  const body = ['User-agent: *', `Allow: ${url()}`, `Sitemap: ${new URL(url(routes.sitemap), site).href}`, ''];
  return new Response(body.join('\n'), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
