// Which bundler warnings the build drops on purpose: exactly one, known to be harmless.
import type { Rolldown } from 'vite';

/**
 * Astro 7 (vite-plugin-content-assets) starts the module it generates for every MDX content entry,
 * `<entry>.mdx?astroPropagatedAssets`, with the directive "use astro:head-inject". Rolldown warns that
 * it may not keep a module-level directive when bundling (MODULE_LEVEL_DIRECTIVE), once per MDX
 * page. Harmless: since withastro/astro#17095 Astro finds these modules by the `?astroPropagatedAssets`
 * query, not by the directive, so nothing reads it after bundling. Upstream: withastro/astro#18087
 * (open). Drop this filter once Astro stops emitting the directive.
 */
export function isHeadInjectDirectiveWarning(log: Rolldown.RolldownLog): boolean {
  return (
    log.code === 'MODULE_LEVEL_DIRECTIVE' &&
    log.message.includes('"use astro:head-inject"') &&
    log.id?.includes('?astroPropagatedAssets') === true
  );
}
