// Link-preview images (Open Graph / Twitter cards), 1200x630 PNG, drawn at build time from the
// table model and nothing else: an axis's question, and per backend its short answer and its
// provenance in words; the home page's title, the backends and the cell counts. satori lays the card out as
// SVG, resvg rasterises it. The font is DejaVu Sans from an npm package (@fontsource/dejavu-sans,
// latin subset, .woff: satori reads ttf/otf/woff, not woff2), so every build draws the same pixels
// whatever fonts the machine has. Plain Node: the endpoints in src/pages/og/ and the unit tests
// both call it.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PROVENANCE_LABEL, type AxisModel, type TableModel, type Provenance } from './view/model.ts';
import { cellBadgeWords, homeQuestions, shortWords } from './preview-text.ts';
import { COMMITTED_DIR, isOwnContent, buildCacheDir, pinnedVersions } from './preview-cache.ts';

export const PREVIEW = { width: 1200, height: 630, type: 'image/png' } as const;

// Resolved from the project root: the built endpoint runs from a chunk under the output folder.
const require = createRequire(join(process.cwd(), 'package.json'));
const font = (weight: 400 | 700) =>
  readFileSync(require.resolve(`@fontsource/dejavu-sans/files/dejavu-sans-latin-${weight}-normal.woff`));
let fonts: { name: string; data: Buffer; weight: 400 | 700; style: 'normal' }[] | undefined;
const loadFonts = () =>
  (fonts ??= [
    { name: 'DejaVu Sans', data: font(400), weight: 400, style: 'normal' },
    { name: 'DejaVu Sans', data: font(700), weight: 700, style: 'normal' },
  ]);

// The site's light palette (src/styles/tokens.css), so a card looks like the page it previews.
const C = {
  bg: '#ffffff',
  text: '#1b1d21',
  muted: '#4a5058',
  border: '#c9ced6',
  accent: '#1f4fa3',
  soft: '#f4f6f8',
  measured: '#0f5c2e',
  'to-measure': '#7a4a00',
  cited: '#1f4fa3',
} as const;
const BORDER: Record<Provenance, string> = { measured: 'solid', 'to-measure': 'dashed', cited: 'dotted' };

/** A satori element: what JSX would make, without a JSX runtime. */
type Node = { type: string; props: Record<string, unknown> & { style?: Record<string, unknown>; children?: unknown } };
const h = (type: string, style: Record<string, unknown>, ...children: unknown[]): Node => ({
  type,
  props: { style: { display: 'flex', ...style }, children: children.length === 1 ? children[0] : children },
});

/** At most `lines` lines of text, cut with an ellipsis (satori's line clamp), never reworded. */
const clamp = (lines: number) => ({ display: 'block', lineClamp: lines, overflow: 'hidden' });

function frame(top: string, ...body: Node[]): Node {
  // The padding sits on an inner box of explicit size: satori does not take a root's padding off its children's width.
  return h(
    'div',
    { width: PREVIEW.width, height: PREVIEW.height, background: C.bg, borderTop: `14px solid ${C.accent}` },
    h(
      'div',
      {
        width: PREVIEW.width - 2 * PAD_X,
        height: PREVIEW.height - 14 - 2 * PAD_Y,
        margin: `${PAD_Y}px ${PAD_X}px`,
        flexDirection: 'column',
        color: C.text,
        fontFamily: 'DejaVu Sans',
      },
      h('div', { fontSize: 24, color: C.muted, marginBottom: 20 }, top),
      ...body,
    ),
  );
}
const PAD_X = 56;
const PAD_Y = 40;

/** A cell's badge: its kind's colour, and its border's style (solid, dashed, dotted) as on the page. */
const badge = (cell: AxisModel['cells'][number], fontSize: number, words: string): Node =>
  h(
    'div',
    {
      fontSize,
      fontWeight: 700,
      color: C[cell.provenance],
      border: `3px ${BORDER[cell.provenance]} ${C[cell.provenance]}`,
      borderRadius: 6,
      padding: '2px 10px',
      alignSelf: 'flex-start',
    },
    words,
  );

export function axisCard(axis: AxisModel, model: TableModel): Node {
  return frame(
    `${model.site.shortTitle} · one axis, as of Kubernetes ${model.site.asOf}`,
    h('div', { fontSize: 52, fontWeight: 700, lineHeight: 1.15, marginBottom: 26, ...clamp(2) }, axis.question),
    // Per backend, what the table shows at a glance: its short answer and its badge.
    h(
      'div',
      { gap: 20, flexGrow: 1 },
      ...axis.cells.map((cell) =>
        h(
          'div',
          {
            flexDirection: 'column',
            flex: 1,
            background: C.soft,
            border: `1px solid ${C.border}`,
            borderRadius: 8,
            padding: '14px 18px',
          },
          h('div', { fontSize: 30, fontWeight: 700 }, cell.backend.name),
          h(
            'div',
            { fontSize: 20, color: C.muted, marginBottom: 10 },
            cell.backend.run ? 'run in the lab' : 'read, not run',
          ),
          h(
            'div',
            { fontSize: 25, lineHeight: 1.3, color: C.text, flexGrow: 1, marginBottom: 12, ...clamp(6) },
            shortWords(cell),
          ),
          // The kind alone: the card's column already says whether its backend ran in the lab.
          badge(cell, 24, PROVENANCE_LABEL[cell.provenance]),
        ),
      ),
    ),
  );
}

/** One cell's card: its axis's question, then its backend's short answer alone, large, and its badge. */
export function cellCard(axis: AxisModel, cell: AxisModel['cells'][number], model: TableModel): Node {
  return frame(
    `${model.site.shortTitle} · one cell, as of Kubernetes ${model.site.asOf}`,
    h('div', { fontSize: 40, fontWeight: 700, lineHeight: 1.2, marginBottom: 24, ...clamp(2) }, axis.question),
    h(
      'div',
      {
        flexDirection: 'column',
        flexGrow: 1,
        background: C.soft,
        border: `1px solid ${C.border}`,
        borderLeft: `10px solid ${C.accent}`,
        borderRadius: 8,
        padding: '20px 28px',
      },
      h(
        'div',
        { alignItems: 'baseline', gap: 18, marginBottom: 12 },
        h('div', { fontSize: 44, fontWeight: 700 }, cell.backend.name),
        h('div', { fontSize: 24, color: C.muted }, cell.backend.run ? 'run in the lab' : 'read, not run'),
      ),
      h(
        'div',
        { fontSize: 44, lineHeight: 1.3, color: C.text, flexGrow: 1, marginBottom: 14, ...clamp(4) },
        shortWords(cell),
      ),
      badge(cell, 26, cellBadgeWords(cell)),
    ),
  );
}

export function homeCard(model: TableModel): Node {
  const counts = (['measured', 'to-measure', 'cited'] as const).map((p) => `${model.counts[p]} ${PROVENANCE_LABEL[p]}`);
  return frame(
    `kube-proxy backends compared, as of Kubernetes ${model.site.asOf}`,
    h('div', { fontSize: 50, fontWeight: 700, lineHeight: 1.15, marginBottom: 24, ...clamp(3) }, model.site.title),
    h(
      'div',
      { fontSize: 28, marginBottom: 10 },
      `${model.backends.map((b) => (b.run ? b.name : `${b.name} (read, not run)`)).join(' · ')}`,
    ),
    h(
      'div',
      { fontSize: 28, color: C.muted, flexGrow: 1 },
      `${model.axes.length} axes, each cell marked how it knows: ${counts.join(', ')}`,
    ),
    h(
      'div',
      { flexDirection: 'column', fontSize: 22, color: C.muted, lineHeight: 1.35 },
      ...homeQuestions(model).map((q) => h('div', { ...clamp(1) }, `• ${q}`)),
    ),
  );
}

// Drawing cards is a large part of a clean build (the first one loads satori, resvg and sharp;
// docs/performance.md). So each PNG is kept, named by a hash of everything that decides
// its pixels: the card (all its text and styles), the font files and the renderers' versions. Two
// places hold them:
//   - preview-images/ in the repository, for the project's own content: a clean checkout (CI, a
//     host's deploy build) has every card already and draws none. A build of content/ that draws a
//     card writes it there, to be committed with the content change, and removes the cards no page
//     uses any more (preview-cache.ts, at the end of the build);
//   - the build cache (CACHE_DIR, else Astro's own, node_modules/.astro) for any other content folder
//     (tests, the benchmark's synthetic tables), which must never write into the repository.
const cacheDir = buildCacheDir('preview-images');
// The renderers' versions as package.json pins them (sharp exports no package.json).
const pinned = pinnedVersions();
let fontHash: string | undefined;
const cacheKey = (card: Node): string => {
  fontHash ??= createHash('sha256').update(font(400)).update(font(700)).digest('hex');
  return createHash('sha256')
    .update(JSON.stringify({ card, renderers: ['satori', '@resvg/resvg-js', 'sharp'].map((p) => `${p}@${pinned[p]}`) }))
    .update(fontHash)
    .digest('hex');
};

/** The card as a PNG: from preview-images/ or the build cache when it was drawn before. */
export async function renderPng(card: Node): Promise<Buffer> {
  const name = `${cacheKey(card)}.png`;
  for (const dir of [COMMITTED_DIR, cacheDir]) {
    try {
      return readFileSync(join(dir, name));
    } catch {
      /* not drawn yet */
    }
  }
  const png = await drawPng(card);
  const dir = isOwnContent() ? COMMITTED_DIR : cacheDir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), png);
  return png;
}

/**
 * The card as a PNG. resvg's full-colour PNG of a text card is 55-85 KB; a 256-colour palette
 * (sharp, Astro's own image library) without dithering looks the same and is about 40% of that.
 */
export async function drawPng(card: Node): Promise<Buffer> {
  // Loaded on the first card drawn, not at import: a build whose cards are all cached never loads them.
  const [{ default: satori }, { Resvg }, { default: sharp }] = await Promise.all([
    import('satori'),
    import('@resvg/resvg-js'),
    import('sharp'),
  ]);
  const svg = await satori(card as Parameters<typeof satori>[0], {
    width: PREVIEW.width,
    height: PREVIEW.height,
    fonts: loadFonts(),
  });
  const png = new Resvg(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } }).render().asPng();
  return sharp(png).png({ palette: true, dither: 0, effort: 1, compressionLevel: 9 }).toBuffer();
}
