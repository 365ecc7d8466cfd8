// The site paths left at axes' old ids (rows/<old id>/ pages that only redirect), for the sitemap,
// which must not list them (astro.config.mjs).
import type { AxisEntry } from './entries.ts';
import { routes } from '../routes.ts';

export function movedAxisPaths(axes: ReadonlyArray<Pick<AxisEntry, 'formerly'>>): string[] {
  return axes.flatMap((axis) => (axis.formerly ?? []).map((old) => routes.axisPage(old)));
}
