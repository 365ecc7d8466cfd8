/** Primary navigation: site-relative paths (no leading slash) and their labels. */
export const primaryNav = [
  { href: '', label: 'Comparison' },
  { href: 'exercise/', label: 'Exercise' },
  { href: 'readings/', label: 'Readings' },
  { href: 'drain/', label: 'Drain answer' },
  { href: 'search/', label: 'Search' },
] as const;

/** True when `current` (site-relative, e.g. "keps/kep-265/") is in the section `href` heads. */
export function isCurrent(href: string, current: string): boolean {
  if (href === '') return current === '' || current.startsWith('rows/');
  if (href === 'readings/') return current === href || current.startsWith('keps/') || current.startsWith('notes/');
  return current === href;
}
