// The site paths left at rows' old ids (rows/<old id>/ pages that only redirect), for the sitemap,
// which must not list them. Read when the sitemap is written, at the end of a build whose content
// layer has validated axes.yaml already: so this is a plain read of the `formerly` lists, with no
// schemas, renderer or model to load (importing those from astro.config.mjs cost every build and
// every dev start about half a second before Astro began its own work).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { routes } from '../routes.ts';

/** The axes file (read.ts PATHS.axes; a unit test holds the two to the same answer). */
const AXES = 'comparison/axes.yaml';

export function movedRowPaths(dir: string): string[] {
  const axes: unknown = parse(readFileSync(join(dir, AXES), 'utf8'));
  if (!Array.isArray(axes)) return [];
  return axes.flatMap((axis: { formerly?: unknown }) =>
    Array.isArray(axis?.formerly)
      ? axis.formerly.filter((old) => typeof old === 'string').map((old: string) => routes.axisPage(old))
      : [],
  );
}
