// A container's log file as the runtime writes it (CRI logging format): one record per line,
// `<RFC3339Nano time> <stream> <tags> <content>`, tags separated by ":", "P" for a part of a line and
// "F" for a whole line or its last part (kubernetes/cri-api pkg/apis/runtime/v1/constants.go
// L49-L54). containerd cuts a line longer than its limit (16 KiB by default) into P records ended
// by an F record (containerd internal/cri/io/logger.go, redirectLogs). Lines not in that format (a
// plain --log-file, the capture script's own comment lines) pass through unchanged.

export interface LogLine {
  /** The line's content, its P records joined, without the record prefix. */
  text: string;
  /** Where it starts in the output (1-based): its first record. */
  line: number;
}

const RECORD =
  /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)) (stdout|stderr) ([A-Z]+(?::[A-Z]+)*)(?: (.*))?$/s;

/** The output's lines, each CRI line joined from its records; a line whose F record never came is refused. */
export function logLines(output: string): { lines: LogLine[]; problem?: string; line?: number } {
  const raw = output.split('\n');
  if (raw[raw.length - 1] === '') raw.pop();
  const lines: LogLine[] = [];
  const open = new Map<string, { parts: string[]; line: number }>();
  raw.forEach((text, i) => {
    const m = RECORD.exec(text);
    if (!m) {
      lines.push({ text, line: i + 1 });
      return;
    }
    const stream = m[2]!;
    const content = m[4] ?? '';
    const pending = open.get(stream);
    if (m[3]!.split(':').includes('P')) {
      if (pending) pending.parts.push(content);
      else open.set(stream, { parts: [content], line: i + 1 });
      return;
    }
    open.delete(stream);
    lines.push(
      pending ? { text: pending.parts.join('') + content, line: pending.line } : { text: content, line: i + 1 },
    );
  });
  for (const [stream, p] of open)
    return {
      lines: [],
      problem: `a partial CRI record (P) on ${stream}, ${p.parts.length} record(s) from this line, is never ended by an F record: the log was copied in the middle of a line, so what it holds cannot be read whole; capture again`,
      line: p.line,
    };
  return { lines: lines.sort((a, b) => a.line - b.line) };
}
