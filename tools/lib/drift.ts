// Source drift: where the lines an excerpt or a code note is pinned to are in a newer copy of their
// file. Pure module (no I/O): tools/lib/drift-upstream.ts reads the files, tools/verify-drift.ts
// runs it over the content, and the unit tests drive it directly.
//   unchanged  the pinned lines are the same text at the same numbers (same path);
//   moved      the same text elsewhere in the file, or the file renamed (new path and/or lines);
//   changed    the pinned text is not in the file any more: a short word diff against the
//              lines closest to where it was;
//   gone       the file is not there (nor under a name git sees it renamed to).
// Lines are compared exactly: "the same text" is the same characters on the same number of lines.
// The line diff (where the pinned lines went) and the word diff come from the `diff` package.
import { diffArrays, diffWords } from 'diff';
import { splitLines } from '../../src/lib/upstream/index.ts';

export type DriftState = 'unchanged' | 'moved' | 'changed' | 'gone';
export type Lines = [number, number];

export type Drift =
  | { state: 'unchanged'; lines: Lines }
  | { state: 'moved'; lines: Lines; path: string }
  | { state: 'changed'; path: string; closest?: Lines; diff: string }
  | { state: 'gone' };

/**
 * For each line of `before` (0-based), its 0-based line in `after` when the line diff keeps it, or
 * -1 when the diff removes it; plus, for each line of `before`, the line of `after` where its
 * removal left a gap (the next kept or added line), so a changed range can be followed.
 */
export interface LineMap {
  kept: number[];
  at: number[];
  added: Array<{ oldAt: number; from: number; to: number }>;
}

export function lineMap(before: readonly string[], after: readonly string[]): LineMap {
  const kept: number[] = [];
  const at: number[] = [];
  const added: LineMap['added'] = [];
  let o = 0;
  let n = 0;
  for (const part of diffArrays(before as string[], after as string[])) {
    const count = part.count ?? part.value.length;
    if (part.added) {
      added.push({ oldAt: o, from: n, to: n + count - 1 });
      n += count;
    } else if (part.removed) {
      for (let i = 0; i < count; i++) {
        kept.push(-1);
        at.push(n);
      }
      o += count;
    } else {
      for (let i = 0; i < count; i++) {
        kept.push(n + i);
        at.push(n + i);
      }
      o += count;
      n += count;
    }
  }
  return { kept, at, added };
}

const sameAt = (file: readonly string[], start: number, block: readonly string[]): boolean =>
  start >= 0 && start + block.length <= file.length && block.every((line, i) => file[start + i] === line);

/** Every 0-based start where `block` occurs in `file`. */
export function occurrences(file: readonly string[], block: readonly string[]): number[] {
  const found: number[] = [];
  for (let i = 0; i + block.length <= file.length; i++)
    if (file[i] === block[0] && sameAt(file, i, block)) found.push(i);
  return found;
}

const words = (text: string): string[] => text.split(/\s+/).filter((w) => w !== '');

/** How alike two texts are in words, 0..1 (Dice coefficient over their word multisets). */
export function similarity(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.length + wb.length === 0) return 1;
  const count = new Map<string, number>();
  for (const w of wa) count.set(w, (count.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of wb) {
    const c = count.get(w) ?? 0;
    if (c > 0) {
      common++;
      count.set(w, c - 1);
    }
  }
  return (2 * common) / (wa.length + wb.length);
}

/**
 * The 0-based, inclusive range of `after` that the diff puts where `before[a..b]` was: the kept
 * lines of the range and the lines added among or beside its removed ones. Undefined when the
 * range was removed and nothing took its place.
 */
export function followedRange(map: LineMap, a: number, b: number): [number, number] | undefined {
  const inRange: number[] = [];
  for (let i = a; i <= b; i++) if ((map.kept[i] ?? -1) >= 0) inRange.push(map.kept[i]!);
  const removed = (i: number) => i >= a && i <= b && map.kept[i] === -1;
  for (const add of map.added) {
    // Added at old position oldAt: between old lines oldAt-1 and oldAt. It belongs to the range when
    // it is strictly inside it, or beside a removed line of the range (a replacement).
    const inside = add.oldAt > a && add.oldAt <= b;
    if (inside || removed(add.oldAt - 1) || removed(add.oldAt)) inRange.push(add.from, add.to);
  }
  if (inRange.length === 0) return undefined;
  return [Math.min(...inRange), Math.max(...inRange)];
}

/** The window of `size` lines of `file` most like `text` (0-based start), if any shares a word. */
export function likestWindow(file: readonly string[], size: number, text: string): number | undefined {
  let best: number | undefined;
  let score = 0;
  for (let i = 0; i + size <= file.length; i++) {
    const s = similarity(text, file.slice(i, i + size).join('\n'));
    if (s > score) {
      score = s;
      best = i;
    }
  }
  return best;
}

const MAX_DIFF = 320;
const CONTEXT = 4;

/**
 * A short word diff, `[-removed-]{+added+}` as `git diff --word-diff=plain` writes it, with at most
 * CONTEXT words of unchanged text around each change and the rest left out ("…").
 */
export function wordDiff(before: string, after: string): string {
  const parts = diffWords(before, after);
  if (!parts.some((p) => p.added || p.removed)) return '';
  let out = '';
  parts.forEach((p, i) => {
    const text = p.value.replace(/\s+/g, ' ');
    if (p.removed) out += `[-${text}-]`;
    else if (p.added) out += `{+${text}+}`;
    else {
      const w = words(text);
      const lead = text.startsWith(' ') ? ' ' : '';
      const trail = text.endsWith(' ') ? ' ' : '';
      const first = i === 0;
      const last = i === parts.length - 1;
      if (w.length <= (first || last ? CONTEXT : 2 * CONTEXT)) out += text;
      else if (first) out += `… ${w.slice(-CONTEXT).join(' ')}${trail}`;
      else if (last) out += `${lead}${w.slice(0, CONTEXT).join(' ')} …`;
      else out += `${lead}${w.slice(0, CONTEXT).join(' ')} … ${w.slice(-CONTEXT).join(' ')}${trail}`;
    }
  });
  out = out.trim();
  return out.length > MAX_DIFF ? `${out.slice(0, MAX_DIFF - 1)}…` : out;
}

/** What a comparison needs: the file at the pinned commit, the pinned lines, and the file now (null: gone). */
export interface DriftInput {
  pinned: string;
  lines: Lines;
  /** The file now, or null when it is gone. */
  now: string | null;
  /** Its path now: the pinned path, or where git sees it renamed. */
  nowPath: string;
  /** Whether nowPath differs from the pinned path (a rename counts as a move). */
  renamed: boolean;
}

/** Classifies one pin. Throws when the pinned lines are not in the pinned file (a broken pin, not drift). */
export function classify({ pinned, lines, now, nowPath, renamed }: DriftInput): Drift {
  const before = splitLines(pinned);
  const [a, b] = lines;
  if (a < 1 || b < a || b > before.length)
    throw new Error(`lines ${a}-${b} are not in the file at the pinned commit (${before.length} lines)`);
  if (now === null) return { state: 'gone' };
  const after = splitLines(now);
  const block = before.slice(a - 1, b);
  if (sameAt(after, a - 1, block))
    return renamed ? { state: 'moved', lines, path: nowPath } : { state: 'unchanged', lines };
  const map = lineMap(before, after);
  const target = map.at[a - 1] ?? after.length;
  const found = occurrences(after, block);
  if (found.length > 0) {
    const start = found.reduce((best, s) => (Math.abs(s - target) < Math.abs(best - target) ? s : best));
    return { state: 'moved', lines: [start + 1, start + block.length], path: nowPath };
  }
  const text = block.join('\n');
  let closest = followedRange(map, a - 1, b - 1);
  const window = likestWindow(after, block.length, text);
  if (window !== undefined) {
    const followed = closest ? similarity(text, after.slice(closest[0], closest[1] + 1).join('\n')) : 0;
    if (similarity(text, after.slice(window, window + block.length).join('\n')) > followed)
      closest = [window, window + block.length - 1];
  }
  if (!closest) return { state: 'changed', path: nowPath, diff: `[-${words(text).join(' ')}-]` };
  const diff = wordDiff(text, after.slice(closest[0], closest[1] + 1).join('\n'));
  return {
    state: 'changed',
    path: nowPath,
    closest: [closest[0] + 1, closest[1] + 1],
    diff: diff || '(whitespace only)',
  };
}
