import type { APIRoute } from 'astro';
import { getTable } from '../lib/content/index.ts';
import { toCSV } from '../lib/view/export.ts';
import { url } from '../lib/url.ts';

export const GET: APIRoute = async ({ site }) =>
  new Response(toCSV(await getTable(), new URL(url(), site).href), {
    headers: { 'Content-Type': 'text/csv; charset=utf-8' },
  });
