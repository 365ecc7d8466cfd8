// One YAML file, parsed with positions: `at(path)` gives the line and column of the deepest part
// of a path that exists (a field's key, a list item), so every problem can point at its line.
import { LineCounter, parseDocument, isMap, isSeq, isScalar, type Node } from 'yaml';
import type { Problem, Seek, YamlPath } from '../problems.ts';

export interface Pos {
  line: number;
  col: number;
}

export interface YamlFile {
  file: string;
  /** The parsed value, or undefined when the file does not parse. */
  value: unknown;
  /** The parse error, with its line and column (none when the file parses). */
  problems: Problem[];
  /** Where a path is (its key, or list item); with `seek`, where that text is inside its value. */
  at(path: YamlPath, seek?: Seek): Pos;
}

export function parseYaml(text: string, file: string, lineOffset = 0): YamlFile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const pos = (offset: number): Pos => {
    const { line, col } = lines.linePos(offset);
    return { line: line + lineOffset, col };
  };
  // An error found at the end of the file (an unclosed bracket) points at its last line of text.
  const lastText = text.trimEnd().length;
  // The first error only: the parser's later errors in the same file follow from it.
  const problems: Problem[] = doc.errors.slice(0, 1).map((e) => ({
    file,
    ...pos(Math.min(e.pos[0], Math.max(0, lastText - 1))),
    problem: `malformed YAML: ${e.message.split('\n')[0]} (fix the syntax on this line)`,
  }));

  const at = (path: YamlPath, seek?: Seek): Pos => {
    let node: unknown = doc.contents;
    let found = node && isNodeWithRange(node) ? pos(node.range[0]) : { line: 1 + lineOffset, col: 1 };
    let whole = true;
    for (const key of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(key));
        if (!pair) {
          whole = false;
          break;
        }
        if (isNodeWithRange(pair.key)) found = pos(pair.key.range[0]);
        node = pair.value;
      } else if (isSeq(node) && typeof key === 'number') {
        const item = node.items[key];
        if (!item) {
          whole = false;
          break;
        }
        if (isNodeWithRange(item)) found = pos(item.range[0]);
        node = item;
      } else {
        whole = false;
        break;
      }
    }
    // The text as written inside the value's range (a cited id is written verbatim in any scalar style).
    if (seek && whole && isNodeWithRange(node)) {
      let i = node.range[0] - 1;
      for (let n = 0; n <= (seek.nth ?? 0); n++) {
        i = text.indexOf(seek.text, i + 1);
        if (i === -1 || i >= node.range[1]) return found;
      }
      return pos(i);
    }
    return found;
  };
  return { file, value: problems.length > 0 ? undefined : doc.toJS(), problems, at };
}

function isNodeWithRange(n: unknown): n is Node & { range: [number, number, number] } {
  return typeof n === 'object' && n !== null && Array.isArray((n as { range?: unknown }).range);
}
