// In `astro dev`, an MDX page is compiled once and kept by Vite until its own file changes. Its
// citations are compiled into it: a `:cite[...]` shows the cited entry's label and lines (an
// excerpt's `lines`, a source's `label`). When those entries change, the compiled pages are
// dropped, so the page reloaded after the edit is compiled again and cites what the content says.
// The YAML collections follow the same edits through their loaders (src/lib/content/loaders.ts).
import { resolve, sep } from 'node:path';
import type { AstroIntegration } from 'astro';
import { isRunnableDevEnvironment, type ViteDevServer } from 'vite';

export interface Options {
  /** The folder of the MDX pages. */
  pages: string;
  /** Subscribes to changes of what citations resolve to; returns the unsubscribe. */
  onCitationsChange: (listener: () => void) => () => void;
}

/** Drops every compiled module of an MDX file under `pages`, in every environment. */
function dropCompiledPages(server: ViteDevServer, pages: string): void {
  const timestamp = Date.now();
  const isPage = (file: string | null | undefined) => !!file && file.endsWith('.mdx') && file.startsWith(pages + sep);
  for (const environment of Object.values(server.environments)) {
    for (const module of environment.moduleGraph.idToModuleMap.values())
      if (isPage(module.file)) environment.moduleGraph.invalidateModule(module, undefined, timestamp, true);
    if (isRunnableDevEnvironment(environment))
      for (const module of environment.runner.evaluatedModules.idToModuleMap.values())
        if (isPage(module.file)) environment.runner.evaluatedModules.invalidateModule(module);
  }
}

export default function pagesFollowCitations(options: Options): AstroIntegration {
  const pages = resolve(options.pages);
  return {
    name: 'pages-follow-citations',
    hooks: {
      'astro:server:setup': ({ server }) => {
        const unsubscribe = options.onCitationsChange(() => dropCompiledPages(server, pages));
        server.httpServer?.once('close', unsubscribe);
      },
    },
  };
}
