// The site's single way in to the content data: loaded and checked once per build.
import { contentDir } from './dir.ts';
import { loadContent, contentFiles } from './load.ts';
import { buildComparison, type TableModel } from './model.ts';

let cached: TableModel | undefined;

export function getTable(): TableModel {
  cached ??= buildComparison(loadContent(contentDir), contentFiles(contentDir));
  return cached;
}
