// The figures in a browser, cold and with JavaScript off: the drawing renders (inline on each page
// that shows it) at / and under the sub-path, in light,
// dark and print; the accessibility tree of each (its name, the drawing's name, the steps as text in
// the figure's order, each with its citations or "our reading"), as tests/e2e/table-a11y-tree.spec.ts
// does for the table; and at every window width from a phone's to a desktop's, in light and dark,
// on every page that shows a figure: the drawing whole inside the window (nothing scrolls
// sideways), no label under 12 px, and each stage's steps in one row across the lanes. Expected
// figures, pages and steps come from the content, so a new step, stage or lane needs no change here.
import { readFileSync } from 'node:fs';
import type { CDPSession, Page } from '@playwright/test';
import { test, expect, expectAxeCleanInBothSchemes } from './fixtures.ts';
import { loadContent } from '../../src/lib/content/load.ts';
import { assembleTable } from '../../src/lib/content/model.ts';
import { assembleFigure, drawingName, type FigureModel } from '../../src/lib/figures/model.ts';
import { layoutFigure, stagesOurs } from '../../src/lib/figures/layout.ts';
import { routes } from '../../src/lib/routes.ts';
import { shortLines } from '../../src/lib/claims/cite-text.ts';
import { bySource } from '../../src/lib/view/model.ts';

const data = await loadContent('content');
const table = assembleTable(data);
const figure = (id: string): FigureModel =>
  assembleFigure(
    data.figures.find((f) => f.id === id)!,
    data.backends,
    table.excerpts,
  );
const DISPATCH = figure('dispatch');
const TIMELINE = figure('drain-timeline');
/** Where each shows: inline on every page. */
const PLACES = [
  { path: routes.home, figure: DISPATCH },
  { path: routes.page('drain'), figure: TIMELINE },
  { path: routes.axisPage('drain'), figure: TIMELINE },
  { path: routes.axisPage(DISPATCH.axes[0]!), figure: DISPATCH },
] as const;
/** Every page that shows a figure: the MDX pages that embed it, and its axes' pages. */
const EVERY_PLACE = [...data.figures.map((f) => figure(f.id))].flatMap((f) => [
  ...data.pages
    .filter((p) => readFileSync(p.file, 'utf8').includes(`<Figure id="${f.id}" />`))
    .map((p) => ({ path: routes.page(p.id), figure: f })),
  ...f.axes.map((axis) => ({ path: routes.axisPage(axis), figure: f })),
]);
/** The window widths a figure must fit: phones, a tablet, laptops and desktops. */
const WIDTHS = [360, 390, 768, 1024, 1280, 1440];

const fig = (page: Page, f: FigureModel) => page.locator(`figure[data-figure="${f.id}"]`);
const squash = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** A token's colour as the page resolves it, e.g. var(--bg) -> "rgb(255, 255, 255)". */
const tokenColour = (page: Page, token: string) =>
  page.evaluate((t) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${t})`; // a probe set from script, not markup: the CSP governs attributes in HTML
    document.body.append(probe);
    const c = getComputedStyle(probe).color;
    probe.remove();
    return c;
  }, token);

test('@base cold, without JavaScript: each figure draws on its pages, in light, dark and print', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  for (const place of PLACES) {
    await page.goto(`${baseURL}${place.path}`);
    const drawing = fig(page, place.figure).locator('.figure-draw > svg').first();
    await drawing.scrollIntoViewIfNeeded();
    await expect(drawing).toBeVisible();
    // The step boxes take the page's own colours, per scheme; black text on white in print.
    const step = drawing.locator('rect.fig-step').first();
    const label = drawing.locator('text.fig-label').first();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme, media: 'screen' });
      expect(await step.evaluate((r) => getComputedStyle(r).fill), `${place.path} ${colorScheme}: step fill`).toBe(
        await tokenColour(page, '--bg'),
      );
      expect(await label.evaluate((t) => getComputedStyle(t).fill), `${place.path} ${colorScheme}: text`).toBe(
        await tokenColour(page, '--text'),
      );
    }
    await page.emulateMedia({ colorScheme: 'dark', media: 'print' });
    expect(await label.evaluate((t) => getComputedStyle(t).fill), `${place.path} print`).toBe('rgb(0, 0, 0)');
    expect(await step.evaluate((r) => getComputedStyle(r).fill), `${place.path} print`).toBe('rgb(255, 255, 255)');
    await page.emulateMedia({ colorScheme: null, media: null });
    // Real text, as drawn: every step's words are in the drawing.
    const drawn = squash((await fig(page, place.figure).locator('.figure-draw text').allTextContents()).join(''));
    for (const s of place.figure.steps) expect(drawn, `${place.path}: step ${s.id} drawn`).toContain(squash(s.label));
  }
  await context.close();
});

interface AXNode {
  role: string;
  name: string;
}
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
  // Its sources, each named once before its excerpts' lines (CiteLinks).
  return [s.label, ...bySource(s.cites).flatMap((g) => [g.label, ...g.cites.map((c) => shortLines(c.excerpt.lines))])];
}

for (const place of PLACES.filter((p, i) => PLACES.findIndex((q) => q.figure === p.figure) === i)) {
  test(`accessibility tree of "${place.figure.id}" on /${place.path}: its name, the drawing's, the steps as text in order`, async ({
    scriptlessPage: page,
    baseURL,
  }) => {
    await page.goto(`${baseURL}${place.path}`);
    const cdp = await page.context().newCDPSession(page);
    const id = routes.figureFragment(place.figure.id);
    expect(await axNode(cdp, `#${id}`)).toEqual({ role: 'figure', name: expect.stringContaining(place.figure.title) });
    expect(await axNode(cdp, `#${id} .figure-draw`)).toEqual({ role: 'image', name: drawingName(place.figure) });

    // The text is collapsed at first: a screen reader meets it after the drawing as a closed
    // disclosure named for what it holds, and opens it with no script.
    const text = page.locator(`#${id} .figure-text`);
    await expect(text).not.toHaveAttribute('open');
    expect(await axNode(cdp, `#${id} .figure-text > summary`)).toEqual({
      role: 'DisclosureTriangle',
      name: expect.stringMatching(/^The figure as text/),
    });
    // Opened (no script needed), the order a screen reader hears the text in: lane by lane (each lane's name first),
    // each step's words, then its sources and excerpt links, or "our reading".
    // By keyboard (focus, then Enter): a click could land as the drawing above it is first laid out
    // (content-visibility: auto) and the summary moves, which failed once in CI.
    await text.locator('summary').press('Enter');
    await expect(text).toHaveAttribute('open');
    const heard = squash(await text.innerText());
    let at = 0;
    const expectNext = (words: string, what: string) => {
      const found = heard.indexOf(squash(words), at);
      expect(found, `${what}: "${words}" after position ${at} of the figure's text`).toBeGreaterThanOrEqual(at);
      at = found + squash(words).length;
    };
    // Stages that are all our own grouping are marked once, before them; otherwise each says its own.
    if (stagesOurs(place.figure))
      expectNext('its stages, our own grouping of the steps (our reading)', 'the stages, marked once');
    for (const stage of place.figure.stages)
      (stagesOurs(place.figure) ? [stage.label] : stepReading({ ...stage, backend: '' })).forEach((w) =>
        expectNext(w, `stage ${stage.id}`),
      );
    for (const lane of place.figure.lanes) {
      expectNext(lane.name, `lane ${lane.id}`);
      for (const s of place.figure.steps.filter((x) => x.backend === lane.id))
        stepReading(s).forEach((w) => expectNext(w, `step ${s.id}`));
    }
    // Each citation is a link named after its excerpt, to the excerpt's place on the site.
    for (const s of place.figure.steps.filter((x) => !x.reading)) {
      const links = page.locator(`#${routes.figureStepFragment(place.figure.id, s.id)} .cite-list a`);
      await expect(links).toHaveCount(s.cites.length);
      for (const [i, c] of bySource(s.cites)
        .flatMap((g) => g.cites)
        .entries())
        await expect(links.nth(i)).toHaveAccessibleName(shortLines(c.excerpt.lines));
    }
  });
}

/**
 * What the browser drew, per lane (each an <svg> in the figure's box): its box in the window, its
 * scale (rendered px per drawing unit), its stage bands' tops (drawn in the first lane, <use>d in the
 * others) and its step boxes' tops, in page px.
 */
interface DrawnLane {
  left: number;
  right: number;
  top: number;
  scale: number;
  bands: number[];
  steps: number[];
  smallestFont: number;
}
const drawn = (page: Page, f: FigureModel) =>
  fig(page, f)
    .locator('.figure-draw')
    .evaluate((box) => ({
      box: {
        left: box.getBoundingClientRect().left,
        right: box.getBoundingClientRect().right,
        width: box.clientWidth,
        scrollWidth: box.scrollWidth,
      },
      // The figure's box: as wide as the window less the page margins, and never scrolled.
      outer: box.parentElement!.clientWidth,
      window: document.documentElement.clientWidth,
      pageScrollWidth: document.documentElement.scrollWidth,
      lanes: [...box.querySelectorAll(':scope > svg')].map((svg): DrawnLane => {
        const r = svg.getBoundingClientRect();
        const scale = r.width / (svg as SVGSVGElement).viewBox.baseVal.width;
        const tops = (sel: string) =>
          [...svg.querySelectorAll(sel)].map((e) => e.getBoundingClientRect().top + scrollY);
        const fonts = [...svg.querySelectorAll('text, tspan')].map(
          (t) => parseFloat(getComputedStyle(t).fontSize) * scale,
        );
        return {
          left: r.left,
          right: r.right,
          top: r.top + scrollY,
          scale,
          bands: tops('rect.fig-stage, use'),
          steps: tops('rect.fig-step'),
          smallestFont: Math.min(...fonts),
        };
      }),
      // Anything in the figure that scrolls sideways (a scroll container wider than its box).
      scrollers: [...box.closest('figure')!.querySelectorAll('*')]
        .filter((e) => e.scrollWidth > e.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(e).overflowX))
        .map((e) => e.className),
    }));

for (const place of EVERY_PLACE) {
  test(`/${place.path}: "${place.figure.id}" whole at every width, no label under 12 px, stages in rows across the lanes`, async ({
    browser,
    baseURL,
  }) => {
    const layout = layoutFigure(place.figure);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseURL}${place.path}`);
    for (const width of WIDTHS) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme });
        const at = `${width} px, ${colorScheme}`;
        const d = await drawn(page, place.figure);
        expect(d.pageScrollWidth, `${at}: the page does not scroll sideways`).toBeLessThanOrEqual(d.window);
        expect(d.scrollers, `${at}: nothing in the figure scrolls sideways`).toEqual([]);
        expect(d.box.scrollWidth, `${at}: the drawing fits its box`).toBeLessThanOrEqual(d.box.width);
        expect(d.lanes).toHaveLength(place.figure.lanes.length);
        for (const [i, lane] of d.lanes.entries()) {
          const name = `${at}, lane ${place.figure.lanes[i]!.id}`;
          expect(lane.left, `${name}: inside the window`).toBeGreaterThanOrEqual(0);
          expect(lane.right, `${name}: inside the window`).toBeLessThanOrEqual(d.window);
          expect(lane.smallestFont, `${name}: smallest label, rendered px`).toBeGreaterThanOrEqual(12);
          expect(lane.bands, `${name}: one band per stage`).toHaveLength(place.figure.stages.length);
          // Each step in its stage's row: below its stage's band, above the next stage's.
          const steps = place.figure.steps.filter((s) => s.backend === place.figure.lanes[i]!.id);
          expect(lane.steps).toHaveLength(steps.length);
          steps.forEach((s, k) => {
            const stage = place.figure.stages.findIndex((x) => x.id === s.stage);
            expect(lane.steps[k]!, `${name}: ${s.id} below its stage's band`).toBeGreaterThan(lane.bands[stage]!);
            if (stage + 1 < lane.bands.length)
              expect(lane.steps[k]!, `${name}: ${s.id} above the next stage's band`).toBeLessThan(
                lane.bands[stage + 1]!,
              );
          });
        }
        // Side by side exactly when the box holds the lanes together (the layout's own width);
        // then every stage's band, and so its row, is at one height in every lane.
        const sideBySide = d.outer >= layout.width;
        const [first, ...rest] = d.lanes;
        for (const lane of rest) {
          if (sideBySide) {
            expect(lane.top, `${at}: lanes side by side`).toBeCloseTo(first!.top, 0);
            lane.bands.forEach((y, k) =>
              expect(y, `${at}: stage ${place.figure.stages[k]!.id} in one row`).toBeCloseTo(first!.bands[k]!, 0),
            );
          } else {
            expect(lane.top, `${at}: lanes one after another`).toBeGreaterThan(first!.top);
            lane.bands.forEach((y, k) =>
              expect(
                y - lane.top,
                `${at}: stage ${place.figure.stages[k]!.id} at the same place down each lane`,
              ).toBeCloseTo(first!.bands[k]! - first!.top, 0),
            );
          }
        }
      }
    }
    await context.close();
  });
}

test("axe: the drain page with its figure, and the home page's figure, clean in light and dark", async ({ page }) => {
  await page.goto(routes.page('drain'));
  await expectAxeCleanInBothSchemes(page, { include: `#${routes.figureFragment(TIMELINE.id)}` });
  await page.goto(routes.home);
  await expectAxeCleanInBothSchemes(page, { include: `#${routes.figureFragment(DISPATCH.id)}` });
});
