// The home page's link-preview image (routes.homePreview), drawn from the model at build time.
import type { APIRoute } from 'astro';
import { getTable } from '../../lib/content/index.ts';
import { homeCard, renderPng, PREVIEW } from '../../lib/preview-image.ts';

export const GET: APIRoute = async () =>
  new Response(new Uint8Array(await renderPng(homeCard(await getTable()))), {
    headers: { 'Content-Type': PREVIEW.type },
  });
