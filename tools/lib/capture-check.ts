// The check a pull request that publishes a measurement gets (`npm run evidence -- check captures`,
// run by .github/workflows/measurement.yml; docs/evidence.md, "Publishing a measurement"). Each
// capture folder under captures/ is checked by the kit itself, in a copy of content/, so the
// checkout is never written:
//   - a capture whose evidence is in content/ already (the pull request ran `add` and committed what
//     it wrote) is taken out of the copy and added again: every check of `add` runs, and what it
//     writes must be byte for byte what content/ holds (evidence is never typed or edited by hand);
//   - any other capture is added to the copy as `add` adds it, with the same checks.
// A refusal is a ContentError whose problems are located as `add` locates them, with the copy's
// paths shown as content/'s. The copy is what the site is then built from (tools/evidence.ts).
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { ContentError, type Problem } from '../../src/lib/problems.ts';
import { PATHS, displayPath } from '../../src/lib/content/load.ts';
import { addCapture, evidenceId, readCapture } from './evidence-kit.ts';

/** The capture folders an argument names: itself when it is one (capture.env or SHA256SUMS), else each folder in it. */
export function captureFolders(arg: string): string[] {
  const isDir = (d: string) => existsSync(d) && statSync(d).isDirectory();
  if (!isDir(arg) || existsSync(join(arg, 'capture.env')) || existsSync(join(arg, 'SHA256SUMS'))) return [arg];
  return readdirSync(arg, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(arg, e.name))
    .sort();
}

export interface Checked {
  capture: string;
  /** `in-content`: content/ holds exactly what `add` writes from it; `added`: added to the copy only. */
  state: 'in-content' | 'added';
  ids: string[];
}

/** The first line (1-based) where two texts differ. */
function firstDifference(a: string, b: string): number {
  const x = a.split('\n');
  const y = b.split('\n');
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i + 1;
}

/**
 * Checks each capture folder against `content`, in the copy `copy` (made here); throws a
 * ContentError with every problem of every capture, located in content/ and the captures.
 */
export async function checkCaptures(captures: string[], content: string, copy: string): Promise<Checked[]> {
  cpSync(content, copy, { recursive: true });
  // A problem in the copy is shown at the same place in content/, where the author fixes it.
  const shown = (p: Problem): Problem => {
    const rel = relative(resolve(copy), resolve(p.file));
    return rel.startsWith('..') ? p : { ...p, file: displayPath(join(content, rel)) };
  };
  const problems: Problem[] = [];
  const checked: Checked[] = [];
  const axesFile = join(copy, PATHS.axes);
  for (const dir of captures) {
    const read: Problem[] = [];
    const capture = readCapture(dir, read);
    if (!capture || read.length > 0) {
      problems.push(...read);
      continue;
    }
    // Which of its cells content/ already holds, as `add` wrote them: the evidence file of the
    // cell's id records this capture's output. Those are taken out of the copy and added again.
    const axesBefore = readFileSync(axesFile, 'utf8');
    const inContent: Array<{ id: string; text: string }> = [];
    for (const cell of capture.cells) {
      const id = evidenceId(capture, cell);
      const file = join(copy, PATHS.evidence, `${id}.yaml`);
      if (!existsSync(file)) continue;
      const text = readFileSync(file, 'utf8');
      if ((parse(text) as { sha256?: unknown } | null)?.sha256 !== cell.outputSha256) continue;
      inContent.push({ id, text });
      rmSync(file);
      const line = new RegExp(`^[ \\t]+evidence: ${id}[ \\t]*\\n`, 'm');
      writeFileSync(axesFile, readFileSync(axesFile, 'utf8').replace(line, ''));
    }
    let ids: string[];
    try {
      ids = (await addCapture(dir, copy)).map((a) => a.id);
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      problems.push(...error.problems.map(shown));
      continue;
    }
    const differs = (file: string, want: string, got: string, what: string) => {
      problems.push({
        file: displayPath(join(content, file)),
        line: firstDifference(want, got),
        col: 1,
        problem: `${what} is not what \`npm run evidence -- add ${displayPath(dir)}\` writes from the capture (first difference on this line); evidence is never edited by hand: remove it and add the capture again`,
      });
    };
    for (const { id, text } of inContent) {
      const again = readFileSync(join(copy, PATHS.evidence, `${id}.yaml`), 'utf8');
      if (again !== text) differs(join(PATHS.evidence, `${id}.yaml`), text, again, `evidence "${id}"`);
    }
    if (inContent.length === capture.cells.length) {
      const axesAgain = readFileSync(axesFile, 'utf8');
      if (axesAgain !== axesBefore) differs(PATHS.axes, axesBefore, axesAgain, `its measure.evidence line`);
    }
    checked.push({ capture: dir, state: inContent.length === capture.cells.length ? 'in-content' : 'added', ids });
  }
  if (problems.length > 0) throw new ContentError(problems);
  return checked;
}
