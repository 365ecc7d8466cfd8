import type { APIRoute } from 'astro';
import { getTable } from '../lib/content/index.ts';
import { toCSV } from '../lib/view/export.ts';
import { address } from '../lib/url.ts';

export const GET: APIRoute = async ({ site }) =>
  new Response(toCSV(await getTable(), address('', site)), {
    headers: { 'Content-Type': 'text/csv; charset=utf-8' },
  });
