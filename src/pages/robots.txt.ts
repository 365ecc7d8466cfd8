// robots.txt, pointing crawlers at the sitemap index with the configured site and base (a build
// without SITE_URL has no sitemap, and names none). Crawlers read robots.txt only at the root of a
// host, so under a sub-path it is advisory.
import type { APIRoute } from 'astro';
import { url } from '../lib/url.ts';
import { routes } from '../lib/routes.ts';

export const GET: APIRoute = ({ site }) => {
  const body = [
    'User-agent: *',
    `Allow: ${url()}`,
    ...(site ? [`Sitemap: ${new URL(url(routes.sitemap), site).href}`] : []),
    '',
  ];
  return new Response(body.join('\n'), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
