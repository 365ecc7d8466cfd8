// The rules one evidence file must keep on its own, run by its reader (read.ts) so the build fails
// naming the file and the field: its output shows what its exercise looks at (evidence/index.ts),
// its recorded checksum still matches its output, and its recorded mode is its backend.
import type { Evidence } from './schemas.ts';
import type { Problem } from '../problems.ts';
import type { YamlFile } from './yaml.ts';
import { countEvidence, sha256, type Count } from '../evidence/index.ts';

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
