import { test, expect } from './fixtures.ts';

test('home page: landmarks, title, description, skip link', async ({ page }) => {
  await page.goto('');
  await expect(page).toHaveTitle(/Three backends, one table/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{40,}/);
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('main')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText('Apache License 2.0');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await skip.press('Enter');
  await expect(page).toHaveURL(/#main$/);
});

test('primary navigation reaches every section, with the base path', { tag: '@base' }, async ({ page, baseURL }) => {
  await page.goto('');
  const nav = page.getByRole('navigation', { name: 'Primary' });
  for (const name of ['Exercise', 'Readings', 'Drain answer']) {
    const href = (await nav.getByRole('link', { name }).getAttribute('href'))!;
    await nav.getByRole('link', { name }).click();
    // The new page, loaded (the old page's heading would pass a check made before it commits).
    await page.waitForURL(new URL(href, page.url()).href);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(page.url().startsWith(baseURL!)).toBe(true);
    await expect(nav.getByRole('link', { name })).toHaveAttribute('aria-current', 'page');
  }
});

test('styles and assets load under the base path', { tag: '@base' }, async ({ page }) => {
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  // Every request answered (the favicon, for one, is fetched after the load event).
  await page.goto('exercise/', { waitUntil: 'networkidle' });
  expect(failed).toEqual([]);
  // The stylesheet applied: the header is a flex row.
  await expect(page.getByRole('banner')).toHaveCSS('display', 'flex');
});
