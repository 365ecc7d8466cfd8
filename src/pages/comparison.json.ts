import type { APIRoute } from 'astro';
import { getTable } from '../lib/content/index.ts';
import { toJSON } from '../lib/view/export.ts';
import { url } from '../lib/url.ts';

export const GET: APIRoute = async ({ site }) =>
  new Response(JSON.stringify(toJSON(await getTable(), new URL(url(), site).href), null, 2) + '\n', {
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
