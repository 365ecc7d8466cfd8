// A growth sweep's raw output as it is committed (content/growth/<id>.output.gz), to download and
// count again: the bytes the build read and checked the sweep's numbers against.
import type { APIRoute, GetStaticPaths } from 'astro';
import { getGrowthSweeps } from '../../../lib/figures/growth-view.ts';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const getStaticPaths = (async () =>
  (await getGrowthSweeps()).map(({ entry }) => ({
    params: { file: entry.output },
    props: { path: join(dirname(entry.file), entry.output) },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ path: string }> = ({ props }) =>
  new Response(readFileSync(props.path), { headers: { 'Content-Type': 'application/gzip' } });
