import type { APIRoute } from 'astro';
import { getTable } from '../lib/content/index.ts';
import { toJSON } from '../lib/view/export.ts';
import { address } from '../lib/url.ts';

export const GET: APIRoute = async ({ site }) =>
  new Response(JSON.stringify(toJSON(await getTable(), address('', site)), null, 2) + '\n', {
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
