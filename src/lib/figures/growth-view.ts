// The growth figures as the site shows them: the newest growth sweep (content/growth/, read and
// checked by the content reader) drawn once per build (growth-chart.ts), with its text equivalent
// and the table of its numbers. The route data (src/lib/route/data.ts) places it on the axes it
// measures, on pages that embed <GrowthFigures /> and on the sweep's own page.
import { getCollection } from 'astro:content';
import type { GrowthEntry } from '../content/entries.ts';
import { GROWTH_MODES, TARGETS, type GrowthSummaryPoint } from '../evidence/growth.ts';
import { routes } from '../routes.ts';
import { connectPanels, writesPanels, fmt, TARGET_NAME } from './growth-chart.ts';
import { inlineStyle } from './svg.ts';
import figureCss from './figure-svg.css?raw';

/** The axes whose pages show the growth figures: what the sweep measures. */
export const GROWTH_AXES: readonly string[] = ['endpoint-change', 'dispatch'];

export interface GrowthView {
  id: string;
  href: string;
  captured: string;
  points: GrowthSummaryPoint[];
  /** Where and how it was measured, in one sentence built from the file's fields. */
  where: string;
  writes: { svg: string; text: string[] };
  connect: { svg: string; text: string[] };
}

const ms = (s: number) => fmt(s * 1000);
const n = (x: number) => x.toLocaleString('en-US');

/** What the figures show, in sentences built from the numbers (the figures' text equivalent). */
export function writesText(points: GrowthSummaryPoint[]): string[] {
  return GROWTH_MODES.map((m) => {
    const each = points.map((p) => {
      const w = Object.values(p.modes[m].writes)
        .join(', ')
        .split(', ')
        .map((v) => Number(v.split('/')[0]));
      const lo = Math.min(...w);
      const hi = Math.max(...w);
      const f = p.modes[m].full;
      return `${n(p.services)} Services: ${lo === hi ? n(lo) : `${n(lo)}-${n(hi)}`} lines in ${ms(p.modes[m].change.median)} ms (median; full sync ${n(f.lines)} lines in ${ms(f.median)} ms)`;
    });
    return `${m}, the one-endpoint change's sync: ${each.join('; ')}.`;
  });
}

export function connectText(points: GrowthSummaryPoint[]): string[] {
  return GROWTH_MODES.map((m) => {
    const each = points.map((p) => {
      const c = p.modes[m].connect;
      return `${n(p.services)} Services: last ${fmt(c.last.median)} µs, first ${fmt(c.first.median)} µs, Pod address ${fmt(c.pod.median)} µs, floor ${fmt(c.floor.median)} µs`;
    });
    return `${m}, median connect() time: ${each.join('; ')}.`;
  });
}

/** The figures' table: one row per size and mode. */
export function tableRows(points: GrowthSummaryPoint[]): string[][] {
  return points.flatMap((p) =>
    GROWTH_MODES.map((m) => {
      const v = p.modes[m];
      return [
        n(p.services),
        m,
        Object.entries(v.writes)
          .map(([dir, w]) => `${dir}: ${w}`)
          .join('; '),
        `${ms(v.change.median)} (${ms(v.change.min)}-${ms(v.change.max)}), n=${v.change.n}`,
        `${n(v.full.lines)}/${n(v.full.chains)}/${n(v.full.rules)}`,
        `${ms(v.full.median)} (${ms(v.full.min)}-${ms(v.full.max)}), n=${v.full.n}`,
        ...TARGETS.map((t) => {
          const c = v.connect[t];
          return `${fmt(c.median)} (${fmt(c.p10)}-${fmt(c.p90)})${c.position !== undefined ? ` at ${n(c.position)}` : ''}`;
        }),
      ];
    }),
  );
}
export const TABLE_HEAD = [
  'Services',
  'mode',
  'change: lines/chains/rules',
  'change sync, ms: median (min-max)',
  'full sync: lines/chains/rules',
  'full sync, ms: median (min-max)',
  ...TARGETS.map((t) => `connect(), µs: ${TARGET_NAME[t]}`),
];

export function growthView(entry: GrowthEntry & { points: GrowthSummaryPoint[] }): GrowthView {
  const style = inlineStyle(figureCss);
  return {
    id: entry.id,
    href: routes.evidence(entry.id),
    captured: entry.captured,
    points: entry.points,
    where: `Measured on one machine (${entry.machine}; Linux ${entry.kernel}), ${entry.captured}, load average ${entry.loadavg[0]!.split(' ').slice(0, 3).join(' ')} at the start and ${entry.loadavg.at(-1)!.split(' ').slice(0, 3).join(' ')} at the end; kube-proxy ${entry.kubernetes} in each mode on Pods simulated by KWOK, connections between network namespaces of that machine.`,
    writes: { svg: style + writesPanels(entry.points).join(''), text: writesText(entry.points) },
    connect: { svg: style + connectPanels(entry.points).join(''), text: connectText(entry.points) },
  };
}

/** Every sweep the reader accepted, newest first, with its figures (each has a page of its own). */
export async function getGrowthSweeps(): Promise<Array<{ entry: GrowthEntry; view: GrowthView }>> {
  return (await getCollection('growth'))
    .map((e) => e.data as GrowthEntry)
    .filter((e): e is GrowthEntry & { points: GrowthSummaryPoint[] } => e.points !== undefined)
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt))
    .map((entry) => ({ entry, view: growthView(entry) }));
}

let cached: Promise<GrowthView | undefined> | undefined;
async function build(): Promise<GrowthView | undefined> {
  return (await getGrowthSweeps())[0]?.view;
}
/** The newest sweep's figures; built once per build, afresh on every request in dev. */
export function getGrowth(): Promise<GrowthView | undefined> {
  if (import.meta.env.DEV) return build();
  cached ??= build();
  return cached;
}
