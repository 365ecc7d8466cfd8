// kube-proxy's log entries as klog's text format prints them, read by key name. Followed from
// kubernetes/klog v2.130.1 (75663bb798999a49e3e4c0f2375ed5cca8164194):
//   - each entry starts `Lmmdd hh:mm:ss.uuuuuu threadid file:line] ` (internal/buffer/buffer.go,
//     FormatHeader L117-L153), then the message quoted by strconv.Quote (klog.go, printS L817);
//   - then ` key=value` for each pair, a logger's WithValues pairs before the call's own (klogr.go
//     L55-L59, MergeKVs), so a payload is found by its key, never by its position;
//   - a []byte value is printed with fmt's %+q, strconv.QuoteToASCII: one quoted line, line breaks
//     as \n (internal/serialize/keyvalues_slog.go L98-L111); a string without a line break with
//     strconv.Quote; a string with one as `key=<`, each of its lines after a tab, then a line ` >`
//     that the next pair follows on (internal/serialize/keyvalues.go, writeStringValue L250-L291).
// Go's quoting is decoded as strconv.Unquote decodes it: \a \b \f \n \r \t \v \\ \" , \xNN and
// octal \NNN (one byte each), \uXXXX and \UXXXXXXXX (a code point). klog's quoting never writes
// octal, but Go's unquoting reads it, and so does this.
import type { LogLine } from './cri.ts';

const HEADER = /^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ [^\s\]]+:\d+\] /;

/** A Go double-quoted string starting at `s[at]`, decoded; `end` is just after its closing quote. */
export function goUnquote(s: string, at: number): { value: string; end: number } | { error: string } {
  if (s[at] !== '"') return { error: 'is not a quoted string' };
  // The decoded bytes: runs of plain characters encoded a run at a time (a payload of megabytes is
  // one quoted line), escapes byte by byte; joined and decoded as UTF-8 at the closing quote.
  const chunks: Uint8Array[] = [];
  let bytes: number[] = [];
  const flush = () => {
    if (bytes.length > 0) chunks.push(Uint8Array.from(bytes));
    bytes = [];
  };
  const utf8 = new TextEncoder();
  const SIMPLE: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, '"': 34 };
  let i = at + 1;
  while (i < s.length) {
    let j = i;
    for (let c = s.charCodeAt(j); j < s.length && c !== 34 && c !== 92 && c !== 10; c = s.charCodeAt(++j));
    if (j > i) {
      flush();
      chunks.push(utf8.encode(s.slice(i, j)));
      i = j;
      continue;
    }
    const c = s[i]!;
    if (c === '"') {
      flush();
      const all = new Uint8Array(chunks.reduce((n, b) => n + b.length, 0));
      let o = 0;
      for (const b of chunks) {
        all.set(b, o);
        o += b.length;
      }
      return { value: new TextDecoder().decode(all), end: i + 1 };
    }
    if (c === '\n') break;
    const e = s[i + 1] ?? '';
    const hex = (n: number) =>
      /^[0-9a-fA-F]+$/.test(s.slice(i + 2, i + 2 + n)) && s.slice(i + 2, i + 2 + n).length === n
        ? parseInt(s.slice(i + 2, i + 2 + n), 16)
        : undefined;
    if (e in SIMPLE) {
      bytes.push(SIMPLE[e]!);
      i += 2;
    } else if (e === 'x') {
      const v = hex(2);
      if (v === undefined) return { error: `has a bad escape \\x${s.slice(i + 2, i + 4)} at column ${i + 1}` };
      bytes.push(v);
      i += 4;
    } else if (e === 'u' || e === 'U') {
      const v = hex(e === 'u' ? 4 : 8);
      if (v === undefined || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return { error: `has a bad escape \\${e}${s.slice(i + 2, i + 2 + (e === 'u' ? 4 : 8))} at column ${i + 1}` };
      bytes.push(...utf8.encode(String.fromCodePoint(v)));
      i += e === 'u' ? 6 : 10;
    } else if (/^[0-7]{3}$/.test(s.slice(i + 1, i + 4)) && parseInt(s.slice(i + 1, i + 4), 8) <= 255) {
      bytes.push(parseInt(s.slice(i + 1, i + 4), 8));
      i += 4;
    } else return { error: `has an escape Go does not write, \\${e}, at column ${i + 1}` };
  }
  return { error: 'is not closed (no ending ")' };
}

export interface KlogValue {
  text: string;
  /** How klog printed it: one quoted line, klog's multi-line `key=<` block, or as is (a number, JSON). */
  form: 'quoted' | 'multi-line' | 'plain';
}

export interface KlogEntry {
  /** The output line its header is on. */
  line: number;
  message: string;
  values: Map<string, KlogValue>;
}

/** A value printed as is (formatAny's JSON, a number): up to the next space outside brackets and strings. */
function plainEnd(s: string, at: number): number {
  let depth = 0;
  for (let i = at; i < s.length; i++) {
    const c = s[i]!;
    if (c === '"') {
      const q = goUnquote(s, i);
      if ('error' in q) return s.length;
      i = q.end - 1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === ' ' && depth <= 0) return i;
  }
  return s.length;
}

/**
 * Every entry of `lines` whose message `wanted` accepts, with its key/value pairs decoded; the
 * first pair klog could not have printed refuses the whole count, located at its entry.
 */
export function klogEntries(
  lines: LogLine[],
  wanted: (message: string) => boolean,
): { entries: KlogEntry[]; problem?: string; line?: number } {
  const entries: KlogEntry[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = HEADER.exec(lines[i]!.text);
    if (!head) continue;
    const first = lines[i]!;
    const msg = goUnquote(first.text, head[0].length);
    if ('error' in msg || !wanted(msg.value)) continue;
    const entry: KlogEntry = { line: first.line, message: msg.value, values: new Map() };
    const fail = (problem: string) => ({
      entries: [],
      problem: `the "${msg.value}" entry: ${problem}`,
      line: first.line,
    });
    let text = first.text;
    let at = msg.end;
    while (at < text.length) {
      const kv = /^ ([^\s=]+)=/.exec(text.slice(at));
      if (!kv)
        return fail(`after column ${at}, "${text.slice(at, at + 20)}" is not a key=value pair as klog prints one`);
      const key = kv[1]!;
      at += kv[0].length;
      if (text[at] === '"') {
        const q = goUnquote(text, at);
        if ('error' in q) return fail(`the quoted value of ${key}= ${q.error}`);
        entry.values.set(key, { text: q.value, form: 'quoted' });
        at = q.end;
      } else if (text.slice(at) === '<') {
        const block: string[] = [];
        for (i++; i < lines.length && lines[i]!.text.startsWith('\t'); i++) block.push(lines[i]!.text.slice(1));
        if (i >= lines.length || !lines[i]!.text.startsWith(' >'))
          return fail(
            `${key}=< (klog's multi-line value) is not closed by a " >" line${i < lines.length ? ` (output line ${lines[i]!.line} is neither)` : ''}`,
          );
        entry.values.set(key, { text: block.join('\n'), form: 'multi-line' });
        text = lines[i]!.text;
        at = 2;
      } else {
        const end = plainEnd(text, at);
        entry.values.set(key, { text: text.slice(at, end), form: 'plain' });
        at = end;
      }
    }
    entries.push(entry);
  }
  return { entries };
}
