// Text for the figures' SVG: a label split into runs of plain text and `code`, wrapped to a width
// measured with DejaVu Sans's advance widths (the figure's first font; the fallbacks are narrower,
// so text measured this way fits its box in any of them).

export interface Run {
  text: string;
  code: boolean;
}
export type Line = Run[];

// DejaVu Sans advance widths in em for printable ASCII (32..126), from the font's hmtx table
// rounded to 3 places; DejaVu Sans Mono is 0.602 em for every character.
const SANS = [
  0.318, 0.401, 0.46, 0.838, 0.636, 0.95, 0.78, 0.275, 0.39, 0.39, 0.5, 0.838, 0.318, 0.361, 0.318, 0.337, 0.636, 0.636,
  0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.337, 0.337, 0.838, 0.838, 0.838, 0.531, 1.0, 0.684, 0.686,
  0.698, 0.77, 0.632, 0.575, 0.775, 0.752, 0.295, 0.295, 0.656, 0.557, 0.863, 0.748, 0.787, 0.603, 0.787, 0.695, 0.635,
  0.611, 0.732, 0.684, 0.989, 0.685, 0.611, 0.685, 0.39, 0.337, 0.39, 0.838, 0.5, 0.5, 0.613, 0.635, 0.55, 0.635, 0.615,
  0.352, 0.635, 0.634, 0.278, 0.278, 0.579, 0.278, 0.974, 0.634, 0.612, 0.635, 0.635, 0.411, 0.521, 0.392, 0.634, 0.592,
  0.818, 0.592, 0.592, 0.525, 0.636, 0.337, 0.636, 0.838,
];
const MONO = 0.602;
/** Anything outside ASCII (…, —, ’): as wide as the widest common glyphs, so it never overflows. */
const OTHER = 1.0;

export function textWidth(text: string, fontSize: number, code = false): number {
  let em = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    em += code ? MONO : c >= 32 && c <= 126 ? SANS[c - 32]! : OTHER;
  }
  return em * fontSize;
}

/** "`KUBE-SVC-…` chain" -> [{code KUBE-SVC-…}, {text " chain"}]. */
export function runsOf(label: string): Run[] {
  return label
    .split('`')
    .map((text, i) => ({ text, code: i % 2 === 1 }))
    .filter((r) => r.text !== '');
}

/** Code is set a little smaller than the text around it, and never under 12 px (figure-svg.css `.fig-code`). */
export const CODE_SCALE = 12 / 13;
const runWidth = (r: Run, fontSize: number) => textWidth(r.text, fontSize * (r.code ? CODE_SCALE : 1), r.code);
export const lineWidth = (line: Line, fontSize: number): number => line.reduce((w, r) => w + runWidth(r, fontSize), 0);

/** Greedy wrap at spaces; a code span breaks only at its own spaces, never inside a word. */
export function wrap(label: string, maxWidth: number, fontSize: number): Line[] {
  // Words keep their runs: "`KUBE-SEP-…`," is one word of two runs.
  const words: Run[][] = [[]];
  for (const run of runsOf(label)) {
    run.text.split(/( )/).forEach((part) => {
      if (part === ' ') words.push([]);
      else if (part !== '') words[words.length - 1]!.push({ text: part, code: run.code });
    });
  }
  const lines: Line[] = [];
  let line: Line = [];
  const space = (code: boolean): Run => ({ text: ' ', code });
  for (const word of words.filter((w) => w.length > 0)) {
    const candidate =
      line.length === 0 ? word : [...line, space(line[line.length - 1]!.code && word[0]!.code), ...word];
    if (line.length > 0 && lineWidth(candidate, fontSize) > maxWidth) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line.length > 0) lines.push(line);
  // Adjacent runs of the same kind merge: fewer <tspan>s.
  return lines.map((l) =>
    l.reduce<Line>((acc, r) => {
      const last = acc[acc.length - 1];
      if (last && last.code === r.code) last.text += r.text;
      else acc.push({ ...r });
      return acc;
    }, []),
  );
}
