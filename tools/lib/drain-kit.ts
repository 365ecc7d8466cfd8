// The drain run's captures (lab/drain.sh writes lab/out/drain/<mode>/: output.txt, sha256,
// capture.env, setting.txt) as evidence files: read, checked by the site's own reader
// (src/lib/evidence/drain.ts) and written to <content>/evidence/drain-<mode>-<date>.yaml, never
// edited by hand; and a fresh run's outcomes compared with the committed evidence's (lab-check).
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify, parseDocument } from 'yaml';
import type { Evidence } from '../../src/lib/content/load.ts';
import { loadContent } from '../../src/lib/content/load.ts';
import { ContentError, type Problem } from '../../src/lib/problems.ts';
import { differences, readDrain, readings, sha256, type DrainCount } from '../../src/lib/evidence/index.ts';

export const DRAIN_AXIS = 'drain';

export interface DrainCapture {
  dir: string;
  mode: string;
  evidence: Evidence;
  count: DrainCount;
}

/** One mode's folder of the drain run, read and checked; problems go to `problems`. */
export function readDrainCapture(dir: string, problems: Problem[]): DrainCapture | undefined {
  const fail = (file: string, problem: string) => {
    problems.push({ file: join(dir, file), problem });
    return undefined;
  };
  for (const f of ['output.txt', 'sha256', 'capture.env', 'setting.txt'])
    if (!existsSync(join(dir, f))) return fail(f, 'missing: run npm run lab -- drain again');
  const env = new Map<string, string>();
  for (const line of readFileSync(join(dir, 'capture.env'), 'utf8').split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) env.set(line.slice(0, at), line.slice(at + 1));
  }
  if (env.get('kind') !== 'drain') return fail('capture.env', 'not a drain capture (no kind=drain)');
  const output = readFileSync(join(dir, 'output.txt'), 'utf8');
  const sum = readFileSync(join(dir, 'sha256'), 'utf8').trim();
  if (sha256(output) !== sum)
    return fail('output.txt', `its sha256 is ${sha256(output)}, the run recorded ${sum}: it was edited after the run`);
  const mode = env.get('mode') ?? '';
  const need = (k: string) => env.get(k) ?? (fail('capture.env', `no ${k}=`), '');
  const capturedAt = need('capturedAt');
  const [kubernetes, kernel, modeFrom, versionFrom, script] = [
    need('kubernetes'),
    need('kernel'),
    need('modeFrom'),
    need('versionFrom'),
    need('script'),
  ];
  if (problems.length > 0) return undefined;
  const read = readDrain(output, mode);
  if (!read.count) return fail('output.txt', `${read.line !== undefined ? `line ${read.line}: ` : ''}${read.problem}`);
  const evidence: Evidence = {
    kind: 'drain',
    axis: DRAIN_AXIS,
    backend: mode,
    captured: capturedAt.slice(0, 10),
    kubernetes,
    kernel,
    command:
      `npm run lab -- drain (${script}).\n` +
      'Every command the run used to change and to look is on the output\'s "==> <case>/<step> $" lines; the client\'s\n' +
      'commands are its own (lab/cmd/drainpoint: hold, send, new, udpopen, udp), each line answered once.\n',
    output,
    mode,
    modeFrom,
    versionFrom,
    capturedAt,
    ...(env.get('iptables') && { iptables: env.get('iptables') }),
    ...(env.get('nft') && { nft: env.get('nft') }),
    setting: readFileSync(join(dir, 'setting.txt'), 'utf8').trim(),
    sha256: sum,
  };
  return { dir, mode, evidence, count: read.count };
}

/** Every mode folder of a drain run (lab/out/drain/<mode>/). */
export function drainFolders(root: string): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(root, e.name, 'capture.env')))
    .map((e) => join(root, e.name))
    .sort();
}

const HEADER = (id: string) =>
  `# Evidence ${id}: the drain run (npm run lab -- drain, lab/drain.sh), added by\n` +
  '# `npm run evidence -- add-drain`. command and output are exactly what ran and what it printed; the build\n' +
  '# checks output against its sha256, so do not edit them (run again instead).\n';

/** Writes each mode's evidence file; refuses (ContentError, nothing kept) when one cannot be read or exists. */
export async function addDrain(root: string, content: string): Promise<string[]> {
  const problems: Problem[] = [];
  const captures = drainFolders(root).map((d) => readDrainCapture(d, problems));
  if (captures.length === 0) problems.push({ file: root, problem: 'no drain capture folder (<mode>/capture.env)' });
  if (problems.length > 0) throw new ContentError(problems);
  const written: string[] = [];
  try {
    for (const c of captures) {
      const id = `drain-${c!.mode}-${c!.evidence.captured}`;
      const file = join(content, 'evidence', `${id}.yaml`);
      const text = HEADER(id) + stringify(c!.evidence, { lineWidth: 0, blockQuote: 'literal' });
      if ((parseDocument(text).toJS() as Evidence).output !== c!.evidence.output)
        throw new Error(`${id}: the YAML does not keep the output byte for byte`);
      writeFileSync(file, text, { flag: 'wx' });
      written.push(file);
    }
    await loadContent(content);
  } catch (error) {
    for (const f of written) rmSync(f, { force: true });
    throw error;
  }
  return written;
}

/** A fresh run's outcomes against the committed evidence's, by mode: the readings that differ. */
export function compareDrain(
  fresh: DrainCapture,
  committed: Array<{ id: string; kind?: string; backend: string; count?: unknown }>,
): { id?: string; diff: Array<[string, string, string]>; size: number } {
  const ev = committed
    .filter((e) => e.kind === 'drain' && e.backend === fresh.mode && e.count)
    .sort((a, b) => a.id.localeCompare(b.id))
    .at(-1);
  if (!ev) return { diff: [], size: 0 };
  const before = readings(ev.count as DrainCount);
  return { id: ev.id, diff: differences(before, readings(fresh.count)), size: before.size };
}
