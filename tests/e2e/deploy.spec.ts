// What a static host serves, seen by a browser: the Content-Security-Policy from public/_headers
// enforced on every page, the security headers, the 404 page, and nothing fetched from another
// origin. Sitemap, robots.txt and each page's metadata are read from dist/ in tests/dist/.
import { test, expect } from './fixtures.ts';
import { sitemapPages, recordCspViolations } from '../support/site-pages.ts';

test('every page loads under the Content-Security-Policy with no violation and no request to another origin', { tag: '@base' }, async ({ page, request, baseURL }) => {
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

test('responses carry the security headers from _headers', { tag: '@base' }, async ({ request }) => {
  for (const path of ['', 'exercise/', 'pagefind/pagefind-component-ui.js', 'does-not-exist/']) {
    const h = (await request.get(path)).headers();
    expect(h['x-content-type-options'], path).toBe('nosniff');
    expect(h['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
    expect(h['content-security-policy'], path).toContain("frame-ancestors 'none'");
    expect(h['content-security-policy'], path).toContain("object-src 'none'");
  }
});

test('a missing URL returns status 404 and the 404 page, with working links at any depth', { tag: '@base' }, async ({ page, request, baseURL, consoleProblems }) => {
  const direct = await request.get('no-such-page/');
  expect(direct.status()).toBe(404);
  expect(await direct.text()).toContain('Page not found');

  const res = await page.goto('rows/no-such-row/deeper/');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  // The stylesheet applied even two levels deep (links are absolute, with the base).
  await expect(page.getByRole('banner')).toHaveCSS('display', 'flex');
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: 'Search the site' })).toHaveAttribute('href', new URL('search/', baseURL).pathname);
  await main.getByRole('link', { name: 'Exercise' }).click();
  await page.waitForURL(new URL('exercise/', baseURL).href); // loaded, so its console is in too
  // Chromium logs the 404 document itself as a failed resource; that one was asked for.
  await expect.poll(() => consoleProblems.filter((p) => p.includes('status of 404')), '404 logged').toHaveLength(1);
  const notFound = consoleProblems.filter((p) => p.includes('status of 404'));
  consoleProblems.splice(consoleProblems.indexOf(notFound[0]!), 1);
});
