// The author's half of the evidence kit: reads a capture folder written on a node by
// tools/capture/kube-proxy-evidence.sh, refuses it with located problems when it cannot back
// the cell it names, else writes content/evidence/<id>.yaml and sets `measure.evidence` on the
// cell in comparison/axes.yaml. Plain Node (tools/evidence.ts and the unit tests call it).
//
// A capture folder:
//   capture.env          key=value: format, captured_at, kernel, kube_proxy_version, version_from, mode, mode_from
//                        (and, when the node has them, iptables_version, nft_version)
//   setting              optional (--setting): where the capture was taken, in its author's words
//   ex<N>-<mode>/cell    key=value: exercise, axis, backend
//   ex<N>-<mode>/command exactly what ran (sh runs this very file)
//   ex<N>-<mode>/output  exactly what it printed
//   SHA256SUMS           sha256sum of every file above, written on the node
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { isMap, isScalar, isSeq, parseDocument, stringify, type Node, type YAMLMap } from 'yaml';
import { ContentError, type Problem } from '../../src/lib/problems.ts';
import { displayPath } from '../../src/lib/content/load.ts';
import { plainRender } from '../../src/lib/content/load.ts';
import { PATHS, readCollection } from '../../src/lib/content/load.ts';
import type { AxisEntry, BackendEntry } from '../../src/lib/content/load.ts';
import { loadContent } from '../../src/lib/content/load.ts';
import { evidenceSchema, type Evidence } from '../../src/lib/content/load.ts';
import { countOutput, sha256 } from '../../src/lib/evidence/index.ts';
import type { YamlFile } from '../../src/lib/content/load.ts';

interface Env {
  values: Map<string, string>;
  lines: Map<string, number>;
  file: string;
}

function readEnv(abs: string): Env {
  const values = new Map<string, string>();
  const lines = new Map<string, number>();
  readFileSync(abs, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const eq = line.indexOf('=');
      if (eq <= 0) return;
      values.set(line.slice(0, eq), line.slice(eq + 1));
      lines.set(line.slice(0, eq), i + 1);
    });
  return { values, lines, file: displayPath(abs) };
}

export interface CaptureCell {
  dir: string;
  exercise: number;
  axis: string;
  backend: string;
  command: string;
  output: string;
  outputSha256: string;
  cellEnv: Env;
}

export interface Capture {
  dir: string;
  env: Env;
  /** The capture's setting (`--setting`): where it was taken, in its author's words; checked like the rest. */
  setting?: string;
  cells: CaptureCell[];
}

/** Reads a capture folder and checks every file against SHA256SUMS; problems are located in the capture. */
export function readCapture(dir: string, problems: Problem[]): Capture | undefined {
  const shown = displayPath(dir);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    problems.push({
      file: shown,
      problem: 'no such capture folder (the folder tools/capture/kube-proxy-evidence.sh wrote)',
    });
    return undefined;
  }
  const sumsFile = join(dir, 'SHA256SUMS');
  if (!existsSync(sumsFile)) {
    problems.push({
      file: displayPath(sumsFile),
      problem:
        'missing: a capture records a sha256 of each file; capture again with tools/capture/kube-proxy-evidence.sh',
    });
    return undefined;
  }
  // Every recorded checksum must still hold; each file the kit reads must have one.
  const sums = new Map<string, { hash: string; line: number }>();
  readFileSync(sumsFile, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const m = /^([0-9a-f]{64}) [ *](?:\.\/)?(.+)$/.exec(line);
      if (m) sums.set(m[2]!, { hash: m[1]!, line: i + 1 });
    });
  const sumsShown = displayPath(sumsFile);
  for (const [name, { hash, line }] of sums) {
    const abs = join(dir, name);
    if (!existsSync(abs)) {
      problems.push({
        file: sumsShown,
        line,
        col: 1,
        field: name,
        problem: `${name} is listed but missing from the capture`,
      });
      continue;
    }
    const actual = createHash('sha256').update(readFileSync(abs)).digest('hex');
    if (actual !== hash)
      problems.push({
        file: sumsShown,
        line,
        col: 66,
        field: name,
        problem: `${name} was edited after capture: its sha256 is ${actual}, the capture recorded ${hash}; evidence is what the node printed, unedited (capture again)`,
      });
  }
  const needSum = (name: string) => {
    if (!sums.has(name))
      problems.push({
        file: sumsShown,
        line: 1,
        col: 1,
        field: name,
        problem: `${name} has no recorded checksum; capture again`,
      });
  };
  const envFile = join(dir, 'capture.env');
  if (!existsSync(envFile)) {
    problems.push({
      file: displayPath(envFile),
      problem: 'missing: the capture script writes it (date, kernel, kube-proxy version and mode)',
    });
    return undefined;
  }
  needSum('capture.env');
  const env = readEnv(envFile);
  for (const key of ['format', 'captured_at', 'kernel', 'kube_proxy_version', 'version_from', 'mode', 'mode_from'])
    if (!env.values.get(key))
      problems.push({
        file: env.file,
        line: env.lines.get(key) ?? 1,
        col: 1,
        field: key,
        problem: `${key}= is ${env.values.has(key) ? 'empty' : 'missing'}; capture again`,
      });
  if (env.values.get('format') !== undefined && env.values.get('format') !== '1')
    problems.push({
      file: env.file,
      line: env.lines.get('format') ?? 1,
      col: 1,
      field: 'format',
      problem: 'unknown capture format (this kit reads format=1)',
    });

  const cells: CaptureCell[] = [];
  const dirs = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  for (const name of dirs) {
    const cellDir = join(dir, name);
    const missing = ['cell', 'command', 'output'].filter((f) => !existsSync(join(cellDir, f)));
    if (missing.length > 0) {
      problems.push({ file: displayPath(cellDir), problem: `missing ${missing.join(', ')}: not a cell of a capture` });
      continue;
    }
    for (const f of ['cell', 'command', 'output']) needSum(`${name}/${f}`);
    const cellEnv = readEnv(join(cellDir, 'cell'));
    const exercise = Number(cellEnv.values.get('exercise'));
    const axis = cellEnv.values.get('axis') ?? '';
    const backend = cellEnv.values.get('backend') ?? '';
    if (!Number.isInteger(exercise) || !axis || !backend) {
      problems.push({
        file: cellEnv.file,
        line: 1,
        col: 1,
        problem: 'needs exercise=, axis= and backend=; capture again',
      });
      continue;
    }
    const raw = readFileSync(join(cellDir, 'output'));
    const output = raw.toString('utf8');
    if (!Buffer.from(output, 'utf8').equals(raw))
      problems.push({
        file: displayPath(join(cellDir, 'output')),
        line: 1,
        col: 1,
        field: 'output',
        problem: 'the output is not valid UTF-8 text, so it cannot be kept byte for byte in an evidence file',
      });
    cells.push({
      dir: cellDir,
      exercise,
      axis,
      backend,
      command: readFileSync(join(cellDir, 'command'), 'utf8'),
      output,
      outputSha256: sha256(output),
      cellEnv,
    });
  }
  if (cells.length === 0 && problems.length === 0)
    problems.push({ file: shown, problem: 'the capture holds no cell (no ex<N>-<mode>/ folder)' });
  const settingFile = join(dir, 'setting');
  if (!existsSync(settingFile)) return { dir, env, cells };
  needSum('setting');
  const setting = readFileSync(settingFile, 'utf8').trim();
  return { dir, env, cells, ...(setting && { setting }) };
}

/** The id (and file name) of the evidence `add` writes for a cell of a capture: ex<N>-<backend>-<date>. */
export const evidenceId = (capture: Capture, cell: CaptureCell): string =>
  `ex${cell.exercise}-${cell.backend}-${(capture.env.values.get('captured_at') ?? '').slice(0, 10)}`;

/** The node of a path in a parsed YAML document, or undefined. */
function nodeAt(root: unknown, path: Array<string | number>): Node | undefined {
  let node: unknown = root;
  for (const key of path) {
    if (isSeq(node) && typeof key === 'number') node = node.items[key];
    else if (isMap(node)) node = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(key))?.value;
    else return undefined;
  }
  return (node ?? undefined) as Node | undefined;
}

/**
 * axes.yaml with `evidence: <id>` added as the last key of one cell's measure map, written into
 * the text itself so every comment and every folded line stays as it was (re-serialising the
 * document would re-fold all of them); the result is parsed again and must equal the old data
 * with exactly that one value added.
 */
export function setMeasureEvidence(text: string, axisIndex: number, backend: string, id: string): string {
  const doc = parseDocument(text);
  const path = [axisIndex, 'cells', backend, 'measure'];
  const measure = nodeAt(doc.contents, path) as YAMLMap | undefined;
  if (!isMap(measure) || measure.items.length === 0) throw new Error(`axes.yaml: no measure map at ${path.join('.')}`);
  const firstKey = measure.items[0]!.key as Node;
  const lastValue = measure.items[measure.items.length - 1]!.value as Node;
  const indent = ' '.repeat(firstKey.range![0] - text.lastIndexOf('\n', firstKey.range![0] - 1) - 1);
  let at = lastValue.range![1];
  if (text[at - 1] !== '\n') {
    const nl = text.indexOf('\n', at);
    at = nl < 0 ? text.length : nl + 1;
  }
  const prefix = at === text.length && !text.endsWith('\n') ? '\n' : '';
  const next = `${text.slice(0, at)}${prefix}${indent}evidence: ${id}\n${text.slice(at)}`;
  const want = parseDocument(text);
  want.setIn([...path, 'evidence'], id);
  const got = parseDocument(next);
  if (got.errors.length > 0 || JSON.stringify(got.toJS()) !== JSON.stringify(want.toJS()))
    throw new Error('axes.yaml: adding measure.evidence would change more than that one value; add it by hand');
  return next;
}

export interface Added {
  id: string;
  file: string;
  axis: string;
  backend: string;
  axesAt: string;
}

interface Plan {
  cell: CaptureCell;
  id: string;
  abs: string;
  evidence: Evidence;
  axis: AxisEntry;
}

/** Everything a capture needs to back its cells; problems located in the content or the capture. */
function plan(
  capture: Capture,
  content: string,
  backends: BackendEntry[],
  axes: AxisEntry[],
  axesYaml: YamlFile,
  problems: Problem[],
): Plan[] {
  const plans: Plan[] = [];
  const env = capture.env.values;
  const mode = env.get('mode') ?? '';
  const axesFile = axesYaml.file;
  for (const cell of capture.cells) {
    const cellAt = (line: number, field: string) => ({
      file: cell.cellEnv.file,
      line,
      col: 1,
      item: { kind: 'axis' as const, id: cell.axis },
      backend: cell.backend,
      field,
    });
    const axis = axes.find((a) => a.id === cell.axis);
    if (!axis) {
      problems.push({
        ...cellAt(cell.cellEnv.lines.get('axis') ?? 1, 'axis'),
        problem: `no axis "${cell.axis}" in ${PATHS.axes} (axes: ${axes.map((a) => a.id).join(', ')})`,
      });
      continue;
    }
    const where = (...field: string[]) => ({
      file: axesFile,
      ...axesYaml.at([axis.index, 'cells', cell.backend, ...field]),
      item: { kind: 'axis' as const, id: axis.id },
      backend: cell.backend,
      field: field.join('.') || 'cells',
    });
    const backend = backends.find((b) => b.id === cell.backend);
    const target = axis.cells[cell.backend];
    if (!backend || !target) {
      problems.push({
        ...where(),
        problem: `no backend "${cell.backend}" in this axis (backends: ${Object.keys(axis.cells).join(', ')})`,
      });
      continue;
    }
    if (!backend.run) {
      problems.push({
        ...where('measure'),
        problem: `backend "${backend.id}" was not run in this study (${PATHS.backends}: run: false); its cells are cited, never measured`,
      });
      continue;
    }
    if (mode !== cell.backend)
      problems.push({
        ...where('measure'),
        problem: `the capture was taken with kube-proxy in mode "${mode}" (${capture.env.file}:${capture.env.lines.get('mode') ?? 1}), but this is backend "${cell.backend}": capture on a node in ${cell.backend} mode`,
      });
    if (!target.measure)
      problems.push({
        ...where(),
        problem: `this cell is cited, not measured: exercise ${cell.exercise} does not measure it`,
      });
    else if (target.measure.exercise !== cell.exercise)
      problems.push({
        ...where('measure', 'exercise'),
        problem: `exercise ${cell.exercise} does not measure this cell; exercise ${target.measure.exercise} does`,
      });
    else if (target.measure.evidence !== undefined)
      problems.push({
        ...where('measure', 'evidence'),
        problem: `this cell already has evidence "${target.measure.evidence}"; remove it first to replace it`,
      });
    const { problem, line } = countOutput(cell.exercise, cell.backend, cell.output);
    if (problem)
      problems.push({
        file: displayPath(join(cell.dir, 'output')),
        line: line ?? 1,
        col: 1,
        item: { kind: 'axis' as const, id: cell.axis },
        backend: cell.backend,
        field: 'output',
        problem,
      });

    const capturedAt = env.get('captured_at') ?? '';
    const id = evidenceId(capture, cell);
    const abs = join(content, PATHS.evidence, `${id}.yaml`);
    if (existsSync(abs))
      problems.push({
        file: displayPath(abs),
        problem: `evidence "${id}" exists already; remove it first to replace it`,
      });
    const data = {
      exercise: cell.exercise,
      axis: cell.axis,
      backend: cell.backend,
      captured: capturedAt.slice(0, 10),
      capturedAt,
      kubernetes: env.get('kube_proxy_version'),
      versionFrom: env.get('version_from'),
      kernel: env.get('kernel'),
      mode,
      modeFrom: env.get('mode_from'),
      ...(env.get('iptables_version') && { iptables: env.get('iptables_version') }),
      ...(env.get('nft_version') && { nft: env.get('nft_version') }),
      ...(capture.setting && { setting: capture.setting }),
      command: cell.command,
      output: cell.output,
      sha256: cell.outputSha256,
    };
    const parsed = evidenceSchema.safeParse(data);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push({
          file: capture.env.file,
          line: 1,
          col: 1,
          item: { kind: 'axis' as const, id: cell.axis },
          backend: cell.backend,
          field: issue.path.join('.'),
          problem: `${issue.message} (from the capture)`,
        });
      continue;
    }
    plans.push({ cell, id, abs, evidence: parsed.data, axis });
  }
  return plans;
}

const HEADER = (id: string) =>
  `# Evidence ${id}: captured on a node by tools/capture/kube-proxy-evidence.sh, added by\n` +
  `# \`npm run evidence -- add\`. command and output are exactly what ran and what it printed; the build\n` +
  `# checks output against its sha256, so do not edit them (capture again instead).\n`;

/** The evidence file's text; read back, its output must be the captured bytes. */
export function evidenceYaml(id: string, ev: Evidence): string {
  const text = HEADER(id) + stringify(ev, { lineWidth: 0, blockQuote: 'literal' });
  const back = parseDocument(text).toJS() as Evidence;
  if (back.output !== ev.output || back.command !== ev.command)
    throw new Error(`evidence ${id}: the YAML does not keep the output byte for byte`);
  return text;
}

/** Checks a capture against the content and adds it; throws a ContentError (nothing written) when refused. */
export async function addCapture(captureDir: string, content: string): Promise<Added[]> {
  const problems: Problem[] = [];
  const capture = readCapture(captureDir, problems);
  const [backends, axes] = await Promise.all([
    readCollection('backends', content, plainRender),
    readCollection('axes', content, plainRender),
  ]);
  problems.push(...backends.problems, ...axes.problems);
  const axesYaml = axes.files[0];
  if (!capture || !axesYaml || problems.length > 0) throw new ContentError(problems);
  const plans = plan(capture, content, backends.entries, axes.entries, axesYaml, problems);
  if (problems.length > 0) throw new ContentError(problems);

  const axesAbs = join(content, PATHS.axes);
  const before = readFileSync(axesAbs, 'utf8');
  let text = before;
  const written: string[] = [];
  try {
    for (const p of plans) {
      writeFileSync(p.abs, evidenceYaml(p.id, p.evidence), { flag: 'wx' });
      written.push(p.abs);
      text = setMeasureEvidence(text, p.axis.index, p.cell.backend, p.id);
    }
    writeFileSync(axesAbs, text);
    await loadContent(content);
  } catch (error) {
    for (const f of written) rmSync(f, { force: true });
    writeFileSync(axesAbs, before);
    throw error;
  }
  const after = (await readCollection('axes', content, plainRender)).files[0]!;
  return plans.map((p) => {
    const pos = after.at([p.axis.index, 'cells', p.cell.backend, 'measure', 'evidence']);
    return {
      id: p.id,
      file: displayPath(p.abs),
      axis: p.axis.id,
      backend: p.cell.backend,
      axesAt: `${after.file}:${pos.line}:${pos.col}`,
    };
  });
}
