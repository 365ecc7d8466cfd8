// Every content collection, from the one registry (collections.ts). The loaders (loaders.ts) validate
// each entry with its schema and report problems at file:line:column; `problems` holds what the
// cross-file rules found. The schemas given here only carry the stored types for getCollection(): the
// data was validated by the loader that stored it. src/content.config.ts loads this module with Node
// itself, not through Vite (see there), so it imports `defineCollection` from Astro's package, not
// from the `astro:content` virtual module.
import { defineCollection } from 'astro/content/config';
import { z } from 'astro/zod';
import { contentDir } from './dir.ts';
import { pageSchema } from './schemas.ts';
import { COLLECTIONS, type ContentData } from './collections.ts';
import type { Problem } from '../problems.ts';
import { yamlCollection, pagesCollection, problemsCollection } from './loaders.ts';

type Stored<K extends keyof ContentData> = ContentData[K] extends Array<infer T> ? T : ContentData[K];
const yaml = <K extends Exclude<keyof ContentData, 'pages'>>(name: K) =>
  defineCollection({ loader: yamlCollection(name, contentDir), schema: z.custom<Stored<K>>() });

export const collections = {
  site: yaml('site'),
  sources: yaml('sources'),
  backends: yaml('backends'),
  axes: yaml('axes'),
  excerpts: yaml('excerpts'),
  evidence: yaml('evidence'),
  figures: yaml('figures'),
  pages: defineCollection({ loader: pagesCollection(contentDir), schema: pageSchema }),
  problems: defineCollection({ loader: problemsCollection(contentDir), schema: z.custom<{ list: Problem[] }>() }),
} satisfies Record<keyof typeof COLLECTIONS | 'problems', unknown>;
