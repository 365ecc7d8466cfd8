// `verify:drift --update`: rewrites the pins of what only moved, as text edits of the content's
// YAML at the exact places of the values (the rest of each file is left byte for byte, so
// `git diff` shows only the pins). A source's commit is one pin for all its excerpts, so a source
// is brought to the new commit only when every one of its excerpts is unchanged or moved; a source
// with anything changed or gone (or not checkable) keeps all its pins, and the report says why.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isMap, isScalar, isSeq, parse, parseDocument, type Node, type Pair, type YAMLMap } from 'yaml';
import { siblingPath, type SourceResult } from './drift-check.ts';

interface Edit {
  start: number;
  end: number;
  text: string;
}

export interface UpdatePlan {
  /** Edits by absolute file path. */
  edits: Map<string, Edit[]>;
  /** One line per source brought to its new commit, saying what changed. */
  updated: string[];
  /** One line per source left as it is, and why. */
  kept: string[];
}

type Ranged = Node & { range: [number, number, number] };
const hasRange = (n: unknown): n is Ranged =>
  typeof n === 'object' && n !== null && Array.isArray((n as { range?: unknown }).range);

/** A scalar as YAML text: plain when it reads back as the same string, else double-quoted. */
const scalar = (value: string): string => {
  let same: boolean;
  try {
    same = parse(value) === value;
  } catch {
    same = false;
  }
  return same && !value.includes(': ') && !value.includes(' #') ? value : JSON.stringify(value);
};

/** Edits of one YAML list file: entries by index, keys set, added after another key, or removed. */
class YamlEdits {
  readonly edits: Edit[] = [];
  private readonly text: string;
  private readonly entries: unknown[];
  constructor(text: string) {
    this.text = text;
    const doc = parseDocument(text);
    this.entries = isSeq(doc.contents) ? doc.contents.items : [];
  }
  private pair(index: number, key: string): Pair<Ranged, Ranged> | undefined {
    const entry = this.entries[index];
    if (!isMap(entry)) return undefined;
    return (entry as YAMLMap).items.find((p) => isScalar(p.key) && p.key.value === key) as
      Pair<Ranged, Ranged> | undefined;
  }
  /** Replaces the value of `key` (written as `text`), keeping a quoted scalar's quotes. */
  set(index: number, key: string, text: string): void {
    const value = this.pair(index, key)?.value;
    if (!hasRange(value)) throw new Error(`no "${key}" in entry ${index}`);
    const old = this.text.slice(value.range[0], value.range[1]);
    const q = old[0];
    if ((q === '"' || q === "'") && !text.startsWith(q) && !text.startsWith('[') && !text.includes(q))
      text = `${q}${text}${q}`;
    if (old !== text) this.edits.push({ start: value.range[0], end: value.range[1], text });
  }
  /** Replaces the value of `key` in the map at `outer` of the entry (`code` → `lines`), written as `text`. */
  setIn(index: number, outer: string, key: string, text: string): void {
    const map = this.pair(index, outer)?.value;
    const value = isMap(map)
      ? ((map as YAMLMap).items.find((p) => isScalar(p.key) && p.key.value === key) as Pair<Ranged, Ranged> | undefined)
          ?.value
      : undefined;
    if (!hasRange(value)) throw new Error(`no "${outer}.${key}" in entry ${index}`);
    if (this.text.slice(value.range[0], value.range[1]) !== text)
      this.edits.push({ start: value.range[0], end: value.range[1], text });
  }
  /** Sets `key` to a plain value, adding the line after `after` when the entry has no such key. */
  put(index: number, key: string, value: string, after: string): void {
    if (this.pair(index, key)) return this.set(index, key, scalar(value));
    const prev = this.pair(index, after);
    if (!prev || !hasRange(prev.key) || !hasRange(prev.value)) throw new Error(`no "${after}" in entry ${index}`);
    const lineStart = this.text.lastIndexOf('\n', prev.key.range[0]) + 1;
    const indent = this.text.slice(lineStart, prev.key.range[0]).replace(/\S/g, ' ');
    const eol = this.text.indexOf('\n', prev.value.range[1]);
    const at = eol === -1 ? this.text.length : eol + 1;
    this.edits.push({ start: at, end: at, text: `${indent}${key}: ${scalar(value)}\n` });
  }
  /** Removes the line of `key` (a one-line key: value). */
  remove(index: number, key: string): void {
    const pair = this.pair(index, key);
    if (!pair || !hasRange(pair.key) || !hasRange(pair.value)) return;
    const start = this.text.lastIndexOf('\n', pair.key.range[0]) + 1;
    const eol = this.text.indexOf('\n', pair.value.range[1]);
    this.edits.push({ start, end: eol === -1 ? this.text.length : eol + 1, text: '' });
  }
}

/** Plans the edits; nothing is written (applyUpdate does). */
export function planUpdate(results: readonly SourceResult[]): UpdatePlan {
  const files = new Map<string, YamlEdits>();
  const editsOf = (file: string) => {
    const abs = resolve(file);
    if (!files.has(abs)) files.set(abs, new YamlEdits(readFileSync(abs, 'utf8')));
    return files.get(abs)!;
  };
  const updated: string[] = [];
  const kept: string[] = [];
  for (const r of results) {
    const { source, target, targetPath } = r;
    if (!r.upstream || !target) continue;
    const count = (s: string) =>
      r.items.filter((i) => (s === 'error' ? i.error !== undefined : i.drift?.state === s)).length;
    const blocking = ['changed', 'gone', 'error'].map((s) => [s, count(s)] as const).filter(([, n]) => n > 0);
    if (blocking.length > 0) {
      kept.push(
        `${source.id}: kept at ${source.commit.slice(0, 12)}: ${blocking.map(([s, n]) => `${n} ${s === 'error' ? 'not checkable' : s}`).join(', ')}; re-read those first, then move its pins by hand`,
      );
      continue;
    }
    if (targetPath === undefined) {
      kept.push(`${source.id}: kept: its file ${source.path} is not in the copy at ${target.slice(0, 12)}`);
      continue;
    }
    if (target === source.commit && count('moved') === 0) continue;
    // Every excerpt's file must still be the source's file or a sibling of it, for `path:` to say so.
    const paths = new Map<string, string | undefined>();
    let stray: string | undefined;
    for (const item of r.items) {
      const now = item.drift?.state === 'moved' ? item.drift.path : item.path;
      if (item.excerpt.path === undefined) {
        if (now !== targetPath) stray = `${item.id} is now in ${now}, not in the source's file ${targetPath}`;
      } else {
        const rel = siblingPath(targetPath, now);
        if (rel === undefined) stray = `${item.id}'s file ${now} is no longer beside ${targetPath}`;
        paths.set(item.id, rel);
      }
    }
    if (stray) {
      kept.push(`${source.id}: kept: ${stray}; move it by hand`);
      continue;
    }
    const sources = editsOf(source.file);
    sources.set(source.index, 'commit', scalar(target));
    if (targetPath !== source.path) sources.set(source.index, 'path', scalar(targetPath));
    if (r.targetDate) sources.put(source.index, 'committed', r.targetDate, 'commit');
    else sources.remove(source.index, 'committed');
    const moved: string[] = [];
    for (const item of r.items) {
      const e = item.excerpt;
      const excerpts = editsOf(e.file);
      const rel = paths.get(item.id);
      if (rel !== undefined && rel !== e.path) excerpts.set(e.index, 'path', scalar(rel));
      if (item.drift?.state === 'moved') {
        const [a, b] = item.drift.lines;
        if (a !== e.lines[0] || b !== e.lines[1]) excerpts.set(e.index, 'lines', `[${a}, ${b}]`);
        // The note's lines moved whole, so its verbatim code moved with them, by as many lines.
        const by = a - e.lines[0];
        if (e.code && by !== 0)
          excerpts.setIn(e.index, 'code', 'lines', `[${e.code.lines[0] + by}, ${e.code.lines[1] + by}]`);
        moved.push(item.id);
      }
    }
    updated.push(
      `${source.id}: ${source.commit.slice(0, 12)} -> ${target.slice(0, 12)}${r.targetDate ? ` (${r.targetDate})` : ''}` +
        `${targetPath !== source.path ? `, ${source.path} -> ${targetPath}` : ''}; ${moved.length} moved${moved.length > 0 ? `: ${moved.join(', ')}` : ''}`,
    );
  }
  return {
    edits: new Map([...files].filter(([, f]) => f.edits.length > 0).map(([abs, f]) => [abs, f.edits])),
    updated,
    kept,
  };
}

/** Applies a plan's edits; returns the files written. */
export function applyUpdate(plan: UpdatePlan): string[] {
  for (const [abs, edits] of plan.edits) {
    let text = readFileSync(abs, 'utf8');
    for (const e of [...edits].sort((x, y) => y.start - x.start))
      text = text.slice(0, e.start) + e.text + text.slice(e.end);
    writeFileSync(abs, text);
  }
  return [...plan.edits.keys()];
}
