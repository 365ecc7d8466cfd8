// The growth figures (issue 45), drawn at build time from a growth sweep's numbers
// (src/lib/evidence/growth.ts, summarize): "What one endpoint change writes, by cluster size" (the
// lines the change's sync wrote and its time, with the full sync's beside them) and "A new
// connection's set-up, by cluster size" (connect() times per mode). Each panel is one small SVG at
// its natural size (320 px wide: whole in a 360 px window, text never under 12 px), panels side by
// side as the width allows. Classes and the figures' colour properties only (figure-svg.css and
// svg.ts inlineStyle), so light, dark and print colours come from the page. Pure, no I/O.
import type { GrowthMode, GrowthSummaryPoint, Target } from '../evidence/growth.ts';

const W = 320;
const H = 250;
const M = { left: 62, right: 22, top: 34, bottom: 48 };
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (n: number) =>
  n >= 100
    ? Math.round(n).toLocaleString('en-US')
    : n >= 10
      ? n.toFixed(1).replace(/\.0$/, '')
      : String(Number(n.toPrecision(2)));

export interface Series {
  label: string;
  /** Marker shape: tells the series apart without colour. */
  marker: 'circle' | 'square' | 'triangle' | 'diamond';
  dashed?: boolean;
  /** Drawn in the accent colour (else the text colour). */
  accent?: boolean;
  points: Array<{ x: number; y: number; lo?: number; hi?: number }>;
}

interface Axis {
  log: boolean;
  min: number;
  max: number;
}
const logTicks = (min: number, max: number) => {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) out.push(10 ** e);
  return out;
};
const linTicks = (max: number) => {
  const step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000].find((s) => max / s <= 5) ?? 1000;
  const out: number[] = [];
  for (let v = 0; v < max + step; v += step) out.push(v);
  return out;
};

function marker(kind: Series['marker'], x: number, y: number, cls: string): string {
  const r = 4;
  switch (kind) {
    case 'circle':
      return `<circle class="${cls}" cx="${x}" cy="${y}" r="${r}"/>`;
    case 'square':
      return `<rect class="${cls}" x="${x - r}" y="${y - r}" width="${2 * r}" height="${2 * r}"/>`;
    case 'triangle':
      return `<path class="${cls}" d="M${x} ${y - r - 1}L${x + r + 1} ${y + r}H${x - r - 1}Z"/>`;
    case 'diamond':
      return `<path class="${cls}" d="M${x} ${y - r - 1}L${x + r + 1} ${y}L${x} ${y + r + 1}L${x - r - 1} ${y}Z"/>`;
  }
}

/** One panel: title, axes (x: Services, log), the series with their spread, and a legend below. */
export function panel(title: string, yLabel: string, series: Series[], y: { log: boolean; max?: number }): string {
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = series.flatMap((s) => s.points.flatMap((p) => [p.y, p.lo ?? p.y, p.hi ?? p.y]));
  const xa: Axis = { log: true, min: Math.min(...xs), max: Math.max(...xs) };
  const ya: Axis = y.log
    ? {
        log: true,
        min: 10 ** Math.floor(Math.log10(Math.min(...ys))),
        max: 10 ** Math.ceil(Math.log10(Math.max(...ys))),
      }
    : { log: false, min: 0, max: linTicks(Math.max(y.max ?? 0, ...ys) * 1.05).at(-1)! };
  const height = H + series.length * 16;
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const px = (v: number) =>
    M.left + ((Math.log10(v) - Math.log10(xa.min)) / (Math.log10(xa.max) - Math.log10(xa.min) || 1)) * pw;
  const py = (v: number) =>
    ya.log
      ? M.top + ph - ((Math.log10(v) - Math.log10(ya.min)) / (Math.log10(ya.max) - Math.log10(ya.min) || 1)) * ph
      : M.top + ph - ((v - ya.min) / (ya.max - ya.min || 1)) * ph;
  const r1 = (n: number) => Math.round(n * 10) / 10;
  const parts: string[] = [];
  parts.push(`<text class="fig-lane-title" x="${M.left}" y="16">${esc(title)}</text>`);
  const yTicks = ya.log ? logTicks(ya.min, ya.max) : linTicks(ya.max);
  for (const t of yTicks) {
    const yy = r1(py(t));
    parts.push(`<path class="fig-grid" d="M${M.left} ${yy}H${M.left + pw}"/>`);
    const tick = t >= 10000 ? `${t / 1000}k` : fmt(t);
    parts.push(`<text class="fig-prov" x="${M.left - 4}" y="${yy + 4}" text-anchor="end">${tick}</text>`);
  }
  const xTicks = [...new Set(xs)].sort((a, b) => a - b);
  for (const t of xTicks) {
    const xx = r1(px(t));
    parts.push(`<path class="fig-grid" d="M${xx} ${M.top}V${M.top + ph}"/>`);
    parts.push(`<text class="fig-prov" x="${xx}" y="${M.top + ph + 14}" text-anchor="middle">${fmt(t)}</text>`);
  }
  parts.push(`<path class="fig-axis" d="M${M.left} ${M.top}V${M.top + ph}H${M.left + pw}"/>`);
  parts.push(
    `<text class="fig-prov" x="${M.left + pw / 2}" y="${M.top + ph + 28}" text-anchor="middle">Services in the cluster (log scale)</text>`,
  );
  parts.push(
    `<text class="fig-prov" transform="translate(13 ${M.top + ph / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`,
  );
  for (const s of series) {
    const cls = s.accent ? 'fig-series fig-series--accent' : 'fig-series';
    const d = s.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${r1(px(p.x))} ${r1(py(p.y))}`).join('');
    parts.push(`<path class="${cls}${s.dashed ? ' fig-series--dashed' : ''}" d="${d}"/>`);
    for (const p of s.points) {
      if (p.lo !== undefined && p.hi !== undefined && p.hi > p.lo) {
        const xx = r1(px(p.x));
        parts.push(
          `<path class="${cls} fig-spread" d="M${xx - 3} ${r1(py(p.lo))}H${xx + 3}M${xx} ${r1(py(p.lo))}V${r1(py(p.hi))}M${xx - 3} ${r1(py(p.hi))}H${xx + 3}"/>`,
        );
      }
      parts.push(marker(s.marker, r1(px(p.x)), r1(py(p.y)), s.accent ? 'fig-mark fig-mark--accent' : 'fig-mark'));
    }
  }
  series.forEach((s, i) => {
    const lx = M.left;
    const ly = H + 2 + i * 16;
    const cls = s.accent ? 'fig-series fig-series--accent' : 'fig-series';
    parts.push(`<path class="${cls}${s.dashed ? ' fig-series--dashed' : ''}" d="M${lx} ${ly - 4}h18"/>`);
    parts.push(marker(s.marker, lx + 9, ly - 4, s.accent ? 'fig-mark fig-mark--accent' : 'fig-mark'));
    parts.push(`<text class="fig-prov" x="${lx + 22}" y="${ly}">${esc(s.label)}</text>`);
  });
  return `<svg class="fig fig-chart" xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" aria-hidden="true">${parts.join('')}</svg>`;
}

const MODE_NAME: Record<GrowthMode, string> = { iptables: 'iptables', nftables: 'nftables' };
const TARGET_NAME: Record<Target, string> = {
  first: 'first Service in the walk',
  middle: 'middle Service',
  last: 'last Service in the walk',
  pod: 'Pod address, through the node',
  floor: 'no node between (floor)',
};

/** The change's sync's lines (median, and the range over the changes' directions). */
const lines = (w: Record<string, string>) => {
  const all = Object.values(w).flatMap((v) => v.split(', ').map((x) => Number(x.split('/')[0])));
  const s = [...all].sort((a, b) => a - b);
  return { y: s[Math.floor((s.length - 1) / 2)]!, lo: s[0]!, hi: s.at(-1)! };
};

/** The panels of "What one endpoint change writes, by cluster size". */
export function writesPanels(points: GrowthSummaryPoint[]): string[] {
  const x = (p: GrowthSummaryPoint) => p.services;
  const modes = ['iptables', 'nftables'] as const;
  const written: Series[] = modes.flatMap((m, i) => [
    {
      label: `${MODE_NAME[m]}: the change`,
      marker: i === 0 ? ('circle' as const) : ('square' as const),
      accent: i === 0,
      points: points.map((p) => ({ x: x(p), ...lines(p.modes[m].writes) })),
    },
    {
      label: `${MODE_NAME[m]}: a full sync`,
      marker: i === 0 ? ('triangle' as const) : ('diamond' as const),
      accent: i === 0,
      dashed: true,
      points: points.map((p) => ({ x: x(p), y: p.modes[m].full.lines })),
    },
  ]);
  const time: Series[] = modes.flatMap((m, i) => [
    {
      label: `${MODE_NAME[m]}: the change`,
      marker: i === 0 ? ('circle' as const) : ('square' as const),
      accent: i === 0,
      points: points.map((p) => ({
        x: x(p),
        y: p.modes[m].change.median * 1000,
        lo: p.modes[m].change.min * 1000,
        hi: p.modes[m].change.max * 1000,
      })),
    },
    {
      label: `${MODE_NAME[m]}: a full sync`,
      marker: i === 0 ? ('triangle' as const) : ('diamond' as const),
      accent: i === 0,
      dashed: true,
      points: points.map((p) => ({
        x: x(p),
        y: p.modes[m].full.median * 1000,
        lo: p.modes[m].full.min * 1000,
        hi: p.modes[m].full.max * 1000,
      })),
    },
  ]);
  return [
    panel('Lines the sync wrote', 'lines (log scale)', written, { log: true }),
    panel("The sync's time, kube-proxy's own", 'milliseconds (log scale)', time, { log: true }),
  ];
}

/** The panels of "A new connection's set-up, by cluster size": one per mode, the same scale. */
export function connectPanels(points: GrowthSummaryPoint[]): string[] {
  const shown: Array<[Target, Series['marker'], boolean]> = [
    ['last', 'circle', true],
    ['first', 'square', true],
    ['pod', 'triangle', false],
    ['floor', 'diamond', false],
  ];
  const top = Math.max(
    ...points.flatMap((p) =>
      ['iptables', 'nftables'].flatMap((m) => shown.map(([t]) => p.modes[m as GrowthMode].connect[t].p90)),
    ),
  );
  return (['iptables', 'nftables'] as const).map((m) => {
    const series: Series[] = shown.map(([t, mk, accent], i) => ({
      label: TARGET_NAME[t].replace(' in the walk', '').replace(', through the node', ''),
      marker: mk,
      accent,
      dashed: i >= 2,
      points: points.map((p) => {
        const c = p.modes[m].connect[t];
        return { x: p.services, y: c.median, lo: c.p10, hi: c.p90 };
      }),
    }));
    // Both panels on the same scale, so that they compare at a glance.
    return panel(`${MODE_NAME[m]}: connect() to`, 'microseconds, median (p10-p90)', series, { log: false, max: top });
  });
}

export { TARGET_NAME, MODE_NAME, fmt };
