// The rules one evidence file must keep on its own, run by its reader (read.ts) so the build fails
// naming the file and the field: its output shows what its exercise looks at (evidence/index.ts),
// its recorded checksum still matches its output, and its recorded mode is its backend.
import type { Evidence, Growth } from './schemas.ts';
import type { Problem } from '../problems.ts';
import type { YamlFile } from './yaml.ts';
import { basename } from 'node:path';
import { countEvidence, sha256, type Count } from '../evidence/index.ts';
import { growthFields, readGrowth, summarize, type GrowthSummaryPoint, type GrowthSweep } from '../evidence/growth.ts';

/** The evidence file's problems, and what its output shows (counted here once, kept on the entry). */
export function countEvidenceOutput(ev: Evidence, yaml: YamlFile): { problems: Problem[]; count?: Count } {
  const problems: Problem[] = [];
  const add = (field: keyof Evidence, problem: string) =>
    problems.push({
      file: yaml.file,
      ...yaml.at([field]),
      item: { kind: 'axis', id: ev.axis },
      backend: ev.backend,
      field,
      problem,
    });
  const { problem, line, count } = countEvidence(ev);
  if (problem)
    add(
      'output',
      `${line !== undefined ? `output line ${line}: ` : ''}${problem}; ${ev.kind === 'drain' ? 'run npm run lab -- drain again' : 'capture it again with tools/capture/kube-proxy-evidence.sh'}`,
    );
  if (ev.sha256 !== undefined && sha256(ev.output) !== ev.sha256)
    add(
      'output',
      `output was edited after capture: its sha256 is ${sha256(ev.output)}, the capture recorded ${ev.sha256}; restore the captured output`,
    );
  if (ev.mode !== undefined && ev.mode !== ev.backend)
    add('mode', `captured with kube-proxy in mode "${ev.mode}", but this is evidence for backend "${ev.backend}"`);
  return { problems, ...(count && { count }) };
}

/** The first path at which two JSON values differ ("" when equal). */
function firstDifference(a: unknown, b: unknown, at = ''): string | undefined {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return Object.is(a, b) ? undefined : at || '(the whole)';
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const k of keys) {
    const d = firstDifference(
      (a as Record<string, unknown>)[k],
      (b as Record<string, unknown>)[k],
      `${at}${Array.isArray(a) ? `[${k}]` : `.${k}`}`,
    );
    if (d !== undefined) return d;
  }
  return undefined;
}

/**
 * A growth sweep's problems (content/growth/<id>.yaml): its gzipped output must be there, match its
 * sha256, read as a sweep (src/lib/evidence/growth.ts), and give every field and number the file
 * states; what it gives is kept on the entry.
 */
export function checkGrowth(
  g: Growth,
  yaml: YamlFile,
  output: string | undefined,
): { problems: Problem[]; sweep?: GrowthSweep; points?: GrowthSummaryPoint[] } {
  const problems: Problem[] = [];
  const add = (field: keyof Growth, problem: string, path: (string | number)[] = []) =>
    problems.push({
      file: yaml.file,
      ...yaml.at([field, ...path]),
      item: { kind: 'evidence', id: basename(yaml.file) },
      field,
      problem,
    });
  if (output === undefined) {
    add('output', `${g.output} is missing or is not gzip: the sweep's raw output must be beside this file`);
    return { problems };
  }
  if (sha256(output) !== g.sha256)
    add(
      'output',
      `${g.output} was changed after the sweep: its sha256 is ${sha256(output)}, the file records ${g.sha256}; restore it, or run the sweep again`,
    );
  const read = readGrowth(output);
  if (!read.count) {
    add('output', `${g.output} line ${read.line ?? 1}: ${read.problem}`);
    return { problems };
  }
  const fields = growthFields(read.count);
  for (const [k, v] of Object.entries(fields) as Array<[keyof Growth, unknown]>) {
    const d = firstDifference(g[k], v);
    if (d !== undefined) add(k, `does not follow from ${g.output}: it gives ${JSON.stringify(v)}`);
  }
  const points = summarize(read.count);
  const d = firstDifference(JSON.parse(JSON.stringify(points)), g.summary);
  if (d !== undefined) {
    const path = d
      .replace(/^\[(\d+)\]/, '$1')
      .split(/[.[\]]+/)
      .filter(Boolean)
      .map((x) => (/^\d+$/.test(x) ? Number(x) : x));
    add(
      'summary',
      `summary${d} does not follow from ${g.output} (read again by src/lib/evidence/growth.ts); write it again with tools/growth-evidence.ts, never by hand`,
      path,
    );
  }
  return { problems, sweep: read.count, points };
}
