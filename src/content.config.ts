import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { pageSchema } from './lib/content/schemas.ts';
import { contentDir } from './lib/content/dir.ts';

// The prose pages. The table's data (YAML) is read and cross-checked by src/lib/content/,
// which reports problems by file, row, column and field.
const pages = defineCollection({
  loader: glob({ pattern: '**/*.mdx', base: `${contentDir}/pages` }),
  schema: pageSchema,
});

export const collections = { pages };
