// The pages (content/pages/): each source's page exists and embeds its excerpts once,
// excerpt anchors do not collide with heading ids, and navigation sections name menu pages.
import { excerptId } from '../../claims/syntax.ts';
import { at, listOf, type Check, type Checks } from './shared.ts';

const sourcePagesExist: Check = (data, problems) => {
  const pages = new Set(data.pages.map((p) => p.id));
  for (const s of data.sources)
    if (!pages.has(s.page))
      problems.add(
        { ...at(s, 'page'), item: { kind: 'source', id: s.id }, field: 'page' },
        `no page "${s.page}" in content/pages/: create content/pages/${s.page}.mdx or point page at an existing one`,
      );
};

const sourcePagesEmbedTheirExcerpts: Check = (data, problems) => {
  const ids = new Set(data.excerpts.map(excerptId));
  for (const page of data.pages) {
    for (const embed of page.embeds)
      if (!ids.has(embed.id))
        problems.add(
          { file: page.file, line: embed.line, col: 1, field: 'Excerpt id' },
          `<Excerpt id="${embed.id}" />: no such excerpt in content/excerpts/ (ids look like "kep-3866/data-plane")`,
        );
    for (const source of data.sources.filter((s) => s.page === page.id)) {
      for (const e of data.excerpts.filter((x) => x.source === source.id)) {
        const id = excerptId(e);
        const found = page.embeds.filter((x) => x.id === id);
        if (found.length === 0)
          problems.add(
            { file: page.file, line: 1, col: 1, item: { kind: 'excerpt', id } },
            `source page of ${source.label} does not embed excerpt "${id}" (${e.file}): add <Excerpt id="${id}" /> where it belongs`,
          );
        for (const dup of found.slice(1))
          problems.add(
            { file: page.file, line: dup.line, col: 1, item: { kind: 'excerpt', id } },
            `excerpt "${id}" is embedded again (first at line ${found[0]!.line}): embed each excerpt once`,
          );
      }
    }
  }
};

const excerptIdsAreNotHeadingIds: Check = (data, problems) => {
  const pages = new Map(data.pages.map((p) => [p.id, p]));
  const sources = new Map(data.sources.map((s) => [s.id, s]));
  for (const e of data.excerpts) {
    const page = pages.get(sources.get(e.source)?.page ?? '');
    const heading = page?.headings.find((h) => h.id === e.id);
    if (page && heading)
      problems.add(
        { ...at(e, 'id'), item: { kind: 'excerpt', id: excerptId(e) }, field: 'id' },
        `excerpt id "${e.id}" is also the id of the heading at ${page.file}:${heading.line}; two elements would share #${e.id}: rename the excerpt`,
      );
  }
};
const navSectionsAreMenuPages: Check = (data, problems) => {
  const menu = new Set(data.pages.filter((p) => p.data.menu).map((p) => p.id));
  for (const page of data.pages)
    if (page.data.section !== undefined && !menu.has(page.data.section))
      problems.add(
        { file: page.file, ...page.keys.section, field: 'section' },
        `no navigation entry "${page.data.section}": section names a page with "menu: true" (${listOf(menu)})`,
      );
};

export const checks = {
  sourcePagesExist,
  sourcePagesEmbedTheirExcerpts,
  excerptIdsAreNotHeadingIds,
  navSectionsAreMenuPages,
} satisfies Checks;
