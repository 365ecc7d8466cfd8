// What a static host serves, seen by a browser: the policy a page carries on its own (for hosts
// that do not read _headers), an injected script refused, the security headers, and the 404
// page. That every page loads under its policy with no violation, from its own HTML, is checked
// page by page in every-page.spec.ts; sitemap, robots.txt and each page's metadata are read
// from dist/ in tests/dist/.
import { test, expect } from './fixtures.ts';
import type { Page } from '@playwright/test';
import { recordCspViolations } from '../../tools/lib/site-pages.ts';

test('the policy a page carries stands alone: the first thing in <head>, and what a host without _headers enforces', async ({
  page,
  request,
  consoleProblems,
}) => {
  const html = await (await request.get('')).text();
  expect(html).toMatch(
    /^<!DOCTYPE html><html[^>]*><head><meta charset="utf-8"><meta http-equiv="content-security-policy" content="default-src 'self';/i,
  );
  // The same page served with no headers at all: the policy in it still refuses an injected script.
  await page.route('**/*', async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, headers: { 'content-type': res.headers()['content-type'] ?? 'text/html' } });
  });
  const violations = await recordCspViolations(page);
  const res = await page.goto('');
  expect(res?.headers()['content-security-policy']).toBeUndefined();
  // The page's own inline scripts, allowed by their hashes, ran: the head script showed the toggle,
  // its module script tracks the scheme.
  await expect(page.getByRole('button', { name: 'Dark theme' })).toHaveAttribute('aria-pressed', /^(true|false)$/);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.getByRole('button', { name: 'Dark theme' })).toHaveAttribute('aria-pressed', 'true');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.getByRole('button', { name: 'Dark theme' })).toHaveAttribute('aria-pressed', 'false');
  await expectInjectedScriptRefused(page, violations, consoleProblems);
});

/** Injects an inline script into the loaded page and expects the policy to refuse it, report it and log it. */
async function expectInjectedScriptRefused(page: Page, violations: () => Promise<string[]>, consoleProblems: string[]) {
  const ran = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__injectedRan = true;';
    document.head.append(s); // an allowed inline script would have run inside append()
    return (window as unknown as { __injectedRan?: boolean }).__injectedRan === true;
  });
  expect(ran).toBe(false);
  // The violation event is fired from a queued task, and the console message reaches the test
  // asynchronously: wait for each, however long the machine takes.
  await expect
    .poll(
      async () => (await violations()).some((v) => v.startsWith('script-src-elem blocked inline')),
      'violation reported',
    )
    .toBe(true);
  // Chromium also logs the refusal as a console error; that one is the point of the test.
  const isExpected = (p: string) => p.includes('Content Security Policy');
  await expect.poll(() => consoleProblems.some(isExpected), 'refusal logged').toBe(true);
  consoleProblems.splice(0, consoleProblems.length, ...consoleProblems.filter((p) => !isExpected(p)));
}

test('the policy blocks what it should: an injected inline script is refused and reported', async ({
  page,
  consoleProblems,
}) => {
  const violations = await recordCspViolations(page);
  await page.goto('');
  await expectInjectedScriptRefused(page, violations, consoleProblems);
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

test(
  'a missing URL returns status 404 and the 404 page, with working links at any depth',
  { tag: '@base' },
  async ({ page, request, baseURL, consoleProblems }) => {
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
    await expect(main.getByRole('link', { name: 'Search the site' })).toHaveAttribute(
      'href',
      new URL('search/', baseURL).pathname,
    );
    await main.getByRole('link', { name: 'Exercise' }).click();
    await page.waitForURL(new URL('exercise/', baseURL).href); // loaded, so its console is in too
    // Chromium logs the 404 document itself as a failed resource; that one was asked for.
    await expect.poll(() => consoleProblems.filter((p) => p.includes('status of 404')), '404 logged').toHaveLength(1);
    const notFound = consoleProblems.filter((p) => p.includes('status of 404'));
    consoleProblems.splice(consoleProblems.indexOf(notFound[0]!), 1);
  },
);
