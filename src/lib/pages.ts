// The prose pages in reading order, with their site paths.
import { getCollection, type CollectionEntry } from 'astro:content';
import { routes } from './content/routes.ts';

export type Page = CollectionEntry<'pages'>;

/** Site-relative path of a page: "" for index, "keps/kep-265/" otherwise. */
export const pagePath = (page: Page): string => routes.page(page.id);

export async function pagesInOrder(): Promise<Page[]> {
  const pages = await getCollection('pages');
  return pages.sort((a, b) => a.data.order - b.data.order || a.id.localeCompare(b.id));
}
