import { defineCollection } from 'astro:content';
import { glob, type Loader } from 'astro/loaders';
import { relative } from 'node:path';
import { pageSchema } from './lib/content/schemas.ts';
import { contentDir } from './lib/content/dir.ts';
import { validateOne } from './lib/content/load.ts';
import { Problems } from './lib/content/errors.ts';

/**
 * The glob loader, except that a page whose frontmatter breaks pageSchema fails the build with
 * the same message as a data file: the file, each field, and what is wrong with it.
 */
function pagesLoader(base: string): Loader {
  const inner = glob({ pattern: '**/*.mdx', base });
  return {
    name: 'pages',
    load: (context) =>
      inner.load({
        ...context,
        parseData: (props) => {
          const problems = new Problems();
          const file = props.filePath ? relative(process.cwd(), props.filePath) || props.filePath : `${base}/${props.id}`;
          validateOne(props.data, file, pageSchema, problems);
          problems.throwIfAny();
          return context.parseData(props);
        },
      }),
  };
}

// The prose pages. The table's data (YAML) is read and cross-checked by src/lib/content/,
// which reports problems by file, row, column and field.
const pages = defineCollection({
  loader: pagesLoader(`${contentDir}/pages`),
  schema: pageSchema,
});

export const collections = { pages };
