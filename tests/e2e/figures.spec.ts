// The figures in a browser, cold and with JavaScript off: the drawing renders (inline on each page
// that shows it) at / and under the sub-path, in light,
// dark and print; the accessibility tree of each (its name, the drawing's name, the steps as text in
// the figure's order, each with its citations or "our reading"), as tests/e2e/table-a11y-tree.spec.ts
// does for the table; at 360 px the drawing scrolls inside its own focusable region. Expected
// figures and steps come from the content, so a new step or lane needs no change here.
import type { CDPSession, Page } from '@playwright/test';
import { test, expect, expectAxeCleanInBothSchemes } from './fixtures.ts';
import { loadContent } from '../../src/lib/content/load.ts';
import { assembleTable } from '../../src/lib/content/model.ts';
import { assembleFigure, type FigureModel } from '../../src/lib/figures/model.ts';
import { routes } from '../../src/lib/content/routes.ts';
import { citeText } from '../../src/lib/content/cite-text.ts';

const data = await loadContent('content');
const table = assembleTable(data);
const figure = (id: string): FigureModel => assembleFigure(data.figures.find((f) => f.id === id)!, data.backends, table.excerpts);
const DISPATCH = figure('dispatch');
const TIMELINE = figure('drain-timeline');
/** Where each shows: inline on every page. */
const PLACES = [
  { path: routes.home, figure: DISPATCH },
  { path: routes.page('drain'), figure: TIMELINE },
  { path: routes.row('drain'), figure: TIMELINE },
  { path: routes.row(DISPATCH.rows[0]!), figure: DISPATCH },
] as const;

const fig = (page: Page, f: FigureModel) => page.locator(`figure[data-figure="${f.id}"]`);
const squash = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** A token's colour as the page resolves it, e.g. var(--bg) -> "rgb(255, 255, 255)". */
const tokenColour = (page: Page, token: string) => page.evaluate((t) => {
  const probe = document.createElement('span');
  probe.style.color = `var(${t})`; // a probe set from script, not markup: the CSP governs attributes in HTML
  document.body.append(probe);
  const c = getComputedStyle(probe).color;
  probe.remove();
  return c;
}, token);

test('@base cold, without JavaScript: each figure draws on its pages, in light, dark and print', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  for (const place of PLACES) {
    await page.goto(`${baseURL}${place.path}`);
    const drawing = fig(page, place.figure).locator('.figure-scroll > svg');
    await drawing.scrollIntoViewIfNeeded();
    await expect(drawing).toBeVisible();
    // The step boxes take the page's own colours, per scheme; black text on white in print.
    const step = drawing.locator('rect.fig-step').first();
    const label = drawing.locator('text.fig-label').first();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme, media: 'screen' });
      expect(await step.evaluate((r) => getComputedStyle(r).fill), `${place.path} ${colorScheme}: step fill`).toBe(await tokenColour(page, '--bg'));
      expect(await label.evaluate((t) => getComputedStyle(t).fill), `${place.path} ${colorScheme}: text`).toBe(await tokenColour(page, '--text'));
    }
    await page.emulateMedia({ colorScheme: 'dark', media: 'print' });
    expect(await label.evaluate((t) => getComputedStyle(t).fill), `${place.path} print`).toBe('rgb(0, 0, 0)');
    expect(await step.evaluate((r) => getComputedStyle(r).fill), `${place.path} print`).toBe('rgb(255, 255, 255)');
    await page.emulateMedia({ colorScheme: null, media: null });
    // Real text, as drawn: every step's words are in the drawing.
    const drawn = squash((await drawing.locator('text').allTextContents()).join(''));
    for (const s of place.figure.steps) expect(drawn, `${place.path}: step ${s.id} drawn`).toContain(squash(s.label));
  }
  await context.close();
});

interface AXNode { role: string; name: string }
/** Chromium's computed role and name of the first element matching `selector`. */
async function axNode(cdp: CDPSession, selector: string): Promise<AXNode> {
  const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
  return { role: String(nodes[0]!.role?.value ?? ''), name: String(nodes[0]!.name?.value ?? '') };
}

/** What a step reads as: its label, then its citation links (source and lines), or "our reading". */
function stepReading(s: FigureModel['steps'][number]): string[] {
  if (s.reading) return [s.label, 'our reading'];
  return [s.label, ...s.cites.map((c) => citeText(c.source.label, c.excerpt.lines))];
}

for (const place of PLACES.filter((p, i) => PLACES.findIndex((q) => q.figure === p.figure) === i)) {
  test(`accessibility tree of "${place.figure.id}" on /${place.path}: its name, the drawing's, the steps as text in order`, async ({ scriptlessPage: page, baseURL }) => {
    await page.goto(`${baseURL}${place.path}`);
    const cdp = await page.context().newCDPSession(page);
    const id = routes.figureAnchor(place.figure.id);
    expect(await axNode(cdp, `#${id}`)).toEqual({ role: 'figure', name: expect.stringContaining(place.figure.title) });
    expect(await axNode(cdp, `#${id} .figure-scroll`)).toEqual({ role: 'region', name: `Diagram: ${place.figure.title} (scrolls sideways on a narrow screen)` });
    expect(await axNode(cdp, `#${id} .figure-scroll > svg`)).toEqual({ role: 'image', name: `Diagram: ${place.figure.title}. The same steps follow as text.` });

    // The order a screen reader hears the text in: lane by lane (each lane's name first), each
    // step's words, then its sources and excerpt links, or "our reading".
    const heard = squash(await page.locator(`#${id} .figure-text`).innerText());
    let at = 0;
    const expectNext = (words: string, what: string) => {
      const found = heard.indexOf(squash(words), at);
      expect(found, `${what}: "${words}" after position ${at} of the figure's text`).toBeGreaterThanOrEqual(at);
      at = found + squash(words).length;
    };
    for (const stage of place.figure.stages) stepReading({ ...stage, lane: '' }).forEach((w) => expectNext(w, `stage ${stage.id}`));
    for (const lane of place.figure.lanes) {
      expectNext(lane.name, `lane ${lane.id}`);
      for (const s of place.figure.steps.filter((x) => x.lane === lane.id)) stepReading(s).forEach((w) => expectNext(w, `step ${s.id}`));
    }
    // Each citation is a link named after its excerpt, to the excerpt's place on the site.
    for (const s of place.figure.steps.filter((x) => !x.reading)) {
      const links = page.locator(`#${routes.figureStepAnchor(place.figure.id, s.id)} a[data-cite]`);
      await expect(links).toHaveCount(s.cites.length);
      for (const [i, c] of s.cites.entries()) await expect(links.nth(i)).toHaveAccessibleName(citeText(c.source.label, c.excerpt.lines));
    }
  });
}

test('at 360 px the drawing scrolls inside its own region, which the keyboard reaches and scrolls', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await page.goto(`${baseURL}${routes.page('drain')}`);
  const region = fig(page, TIMELINE).locator('.figure-scroll');
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'the page itself does not scroll sideways').toBeLessThanOrEqual(360);
  expect(await region.evaluate((r) => r.scrollWidth > r.clientWidth), 'the drawing is wider than the region').toBe(true);
  await region.focus();
  await expect(region).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => region.evaluate((r) => r.scrollLeft)).toBeGreaterThan(0);
  await context.close();
});

test('axe: the drain page with its figure, and the home page\'s figure, clean in light and dark', async ({ page }) => {
  await page.goto(routes.page('drain'));
  await expectAxeCleanInBothSchemes(page, { include: `#${routes.figureAnchor(TIMELINE.id)}` });
  await page.goto(routes.home);
  await expectAxeCleanInBothSchemes(page, { include: `#${routes.figureAnchor(DISPATCH.id)}` });
});
