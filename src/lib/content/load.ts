// Reads the content folder: YAML files parsed, each entry validated by its schema. Problems are
// reported with the file, row, column and field they concern. Pure Node, no Astro imports.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, relative, basename, extname } from 'node:path';
import { parseDocument } from 'yaml';
import type { z } from 'astro/zod';
import {
  siteSchema, sourceSchema, excerptSchema, backendSchema, axisSchema, evidenceSchema,
  type Site, type Source, type Excerpt, type Backend, type Axis, type Evidence,
} from './schemas.ts';
import { Problems, type Where } from './errors.ts';

export interface ExcerptEntry extends Excerpt { source: string; file: string }
export interface EvidenceEntry extends Evidence { id: string; file: string }

export interface ContentData {
  site: Site;
  sources: Source[];
  excerpts: ExcerptEntry[];
  backends: Backend[];
  axes: Axis[];
  evidence: EvidenceEntry[];
}

type Path = ReadonlyArray<PropertyKey>;
const fieldName = (path: Path): string =>
  path.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc ? `${acc}.${String(k)}` : String(k)), '');

function readYaml(abs: string, file: string, problems: Problems): unknown {
  const doc = parseDocument(readFileSync(abs, 'utf8'), { prettyErrors: true });
  if (doc.errors.length > 0) {
    for (const e of doc.errors) {
      const line = e.linePos?.[0]?.line;
      problems.add({ file }, `malformed YAML${line ? ` at line ${line}` : ''}: ${e.message.split('\n')[0]}`);
    }
    return undefined;
  }
  return doc.toJS();
}

/** How a zod issue path inside one entry maps onto row / column / field. */
type Locate = (entry: unknown, index: number, path: Path) => Omit<Where, 'file'>;

const idOf = (entry: unknown, index: number): string => {
  const id = (entry as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id !== '' ? id : `#${index + 1}`;
};
const rowLocate: Locate = (entry, index, path) => ({ row: idOf(entry, index), field: fieldName(path) || undefined });
const columnLocate: Locate = (entry, index, path) => ({ column: idOf(entry, index), field: fieldName(path) || undefined });
const axisLocate: Locate = (entry, index, path) =>
  path[0] === 'cells' && path.length >= 2
    ? { row: idOf(entry, index), column: String(path[1]), field: fieldName(path.slice(2)) || undefined }
    : rowLocate(entry, index, path);

function validateList<S extends z.ZodType>(
  data: unknown, file: string, schema: S, locate: Locate, problems: Problems,
): z.infer<S>[] {
  if (data === undefined) return [];
  if (!Array.isArray(data)) {
    problems.add({ file }, 'must be a YAML list of entries');
    return [];
  }
  const out: z.infer<S>[] = [];
  data.forEach((entry, index) => {
    const result = schema.safeParse(entry);
    if (result.success) out.push(result.data);
    else for (const issue of result.error.issues) problems.add({ file, ...locate(entry, index, issue.path) }, issue.message);
  });
  return out;
}

export function validateOne<S extends z.ZodType>(data: unknown, file: string, schema: S, problems: Problems): z.infer<S> | undefined {
  if (data === undefined) return undefined;
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  for (const issue of result.error.issues) problems.add({ file, field: fieldName(issue.path) || undefined }, issue.message);
  return undefined;
}

const yamlFiles = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort() : [];

const rel = (abs: string) => relative(process.cwd(), abs) || abs;

/** Reads one YAML file of the content folder; a missing file is a problem. */
function readFile(dir: string, name: string, problems: Problems): { data: unknown; file: string } {
  const abs = join(dir, name);
  if (!existsSync(abs)) {
    problems.add({ file: rel(abs) }, 'file is missing');
    return { data: undefined, file: rel(abs) };
  }
  return { data: readYaml(abs, rel(abs), problems), file: rel(abs) };
}

function readSources(dir: string, problems: Problems): Source[] {
  const { data, file } = readFile(dir, 'sources.yaml', problems);
  return validateList(data, file, sourceSchema, rowLocate, problems);
}

function readExcerpts(dir: string, problems: Problems): ExcerptEntry[] {
  const excerpts: ExcerptEntry[] = [];
  for (const name of yamlFiles(join(dir, 'excerpts'))) {
    const abs = join(dir, 'excerpts', name);
    const file = rel(abs);
    const source = basename(name, extname(name));
    for (const e of validateList(readYaml(abs, file, problems), file, excerptSchema, rowLocate, problems)) {
      excerpts.push({ ...e, source, file });
    }
  }
  return excerpts;
}

/**
 * Loads and validates only sources.yaml and excerpts/*.yaml under `dir` (what the quote check
 * needs), by the same rules as loadContent. Throws a ContentError listing every problem.
 */
export function loadSourcesAndExcerpts(dir: string, problems = new Problems()): Pick<ContentData, 'sources' | 'excerpts'> {
  const sources = readSources(dir, problems);
  const excerpts = readExcerpts(dir, problems);
  problems.throwIfAny();
  return { sources, excerpts };
}

/**
 * Loads and validates every data file under `dir` (the top-level content folder).
 * Throws a ContentError listing every problem; otherwise returns typed data.
 */
export function loadContent(dir: string, problems = new Problems()): ContentData {
  const siteFile = readFile(dir, 'site.yaml', problems);
  const site = validateOne(siteFile.data, siteFile.file, siteSchema, problems);
  const sources = readSources(dir, problems);
  const backendsFile = readFile(dir, 'comparison/backends.yaml', problems);
  const backends = validateList(backendsFile.data, backendsFile.file, backendSchema, columnLocate, problems);
  const axesFile = readFile(dir, 'comparison/axes.yaml', problems);
  const axes = validateList(axesFile.data, axesFile.file, axisSchema, axisLocate, problems);
  const excerpts = readExcerpts(dir, problems);

  const evidence: EvidenceEntry[] = [];
  for (const name of yamlFiles(join(dir, 'evidence'))) {
    const abs = join(dir, 'evidence', name);
    const file = rel(abs);
    const e = validateOne(readYaml(abs, file, problems), file, evidenceSchema, problems);
    if (e) evidence.push({ ...e, id: basename(name, extname(name)), file });
  }

  problems.throwIfAny();
  return { site: site!, sources, excerpts, backends, axes, evidence };
}

/** The files whose rows and cells the model refers to, for error messages. */
export const contentFiles = (dir: string) => ({
  sources: relative(process.cwd(), join(dir, 'sources.yaml')),
  backends: relative(process.cwd(), join(dir, 'comparison/backends.yaml')),
  axes: relative(process.cwd(), join(dir, 'comparison/axes.yaml')),
});
