// The prose pages as the model holds them: in page order, with their paths, and the primary
// navigation derived from their frontmatter (`menu`, `section`, `nav`, `order`). Pure.
import type { PageData } from './schemas.ts';
import { routes } from '../routes.ts';

export interface PageModel {
  /** Its id in the pages collection: its path under content/pages, without extension. */
  id: string;
  /** Site-relative path: "" for index, "keps/kep-265/" otherwise. */
  path: string;
  title: string;
  /** Navigation label (frontmatter `nav`, else the title). */
  label: string;
  description: string;
  order: number;
  toc: boolean;
  menu: boolean;
  /** The navigation entry it is read under: a menu page's id (its own, when it is one). */
  section: string | undefined;
}

export interface NavItem {
  href: string;
  label: string;
  /** What a route names as its section to be "current" here. */
  section: string;
}

/** The search page: not content, but always in the navigation, last. */
export const SEARCH_SECTION = 'search';
/** Axis and evidence pages are read under the table (the home page). */
export const TABLE_SECTION = 'index';

export function pageModels(pages: ReadonlyArray<{ id: string; data: PageData }>): PageModel[] {
  return pages
    .map(({ id, data }) => ({
      id,
      path: routes.page(id),
      title: data.title,
      label: data.nav ?? data.title,
      description: data.description,
      order: data.order,
      toc: data.toc,
      menu: data.menu,
      section: data.section ?? (data.menu ? id : undefined),
    }))
    .sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
}

export const navigation = (pages: PageModel[]): NavItem[] => [
  ...pages.filter((p) => p.menu).map((p) => ({ href: p.path, label: p.label, section: p.id })),
  { href: routes.search, label: 'Search', section: SEARCH_SECTION },
];
