// What a reader relies on: search, heading links, table of contents, previous/next, the
// theme toggle, print, a 360 px screen, and fragments with JavaScript off. Page-specific
// assertions use the home and exercise pages and a page with a table of contents. What holds on
// every page (axe, 360 px width, JavaScript off, the CSP) is in every-page.spec.ts;
// what the HTML alone shows (the contents list, the page-order chain) in tests/dist/.
import { test, expect, expectAxeCleanInBothSchemes } from './fixtures.ts';
import type { Locator, Page } from '@playwright/test';
import { builtPages, readBuiltPage, sitemapPages, recordCspViolations } from '../../tools/lib/site-pages.ts';

/** The page's path on the server: base + site-relative path. */
const served = (baseURL: string | undefined, path: string) => new URL(path, baseURL).pathname;
/** Whether a page was reached at `href`, whatever text fragment (`:~:text=`) the result link added. */
const reached = (href: string) => (url: URL) => url.href.replace(/#?:~:.*$/, '') === href;

/** Waits until the search page has answered `query` and drawn the results in view; returns the list. */
async function results(page: Page, query: string): Promise<Locator> {
  // "Searching for …" first, then "N results for …" or "No results for …".
  const escaped = query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(page.locator('pagefind-summary')).toHaveText(new RegExp(`^(No results|\\d+ results?) for ${escaped}$`), {
    timeout: 30_000,
  });
  // The summary comes first; each result is a skeleton placeholder until its data has loaded
  // (Pagefind loads the ones that scroll into view). Wait until none in view is still loading.
  await expect
    .poll(
      () =>
        page.locator('pagefind-results .pf-skeleton').evaluateAll(
          (els) =>
            els.filter((el) => {
              const r = el.getBoundingClientRect();
              return r.bottom > 0 && r.top < innerHeight;
            }).length,
        ),
      { message: 'search results in view still loading', timeout: 30_000 },
    )
    .toBe(0);
  return page.getByRole('list', { name: 'Search results' });
}

/** Runs a query on the search page. */
async function search(page: Page, query: string): Promise<Locator> {
  await page.getByRole('searchbox', { name: 'Search this site' }).fill(query);
  return results(page, query);
}

/** The home page's own result for a query, focused as a keyboard reader reaches it. */
async function homeResult(page: Page, query: string, baseURL: string | undefined): Promise<Locator> {
  await page.goto('search/');
  const links = (await search(page, query)).locator('a.pf-result-link');
  const at = await links.evaluateAll(
    (as, href) => as.findIndex((a) => a.getAttribute('href') === href),
    served(baseURL, ''),
  );
  expect(at, 'the home page among the results').toBeGreaterThanOrEqual(0);
  const home = links.nth(at);
  await home.scrollIntoViewIfNeeded();
  await home.focus();
  return home;
}

test.describe('search', () => {
  test('type, see the right result, follow it with the keyboard', { tag: '@base' }, async ({ page, baseURL }) => {
    test.slow(); // types a whole title, key by key
    const violations = await recordCspViolations(page);
    await page.goto('exercise/');
    const title = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();

    await page.goto('search/');
    await expect(page.getByText('Search needs JavaScript')).toBeHidden();
    // Reach the box from the page the way a keyboard user does.
    const box = page.getByRole('searchbox', { name: 'Search this site' });
    for (let i = 0; i < 40 && !(await box.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    await expect(box).toBeFocused();
    await page.keyboard.type(title);
    const hit = (await results(page, title)).getByRole('link', { name: title, exact: true });
    await expect(hit).toHaveAttribute('href', served(baseURL, 'exercise/'));
    // Pagefind compiles WebAssembly and runs a worker: all of it within the site's CSP. Read on the
    // search page itself, once it has answered (the list belongs to the document that recorded it).
    expect(await violations(), 'CSP violations on the search page').toEqual([]);

    // Arrow keys move from the box into the results; Enter follows the focused link.
    await box.press('ArrowDown');
    for (let i = 0; i < 20 && !(await hit.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('ArrowDown');
    await expect(hit).toBeFocused();
    await page.keyboard.press('Enter');
    await page.waitForURL(reached(new URL('exercise/', baseURL).href)); // committed and loaded
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    expect(await violations(), 'CSP violations on the page the result led to').toEqual([]);
  });

  // A state no page has at load (every-page.spec.ts checks the search page empty), so checked here.
  test('the search page, showing results, is axe clean in both schemes and fits 360 px', async ({ page }) => {
    await page.goto('search/');
    await expect((await search(page, 'kube-proxy')).getByRole('link').first()).toBeVisible();
    await expectAxeCleanInBothSchemes(page);
    // Long words and URLs in the excerpts must wrap.
    await page.setViewportSize({ width: 360, height: 740 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth), 'width with results at 360 px')
      .toBeLessThanOrEqual(360);
  });

  test('a row of the table is found on its own page', { tag: '@base' }, async ({ page, baseURL }) => {
    await page.goto('');
    const rowLink = page.getByRole('rowheader').first().getByRole('link').first();
    const question = (await rowLink.textContent())!.trim();
    const id = (await rowLink.getAttribute('href'))!.replace(/^#/, '');
    await page.goto('search/');
    const list = await search(page, question);
    await expect(list.getByRole('link', { name: question, exact: true })).toHaveAttribute(
      'href',
      served(baseURL, `rows/${id}/`),
    );
  });

  test('a result leads to the words that matched: a text fragment the browser scrolls to, opening a closed disclosure', async ({
    page,
    baseURL,
  }) => {
    // "inactive" is once on the home page, in the IPVS drain cell's full answer: a closed disclosure
    // far below the first screen. The home page's own result (no fragment of its own) gains a text
    // fragment with the word and the words before it as the reader reaches for it.
    const home = await homeResult(page, 'inactive', baseURL);
    await expect(home).toHaveAttribute(
      'href',
      `${served(baseURL, '')}#:~:text=its%20active%20and-,inactive&text=inactive`,
    );

    const cell = page.locator('td[data-backend="ipvs"]').filter({ hasText: 'inactive connection counts' });
    await home.click();
    await page.waitForURL(reached(new URL('', baseURL).href));
    await expect(cell.locator('details.cell-details')).toHaveAttribute('open', '');
    await expect(cell.getByText(/inactive connection counts/)).toBeInViewport();
  });

  test('a result whose marked word ends in punctuation still lands on the word', async ({ page, baseURL }) => {
    // Pagefind marks "strictARP." or "strictARP," with its punctuation; the fragment names the word
    // alone (a fresh reader's "strictARP" results highlighted nothing and opened at the page's top).
    const home = await homeResult(page, 'strictARP', baseURL);
    await expect(home).toHaveAttribute('href', /:~:text=[^&]*-,strictARP&text=strictARP$/);
    await home.click();
    await page.waitForURL(reached(new URL('', baseURL).href));
    await expect(
      page
        .getByRole('region', { name: /^Running IPVS\?/ })
        .locator('li')
        .filter({ hasText: 'strictARP' })
        .first(),
    ).toBeInViewport();
  });

  test('a word on no page finds nothing, and says so', async ({ page }) => {
    await page.goto('search/');
    const list = await search(page, 'zqxjvbfixture');
    await expect(page.locator('pagefind-summary')).toHaveText('No results for zqxjvbfixture');
    await expect(list.getByRole('link')).toHaveCount(0);
  });

  test(
    'the index holds the sitemap pages, not the 404 or search pages, and no link chrome',
    { tag: '@base' },
    async ({ page, request, baseURL }) => {
      const pages = await sitemapPages(request, baseURL!);
      await page.goto('search/');
      const indexed = (await page.evaluate(async (bundle) => {
        const pagefind = await import(bundle);
        const all = await pagefind.search(null); // null: every page in the index
        return Promise.all(
          all.results.map(async (r: { data: () => Promise<{ url: string; content: string }> }) => {
            const d = await r.data();
            return { url: d.url, content: d.content };
          }),
        );
      }, new URL('pagefind/pagefind.js', baseURL).href)) as { url: string; content: string }[];
      const urls = indexed.map((d) => d.url);
      const listed = pages.map((p) => served(baseURL, p.path));
      expect(
        urls.filter((u) => !listed.includes(u)),
        'indexed but not in the sitemap (404, search…)',
      ).toEqual([]);
      for (const path of ['', 'exercise/', ...pages.filter((p) => p.path.startsWith('rows/')).map((p) => p.path)]) {
        expect(urls, `${path || 'home'} is searchable`).toContain(served(baseURL, path));
      }
      // Screen-reader text of heading links and copy buttons is not content, nor are citation groups
      // ("[KEP-265 L98–102]"): snippets show the prose (EXCLUDE_SELECTORS in src/integrations/pagefind.ts).
      for (const d of indexed) expect(d.content, d.url).not.toMatch(/Section titled|Copy link|\[[^\]]*\bL\d+(–\d+)?\]/);
    },
  );

  test('a hit in a table cell is headed by its row and its column', async ({ page, baseURL }) => {
    await page.goto('search/');
    const subs = (await page.evaluate(async (bundle) => {
      const pagefind = await import(bundle);
      const found = await pagefind.search('weight');
      const data = await Promise.all(
        found.results.map((r: { data: () => Promise<{ sub_results: { title: string; url: string }[] }> }) => r.data()),
      );
      return data.flatMap((d) => d.sub_results);
    }, new URL('pagefind/pagefind.js', baseURL).href)) as { title: string; url: string }[];
    // On the home page a cell's fragment is #<row>--<backend>; on a row page, its section's heading #cell-<backend>.
    const names: Record<string, string> = { iptables: 'iptables', ipvs: 'IPVS', nftables: 'nftables' };
    const home = subs.filter((s) => /^[^#]*#[a-z0-9-]+--(iptables|ipvs|nftables)$/.test(s.url));
    const rowPages = subs.filter((s) => /#cell-(iptables|ipvs|nftables)$/.test(s.url));
    expect(home.length, 'the query hits table cells on the home page').toBeGreaterThan(0);
    expect(rowPages.length, 'the query hits table cells on axis pages').toBeGreaterThan(0);
    // The legend above the table is no target (each cell is its own sub-result, data-pagefind-title).
    expect(subs.filter((s) => s.url.includes('#legend')).map((s) => s.url)).toEqual([]);
    for (const c of home) {
      const [row, backend] = c.url.split('#')[1]!.split('--') as [string, string];
      expect(c.title, c.url).toMatch(new RegExp(`: ${names[backend]}( read, not run)?$`));
      expect(c.title.length, c.url).toBeGreaterThan(row.length);
    }
    for (const c of rowPages)
      expect(c.title, c.url).toMatch(new RegExp(`^${names[c.url.split('#cell-')[1]!]}( read, not run)?$`));
  });

  // The search page sets Pagefind's ranking (src/lib/search.ts) from a script of its own: this proves
  // the script runs, after the Component UI and within the CSP, before the first search. With
  // Pagefind's default ranking, "0" matching the parts of counts and mark bits ("5,002", "0x4000")
  // put KEP-265's rule dump third (tests/dist/search.test.ts asks the index itself).
  test(
    '"weight 0": the results read weight 0, and a hit in a home table cell lands on that cell',
    {
      tag: '@base',
    },
    async ({ page, baseURL }) => {
      await page.goto('search/');
      const list = await search(page, 'weight 0');
      const cards = list.locator(':scope > li.pf-result');
      await expect(cards.nth(2)).toBeVisible();
      for (let i = 0; i < 3; i++)
        await expect(cards.nth(i).locator('.pf-result-excerpt'), `result ${i + 1}`).toHaveText(
          /\bweight(?:-0\b|\s+(?:\S+\s+){0,2}0\b)/i,
        );
      const home = cards.filter({ has: page.locator(`a.pf-result-link[href="${served(baseURL, '')}"]`) });
      const links = home.locator('a.pf-heading-link');
      const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
      expect(hrefs.length, 'the home result shows where on the page it matched').toBeGreaterThan(0);
      expect(hrefs.filter((h) => h.includes('#legend'))).toEqual([]);
      const cell = hrefs.find((h) => /#[a-z0-9-]+--(iptables|ipvs|nftables)$/.test(h));
      expect(cell, `a home cell among ${hrefs.join(', ')}`).toBeDefined();
      await home.locator(`a.pf-heading-link[href="${cell}"]`).click();
      await page.waitForURL(reached(new URL(cell!, baseURL).href));
      // The link named the matched words too (a text fragment): the browser shows them, in that cell.
      const td = page.locator(`td[id="${cell!.split('#')[1]!}"]`);
      await expect(td.locator('details.cell-details')).toHaveAttribute('open', '');
      await expect(td).toBeInViewport();
    },
  );

  test('without JavaScript the search page says so and points to the navigation', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto('search/');
    await expect(page.getByText('Search needs JavaScript')).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'Exercise' }).click();
    await expect(page).toHaveURL(new URL('exercise/', baseURL).href);
    await context.close();
  });
});

test('heading links: every h2/h3 has a keyboard-reachable "Section titled" link that lands on it', async ({ page }) => {
  await page.goto('exercise/');
  const headings = await page
    .locator('.prose :is(h2, h3)')
    .evaluateAll((hs) => hs.map((h) => ({ id: h.id, text: (h.textContent ?? '').trim() })));
  expect(headings.length).toBeGreaterThan(0);
  for (const h of headings) {
    await expect(page.getByRole('link', { name: `Section titled “${h.text}”`, exact: true })).toHaveAttribute(
      'href',
      `#${h.id}`,
    );
  }
  const first = headings[0]!;
  const link = page.getByRole('link', { name: `Section titled “${first.text}”`, exact: true });
  for (let i = 0; i < 80 && !(await link.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(link).toBeFocused();
  await expect(link).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#${first.id}$`));
  const heading = page.locator(`[id="${first.id}"]`);
  await expect(heading).toBeInViewport();
  // Not hidden under the sticky header (polled: the fragment scroll may land after the URL changes).
  const header = (await page.getByRole('banner').boundingBox())!;
  await expect
    .poll(async () => (await heading.boundingBox())!.y, 'heading below the sticky header')
    .toBeGreaterThanOrEqual(header.y + header.height - 1);
});

/** A page with a table of contents, from the build (the pages long enough to get one are the content's business). */
const withToc = builtPages().find((path) => readBuiltPage(path).includes('class="toc"'));

test('table of contents: an entry lands on its heading, below the sticky header', async ({ page }) => {
  test.skip(
    withToc === undefined,
    'no page is long enough for a table of contents yet (it needs three h2/h3 headings)',
  );
  await page.goto(withToc!);
  const toc = page.getByRole('navigation', { name: 'On this page' });
  const last = toc.getByRole('link').last();
  const href = (await last.getAttribute('href'))!;
  await last.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  const heading = page.locator(`[id="${href.slice(1)}"]`);
  await expect(heading).toBeInViewport();
  const header = (await page.getByRole('banner').boundingBox())!;
  await expect
    .poll(async () => (await heading.boundingBox())!.y, 'heading below the sticky header')
    .toBeGreaterThanOrEqual(header.y + header.height - 1);
});

test(
  'previous/next: Next leads on from the home page, and Previous leads back',
  { tag: '@base' },
  async ({ page, baseURL }) => {
    await page.goto('');
    const order = page.getByRole('navigation', { name: 'Page order' });
    const next = (await order.locator('a[rel="next"]').getAttribute('href'))!;
    await order.locator('a[rel="next"]').click();
    await page.waitForURL(new URL(next, baseURL).href);
    await order.locator('a[rel="prev"]').click();
    await page.waitForURL(baseURL!);
    await expect(order.locator('a[rel="prev"]')).toHaveCount(0);
  },
);

test.describe('theme toggle', () => {
  const toggle = (page: Page) => page.getByRole('button', { name: 'Dark theme' });
  const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const body = (page: Page) => page.locator('body');

  test('the choice survives navigation and reload, and applies before first paint', async ({ page, baseURL }) => {
    test.slow(); // two axe scans
    // Records the theme at the moment <body> is created, i.e. before anything can be painted.
    await page.addInitScript(() => {
      const w = window as unknown as { __themeAtBody?: string | null };
      new MutationObserver((_, observer) => {
        if (!document.body) return;
        w.__themeAtBody = document.documentElement.dataset.theme ?? null;
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    // Waits for the record of the document now in the page (a navigation commits before its
    // <body> exists), then returns it: the theme, or null if none was set when <body> appeared.
    const themeAtBody = async () => {
      const recorded = await page.waitForFunction(
        () => (window as unknown as { __themeAtBody?: string | null }).__themeAtBody !== undefined,
      );
      await recorded.dispose();
      return page.evaluate(() => (window as unknown as { __themeAtBody?: string | null }).__themeAtBody);
    };

    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('');
    expect(await themeAtBody()).toBeNull(); // nothing chosen yet: the system scheme rules
    const light = await background(page);
    await expect(toggle(page)).toHaveAttribute('aria-pressed', 'false');
    await toggle(page).focus();
    await page.keyboard.press('Enter');
    await expect(toggle(page)).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    const dark = await background(page);
    expect(dark).not.toBe(light);

    await page.getByRole('navigation', { name: 'Primary' }).getByRole('link', { name: 'Exercise' }).click();
    await expect(page).toHaveURL(new URL('exercise/', baseURL).href);
    expect(await themeAtBody()).toBe('dark');
    await expect(body(page)).toHaveCSS('background-color', dark);
    await expect(toggle(page)).toHaveAttribute('aria-pressed', 'true');

    await page.reload();
    expect(await themeAtBody()).toBe('dark');
    await expect(body(page)).toHaveCSS('background-color', dark);
  });

  test('light can be chosen against a dark system scheme', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('exercise/');
    const dark = await background(page);
    await expect(toggle(page)).toHaveAttribute('aria-pressed', 'true');
    await toggle(page).click();
    await expect(toggle(page)).toHaveAttribute('aria-pressed', 'false');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await expect(body(page)).not.toHaveCSS('background-color', dark);
  });

  test('a second press goes back to following the system scheme, also after it changes', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('exercise/');
    const dark = await background(page);
    await toggle(page).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await toggle(page).click();
    await expect(toggle(page)).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator('html'), 'no choice left: the system rules').not.toHaveAttribute('data-theme');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
    await page.reload();
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(toggle(page)).toHaveAttribute('aria-pressed', 'false');
    await expect(body(page)).not.toHaveCSS('background-color', dark);
  });
});

test.describe('print', () => {
  test('light colours and no navigation chrome, even after choosing dark', async ({ page }) => {
    await page.goto('exercise/');
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(255, 255, 255)');
    const text = await page.evaluate(() => getComputedStyle(document.querySelector('main')!).color);
    expect(text, 'dark text on paper').toMatch(/^rgb\((\d{1,2}), (\d{1,2}), (\d{1,2})\)$/);
    await expect(page.getByRole('banner')).toBeHidden();
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Page order' })).toBeHidden();
    await expect(page.getByRole('link', { name: /^Section titled/ }).first()).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible();
  });

  test('badges stay legible and distinct in black; external link targets are printed', async ({ page }) => {
    await page.goto('');
    await page.emulateMedia({ media: 'print' });
    const badges = await page.locator('.badge').evaluateAll((bs) =>
      bs.map((b) => ({
        kind: b.getAttribute('data-provenance'),
        color: getComputedStyle(b).color,
        border: getComputedStyle(b).borderTopStyle,
        text: (b.textContent ?? '').trim(),
      })),
    );
    expect(badges.length).toBeGreaterThan(0);
    for (const b of badges) {
      expect(b.color, `${b.kind} badge`).toBe('rgb(0, 0, 0)');
      expect(b.text, `${b.kind} badge says what it is in words`).toMatch(/Measured|To measure|Cited/);
    }
    // Without colour, each kind keeps its own border style.
    const styles = new Map(badges.map((b) => [b.kind, b.border]));
    expect(new Set(styles.values()).size).toBe(styles.size);
    // The table is laid out for the page, not a scroll box.
    expect(
      await page
        .getByRole('region')
        .filter({ has: page.getByRole('table') })
        .evaluate((el) => getComputedStyle(el).overflowX),
    ).toBe('visible');
    const printed = await page
      .getByRole('contentinfo')
      .getByRole('link', { name: 'kubernetes/enhancements' })
      .evaluate((a) => getComputedStyle(a, '::after').content);
    expect(printed).toContain('https://github.com/kubernetes/enhancements');
  });
});

test.describe('360 px wide', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the comparison table reads without sideways scrolling: each row a stacked group, column names repeated', async ({
    page,
  }) => {
    await page.goto('');
    const region = page.getByRole('region').filter({ has: page.getByRole('table') });
    const { scrollWidth, clientWidth } = await region.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }));
    expect(scrollWidth, 'the table does not scroll in its region').toBeLessThanOrEqual(clientWidth);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await page.locator('table.comparison').evaluate((t) => t.getBoundingClientRect().width)).toBeLessThanOrEqual(
      360,
    );
    // Stacked: the row header above its cells, each cell under its column's name (hidden from
    // assistive technology, which announces the column header: table-a11y-tree.spec.ts).
    const row = page.locator('table.comparison tbody tr').first();
    const header = (await row.getByRole('rowheader').boundingBox())!;
    const cells = row.getByRole('cell');
    for (let i = 0; i < (await cells.count()); i++) {
      const cell = cells.nth(i);
      expect((await cell.boundingBox())!.y, 'each cell below the row header').toBeGreaterThanOrEqual(
        header.y + header.height - 1,
      );
      await expect(cell.locator('.cell-column')).toBeVisible();
      await expect(cell.locator('.cell-column')).toHaveAttribute('aria-hidden', 'true');
    }
    // What shows is the column's name (the row's question it also holds shows only on a linked cell).
    expect(await page.locator('th[id^="col-"]').first().textContent()).toContain(
      await cells.first().locator('.cell-column').innerText(),
    );
  });
});

test('with JavaScript off, row fragments in the table and heading links still land', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto('');
  const firstRow = page.getByRole('rowheader').first().getByRole('link').first();
  const id = (await firstRow.getAttribute('href'))!.slice(1);
  await firstRow.click();
  await expect(page.locator(`tr[id="${id}"]`)).toBeInViewport();
  await expect(page.locator(':target')).toHaveId(id);
  await page.goto('exercise/');
  const link = page.getByRole('link', { name: /^Section titled/ }).first();
  const href = (await link.getAttribute('href'))!;
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.locator(':target')).toBeInViewport();
  await context.close();
});

test('the words a reader sees are apart: footer links, legend counts; the legend names our reading; the theme button says its state', async ({
  page,
}) => {
  await page.goto('');
  const footer = await page.getByRole('contentinfo').innerText();
  expect(footer).toContain('kubernetes/enhancements (Apache License 2.0)');
  expect(footer).toContain('notes on kubernetes/kubernetes source files');
  const legend = page.getByRole('region', { name: 'How sure each cell is' });
  for (const item of await legend.getByRole('listitem').all())
    expect(await item.innerText()).not.toMatch(/[A-Za-z]\d+ cells?/);
  await expect(
    legend.getByRole('listitem').filter({ hasText: /^Our reading in the text marks our own inference/i }),
  ).toHaveCount(1);
  const toggle = page.getByRole('button', { name: 'Dark theme' });
  const before = await toggle.innerText();
  await toggle.click();
  const after = await toggle.innerText();
  expect(new Set([before.trim().slice(-3).trim(), after.trim().slice(-3).trim()])).toEqual(new Set(['on', 'off']));
});

test('an operator running IPVS finds what to do within the first two screens, desktop and phone, and the link lands on it', async ({
  page,
}) => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto('');
    // The action in brief, on the first screens: the dates, the gate that keeps IPVS running and its
    // window, and the two modes to move to (a fresh reader found only "the gate keeps IPVS a while").
    const brief = page.locator('p').filter({ hasText: /^Running IPVS\?/ });
    for (const words of ['1.40', '1.43', 'KubeProxyIPVS', 'nftables mode (kernel 5.13 or newer)', 'iptables mode'])
      await expect(brief, words).toContainText(words);
    const pointer = brief.getByRole('link', { name: 'the steps', exact: true });
    for (const [what, box] of [
      ['the brief', await brief.boundingBox()],
      ['the pointer', await pointer.boundingBox()],
    ] as const) {
      expect(box, `${what} is laid out`).not.toBeNull();
      expect(box!.y + box!.height, `${viewport.width}px: ${what} within two screens`).toBeLessThanOrEqual(
        2 * viewport.height,
      );
    }
    await pointer.click();
    await expect(page.getByRole('heading', { name: /Running IPVS\? What to do before 1\.40/ })).toBeInViewport();
  }
  // The action itself reads as numbered steps, each opening with what to do in bold (the second
  // fresh reader found five cited paragraphs, not steps): a checklist to work down and to print.
  const steps = page.getByRole('region', { name: /^Running IPVS\? What to do before 1\.40/ }).locator('ol > li');
  expect(await steps.count(), 'the action as numbered steps').toBeGreaterThanOrEqual(4);
  for (const step of await steps.all()) {
    const lead = await step.evaluate((li) => {
      // A step holding a block (the gate's configuration file) wraps its text in a paragraph.
      const outer = li.firstElementChild;
      const first = outer?.tagName === 'P' ? outer.firstElementChild : outer;
      const opens = first?.tagName === 'STRONG' && (li.textContent ?? '').trim().startsWith(first.textContent ?? '');
      return opens ? (first.textContent ?? '') : null;
    });
    expect(lead, `a step opens with its action in bold: ${(await step.innerText()).slice(0, 60)}`).toMatch(
      /^\S.*[.?]$/,
    );
  }
});

test('a focused badge (a disclosure summary) shows the same focus ring as links and buttons', async ({ page }) => {
  await page.goto('');
  const summary = page.locator('td .cell-details > summary').first();
  await summary.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  const ring = await summary.evaluate((el) => {
    const s = getComputedStyle(el);
    return { width: s.outlineWidth, style: s.outlineStyle };
  });
  expect(ring).toEqual({ width: '3px', style: 'solid' });
});
