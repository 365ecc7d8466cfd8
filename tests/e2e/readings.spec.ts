// The reading pages: each KEP page carries every excerpt of its source (cited badges link to
// them by id), states its status "as of" the pinned release, and has no duplicate ids; the
// readings index links to every reading page.
import { test, expect, expectAxeCleanInBothSchemes } from './fixtures.ts';
import { loadTable } from '../../src/lib/content/load.ts';

const table = await loadTable('content');
const kepSources = table.sources.filter((s) => s.page.startsWith('keps/'));
const readingPages = [...new Set(table.sources.map((s) => s.page))];

for (const source of kepSources) {
  const excerptIds = [...table.excerpts.values()].filter((r) => r.source.id === source.id).map((r) => r.excerpt.id);

  test(`${source.label} page embeds all ${excerptIds.length} excerpts and an as-of status`, async ({ page }) => {
    await page.goto(`${source.page}/`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(source.label);
    for (const id of excerptIds) {
      await expect(page.locator(`figure.excerpt#${id}`), `excerpt ${source.id}/${id}`).toHaveAttribute('data-excerpt', `${source.id}/${id}`);
    }
    await expect(page.locator('.prose .as-of').first()).toContainText(`as of Kubernetes ${table.site.asOf}`, { ignoreCase: true });
    const duplicates = await page.evaluate(() => {
      const seen = new Set<string>();
      const dup: string[] = [];
      for (const el of document.querySelectorAll('[id]')) {
        if (seen.has(el.id)) dup.push(el.id);
        seen.add(el.id);
      }
      return dup;
    });
    expect(duplicates, 'duplicate ids (a heading slug colliding with an excerpt id breaks its anchor)').toEqual([]);
  });
}

test('an excerpt anchor from a cited badge lands on the excerpt', async ({ page }) => {
  await page.goto('keps/kep-3866/#data-plane');
  const figure = page.locator('figure.excerpt#data-plane');
  await expect(figure).toBeInViewport();
  await expect(page.locator(':target')).toHaveId('data-plane');
});

test('readings index links to every reading page and names the exercise as its source', async ({ page }) => {
  await page.goto('readings/');
  const prose = page.locator('.prose');
  for (const p of readingPages) {
    await expect(prose.locator(`a[href$="/${p}/"]`).first(), `link to ${p}`).toBeVisible();
  }
  // The four questions quoted from the exercise each say where they come from.
  const quotes = prose.locator('blockquote');
  await expect(quotes).toHaveCount(4);
  for (const q of await quotes.all()) await expect(q.locator('a[href$="/exercise/#read"]')).toHaveCount(1);
  await expectAxeCleanInBothSchemes(page);
});

test('a KEP page with callouts, quotes and a table of contents is axe clean', async ({ page }) => {
  await page.goto('keps/kep-265/');
  await expect(page.locator('.callout').first()).toBeVisible();
  await expectAxeCleanInBothSchemes(page);
});
