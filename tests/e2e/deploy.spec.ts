// What a static host serves: sitemap, robots.txt, the 404 page, metadata on every page, the
// Content-Security-Policy from public/_headers, and nothing fetched from another origin.
import { test, expect, expectAxeCleanInBothSchemes } from './fixtures.ts';
import { sitemapPages, relativeToBase, recordCspViolations } from '../support/site-pages.ts';

test('the sitemap lists the pages at SITE_URL + base, without the 404 and search pages', async ({ request, baseURL }) => {
  const pages = await sitemapPages(request, baseURL!);
  const paths = pages.map((p) => p.path);
  expect(paths).toContain('');
  expect(paths).toContain('exercise/');
  expect(paths.filter((p) => p === 'search/' || p.startsWith('404'))).toEqual([]);
  expect(new Set(paths).size, 'no page listed twice').toBe(paths.length);
  // Every listed page exists on the server.
  for (const { path } of pages) expect((await request.get(path)).status(), path).toBe(200);
});

test('robots.txt points at the sitemap index at the configured site and base', async ({ request, baseURL }) => {
  const [home] = await sitemapPages(request, baseURL!);
  const res = await request.get('robots.txt');
  expect(res.status()).toBe(200);
  const robots = await res.text();
  const sitemap = robots.match(/^Sitemap: (\S+)$/m)?.[1];
  const siteRoot = home!.loc.slice(0, home!.loc.length - home!.path.length); // SITE_URL + base
  expect(sitemap).toBe(`${siteRoot}sitemap-index.xml`);
  expect((await request.get(relativeToBase(sitemap!, baseURL!))).status()).toBe(200);
  expect(robots).toMatch(/^User-agent: \*$/m);
});

test('every page has a canonical URL, Open Graph and Twitter metadata, and the favicon', async ({ page, request, baseURL }) => {
  const favicon = await request.get('favicon.svg');
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()['content-type']).toContain('image/svg+xml');
  const pages = await sitemapPages(request, baseURL!);
  test.setTimeout(test.info().timeout + pages.length * 4_000);
  for (const { loc, path } of pages) {
    await page.goto(path);
    const content = (selector: string) => page.locator(selector).getAttribute('content');
    const title = await page.title();
    expect(await page.locator('link[rel="canonical"]').getAttribute('href'), path).toBe(loc);
    expect(await content('meta[property="og:url"]'), path).toBe(loc);
    expect(await content('meta[property="og:title"]'), path).toBe(title);
    expect(await content('meta[name="twitter:title"]'), path).toBe(title);
    expect(await content('meta[property="og:type"]'), path).toMatch(/^(website|article)$/);
    // A page with a preview image (home, rows) has the large card; the others the plain one.
    const image = (await page.locator('meta[property="og:image"]').count()) > 0 ? await content('meta[property="og:image"]') : null;
    expect(await content('meta[name="twitter:card"]'), path).toBe(image ? 'summary_large_image' : 'summary');
    if (image) expect(await content('meta[name="twitter:image"]'), path).toBe(image);
    const description = await content('meta[name="description"]');
    expect(description, path).toMatch(/\S.{20,}/);
    expect(await content('meta[property="og:description"]'), path).toBe(description);
    expect(await content('meta[name="twitter:description"]'), path).toBe(description);
    expect(await page.locator('meta[name="robots"]').count(), `${path} is in the sitemap, so it is indexable`).toBe(0);
    expect(await page.locator('link[rel="icon"]').getAttribute('href'), path).toBe(new URL('favicon.svg', baseURL).pathname);
  }
});

test('every page: external links carry rel="noopener"', async ({ page, request, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  let external = 0;
  const pages = await sitemapPages(request, baseURL!);
  test.setTimeout(test.info().timeout + pages.length * 4_000);
  for (const { path } of pages) {
    await page.goto(path);
    const links = await page.locator('a[href]').evaluateAll((as) =>
      as.map((a) => ({ href: (a as HTMLAnchorElement).href, rel: (a as HTMLAnchorElement).relList.contains('noopener') })));
    for (const link of links.filter((l) => /^https?:/.test(l.href) && new URL(l.href).origin !== origin)) {
      external += 1;
      expect(link.rel, `${link.href} on /${path}`).toBe(true);
    }
  }
  expect(external, 'the footer alone links to two upstream repositories').toBeGreaterThan(0);
});

test('every page loads under the Content-Security-Policy with no violation and no request to another origin', async ({ page, request, baseURL }) => {
  const violations = await recordCspViolations(page);
  const origin = new URL(baseURL!).origin;
  const foreign: string[] = [];
  page.on('request', (req) => {
    const u = new URL(req.url());
    if (!['data:', 'blob:'].includes(u.protocol) && u.origin !== origin) foreign.push(`${req.url()} from ${page.url()}`);
  });
  const pages = await sitemapPages(request, baseURL!);
  test.setTimeout(test.info().timeout + pages.length * 5_000);
  for (const path of [...pages.map((p) => p.path), 'search/']) {
    const res = await page.goto(path, { waitUntil: 'networkidle' });
    expect(res?.status(), path).toBe(200);
    // The policy is really there (a missing header would make "no violations" meaningless).
    expect(res?.headers()['content-security-policy'], path).toContain("script-src 'self'");
    expect(await violations(), `CSP violations on /${path}`).toEqual([]);
  }
  expect(foreign).toEqual([]);
});

test('the policy blocks what it should: an injected inline script is refused and reported', async ({ page, consoleProblems }) => {
  const violations = await recordCspViolations(page);
  await page.goto('');
  const ran = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__injectedRan = true;';
    document.head.append(s); // an allowed inline script would have run inside append()
    return (window as unknown as { __injectedRan?: boolean }).__injectedRan === true;
  });
  expect(ran).toBe(false);
  // The violation event is fired from a queued task, and the console message reaches the test
  // asynchronously: wait for each, however long the machine takes.
  await expect.poll(async () => (await violations()).some((v) => v.startsWith('script-src-elem blocked inline')), 'violation reported').toBe(true);
  // Chromium also logs the refusal as a console error; that one is the point of this test.
  const isExpected = (p: string) => p.includes('Content Security Policy');
  await expect.poll(() => consoleProblems.some(isExpected), 'refusal logged').toBe(true);
  consoleProblems.splice(0, consoleProblems.length, ...consoleProblems.filter((p) => !isExpected(p)));
});

test('responses carry the security headers from _headers', async ({ request }) => {
  for (const path of ['', 'exercise/', 'pagefind/pagefind-component-ui.js', 'does-not-exist/']) {
    const h = (await request.get(path)).headers();
    expect(h['x-content-type-options'], path).toBe('nosniff');
    expect(h['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
    expect(h['content-security-policy'], path).toContain("frame-ancestors 'none'");
    expect(h['content-security-policy'], path).toContain("object-src 'none'");
  }
});

test('a missing URL returns status 404 and the 404 page, with working links at any depth', async ({ page, request, baseURL, consoleProblems }) => {
  test.slow(); // two axe scans
  const direct = await request.get('no-such-page/');
  expect(direct.status()).toBe(404);
  expect(await direct.text()).toContain('Page not found');

  const res = await page.goto('rows/no-such-row/deeper/');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  // The stylesheet applied even two levels deep (links are absolute, with the base).
  await expect(page.getByRole('banner')).toHaveCSS('display', 'flex');
  await expectAxeCleanInBothSchemes(page);
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: 'Search the site' })).toHaveAttribute('href', new URL('search/', baseURL).pathname);
  await main.getByRole('link', { name: 'Exercise' }).click();
  await page.waitForURL(new URL('exercise/', baseURL).href); // loaded, so its console is in too
  // Chromium logs the 404 document itself as a failed resource; that one was asked for.
  await expect.poll(() => consoleProblems.filter((p) => p.includes('status of 404')), '404 logged').toHaveLength(1);
  const notFound = consoleProblems.filter((p) => p.includes('status of 404'));
  consoleProblems.splice(consoleProblems.indexOf(notFound[0]!), 1);
});
