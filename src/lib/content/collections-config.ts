// The content collections (src/content.config.ts loads this module): each YAML collection of the
// registry (collections.ts) through one small loader that keeps positions (loaders.ts), the MDX pages
// through glob(), `problems` the rules over the folder. The schemas only type getCollection(): the
// loaders and rules validated the data with located problems. Node loads this module, not Vite, so
// `defineCollection` comes from `astro/content/config` (what `astro:content` re-exports).
import { defineCollection } from 'astro/content/config';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { join } from 'node:path';
import { contentDir } from './dir.ts';
import { COLLECTIONS, type ContentData } from './collections.ts';
import { yamlLoader, problemsLoader } from './loaders.ts';
import type { PageData } from './schemas.ts';

type Stored<K extends keyof ContentData> = ContentData[K] extends Array<infer T> ? T : ContentData[K];
const yaml = <K extends Exclude<keyof ContentData, 'pages'>>(name: K) =>
  defineCollection({ loader: yamlLoader(name, contentDir), schema: z.custom<Stored<K>>() });

export const collections = {
  site: yaml('site'),
  sources: yaml('sources'),
  backends: yaml('backends'),
  axes: yaml('axes'),
  excerpts: yaml('excerpts'),
  evidence: yaml('evidence'),
  growth: yaml('growth'),
  figures: yaml('figures'),
  pages: defineCollection({
    loader: glob({ pattern: '**/*.mdx', base: join(contentDir, COLLECTIONS.pages.path) }),
    schema: z.custom<PageData>(),
  }),
  // In dev, its one entry holds the folder's stamp: a new one reloads the open pages (loaders.ts).
  problems: defineCollection({ loader: problemsLoader(contentDir), schema: z.custom<{ stamp: string }>() }),
} satisfies Record<keyof typeof COLLECTIONS | 'problems', unknown>;
