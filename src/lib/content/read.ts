// The readers, one per kind of content file: YAML parsed with positions, each entry validated by
// its schema, every problem located (file:line:column, item, backend, field). Each takes the
// absolute path of its file or folder; collections.ts says which path each collection reads.
// Markdown fields are rendered apart (render*), after every file is read: the citation index needs
// only the validated data. Pure Node, no Astro imports: the content reader (reader.ts) reads
// through these.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, relative, basename, extname } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { z } from 'astro/zod';
import {
  siteSchema,
  sourceSchema,
  excerptSchema,
  backendSchema,
  axisSchema,
  evidenceSchema,
  growthSchema,
  pageSchema,
  figureSchema,
  type Source,
  type Excerpt,
  type Backend,
  type Axis,
} from './schemas.ts';
import { fieldName, type ItemKind, type Problem, type Where, type YamlPath } from '../problems.ts';
import { parseYaml, type YamlFile } from './yaml.ts';
import { scanPage } from '../claims/page-scan.ts';
import { countEvidenceOutput, checkGrowth } from './evidence-checks.ts';
import { renderInline, type Render } from './inline.ts';
import { goCodeBlock } from './code-block.ts';
import { renderQuoteBlocks } from './quote-blocks.ts';
import type {
  Origin,
  SiteEntry,
  SourceEntry,
  BackendEntry,
  AxisEntry,
  CellEntry,
  ExcerptEntry,
  EvidenceEntry,
  GrowthEntry,
  PageEntry,
  FigureEntry,
  Read,
} from './entries.ts';

/** A file name for messages: relative to the working directory, as editors expect. */
export const displayPath = (abs: string): string => relative(process.cwd(), abs) || abs;

// How a zod issue path inside one entry maps onto item / backend / field.
type Locate = (entry: unknown, index: number, path: YamlPath) => Omit<Where, 'file'>;
const idOf = (entry: unknown, index: number): string => {
  const id = (entry as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id !== '' ? id : `#${index + 1}`;
};
const itemLocate =
  (kind: ItemKind): Locate =>
  (entry, index, path) => ({ item: { kind, id: idOf(entry, index) }, field: fieldName(path) || undefined });
const axisLocate: Locate = (entry, index, path) =>
  path[0] === 'cells' && path.length >= 2
    ? {
        item: { kind: 'axis', id: idOf(entry, index) },
        backend: String(path[1]),
        field: fieldName(path.slice(2)) || undefined,
      }
    : itemLocate('axis')(entry, index, path);
const docLocate: Locate = (_entry, _index, path) => ({ field: fieldName(path) || undefined });
/** In a figure: the step (or stage, or edge) as the item, a step's backend, the full path as the field. */
const figureLocate: Locate = (entry, _index, path) => {
  const list = path[0];
  const item =
    typeof path[1] === 'number'
      ? (entry as Record<string, unknown[] | undefined> | null)?.[String(list)]?.[path[1]]
      : undefined;
  const it = item as { id?: unknown; backend?: unknown; lane?: unknown; from?: unknown; to?: unknown } | undefined;
  const backend = it?.backend ?? it?.lane;
  return {
    item:
      list === 'edges' && it
        ? { kind: 'edge', id: `${String(it.from)} -> ${String(it.to)}` }
        : typeof it?.id === 'string' && (list === 'steps' || list === 'stages')
          ? { kind: list === 'steps' ? 'step' : 'stage', id: it.id }
          : undefined,
    backend: list === 'steps' && typeof backend === 'string' ? backend : undefined,
    field: fieldName(path) || undefined,
  };
};

/** A YAML file parsed, its problems added to `problems`; undefined when it is missing or holds no value. */
function readYamlFile(abs: string, problems: Problem[]): YamlFile | undefined {
  const file = displayPath(abs);
  if (!existsSync(abs)) {
    problems.push({ file, problem: 'file is missing (restore it; every content folder needs it)' });
    return undefined;
  }
  const yaml = parseYaml(readFileSync(abs, 'utf8'), file);
  problems.push(...yaml.problems);
  // An empty file is the file's own problem, so the rules that read its collection wait (one problem,
  // not an "unknown axis" for every reference). In dev it is also what a save caught half-way reads.
  if (yaml.value !== undefined && yaml.value !== null) return yaml;
  if (yaml.problems.length === 0)
    problems.push({ file, line: 1, col: 1, problem: 'file is empty (nothing to read): write its content' });
  return undefined;
}

/** Validates one entry; on failure every issue is a located problem. */
function validate<S extends z.ZodType>(
  yaml: YamlFile,
  value: unknown,
  prefix: YamlPath,
  index: number,
  schema: S,
  locate: Locate,
  problems: Problem[],
): z.infer<S> | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const path = issue.path.filter((k): k is string | number => typeof k !== 'symbol');
    problems.push({
      file: yaml.file,
      ...yaml.at([...prefix, ...path]),
      ...locate(value, index, path),
      problem: issue.message,
    });
  }
  return undefined;
}

/** The entries of a list file, validated; `make` adds what the site stores beside the data. */
async function readList<S extends z.ZodType, T>(
  abs: string,
  schema: S,
  locate: Locate,
  make: (data: z.infer<S>, origin: Origin) => Promise<T>,
): Promise<Read<T>> {
  const problems: Problem[] = [];
  const yaml = readYamlFile(abs, problems);
  if (!yaml) return { entries: [], problems, files: [] };
  if (!Array.isArray(yaml.value)) {
    problems.push({
      file: yaml.file,
      ...yaml.at([]),
      problem: 'must be a YAML list of entries (each starting with "- id: ...")',
    });
    return { entries: [], problems, files: [yaml] };
  }
  const entries: T[] = [];
  for (const [index, value] of yaml.value.entries()) {
    const data = validate(yaml, value, [index], index, schema, locate, problems);
    if (data !== undefined) entries.push(await make(data, { file: yaml.file, index }));
  }
  return { entries, problems, files: [yaml] };
}

const yamlIn = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
        .map((f) => join(dir, f))
    : [];

// ---------------------------------------------------------------------------------------------
// One reader per kind of file.

export async function readSite(abs: string): Promise<Read<SiteEntry>> {
  const problems: Problem[] = [];
  const yaml = readYamlFile(abs, problems);
  if (!yaml) return { entries: [], problems, files: [] };
  const data = validate(yaml, yaml.value, [], -1, siteSchema, docLocate, problems);
  return { entries: data ? [{ ...data, file: yaml.file }] : [], problems, files: [yaml] };
}

export const readSources = (abs: string): Promise<Read<SourceEntry>> =>
  readList(abs, sourceSchema, itemLocate('source'), async (d: Source, o) => ({ ...d, ...o }));

export const readBackends = (abs: string): Promise<Read<BackendEntry>> =>
  readList(abs, backendSchema, itemLocate('backend'), async (d: Backend, o) => ({ ...d, ...o }));

/** An axis as validated, before its Markdown fields are rendered. */
export type ParsedAxis = Omit<AxisEntry, 'html' | 'cells'> & { cells: Axis['cells'] };
export type ParsedExcerpt = Omit<ExcerptEntry, 'html'>;
export type ParsedFigure = Omit<FigureEntry, 'html'>;

export const readAxes = (abs: string): Promise<Read<ParsedAxis>> =>
  readList(abs, axisSchema, axisLocate, async (d: Axis, o) => ({ ...d, ...o }));

export async function renderAxis(axis: ParsedAxis, render: Render): Promise<AxisEntry> {
  const cells: Record<string, CellEntry> = {};
  for (const [backend, cell] of Object.entries(axis.cells)) {
    cells[backend] = {
      ...cell,
      html: {
        short: await renderInline(render, cell.short),
        answer: await renderInline(render, cell.answer),
        ...(cell.measure && { how: await renderInline(render, cell.measure.how) }),
      },
    };
  }
  return { ...axis, cells, html: { summary: await renderInline(render, axis.summary) } };
}

export async function readExcerpts(folder: string): Promise<Read<ParsedExcerpt>> {
  const out: Read<ParsedExcerpt> = { entries: [], problems: [], files: [] };
  for (const abs of yamlIn(folder)) {
    const source = basename(abs, extname(abs));
    const excerptLocate: Locate = (entry, index, path) => ({
      item: { kind: 'excerpt', id: `${source}/${idOf(entry, index)}` },
      field: fieldName(path) || undefined,
    });
    const read = await readList(abs, excerptSchema, excerptLocate, async (d: Excerpt, o) => ({ ...d, ...o, source }));
    out.entries.push(...read.entries);
    out.problems.push(...read.problems);
    out.files.push(...read.files);
  }
  return out;
}

export const renderExcerpt = async (e: ParsedExcerpt, render: Render): Promise<ExcerptEntry> => ({
  ...e,
  html: {
    ...(e.quote !== undefined && {
      quote: e.form ? await renderQuoteBlocks(render, e.quote, e.form) : await renderInline(render, e.quote),
    }),
    ...(e.note !== undefined && { note: await renderInline(render, e.note) }),
    ...(e.code && { code: (await render(goCodeBlock(e.code.text))).trim() }),
    answers: await renderInline(render, e.answers),
  },
});

/**
 * A folder of one-document files (evidence/<id>.yaml, figures/<id>.yaml): each validated by its
 * schema; `make` turns valid data into the entry, its id the file's name (and may add problems).
 */
async function readDocuments<S extends z.ZodType, T>(
  folder: string,
  schema: S,
  locate: Locate,
  make: (data: z.infer<S>, id: string, yaml: YamlFile, problems: Problem[]) => Promise<T>,
): Promise<Read<T>> {
  const out: Read<T> = { entries: [], problems: [], files: [] };
  for (const abs of yamlIn(folder)) {
    const yaml = readYamlFile(abs, out.problems);
    if (!yaml) continue;
    out.files.push(yaml);
    const data = validate(yaml, yaml.value, [], -1, schema, locate, out.problems);
    if (data !== undefined) out.entries.push(await make(data, basename(abs, extname(abs)), yaml, out.problems));
  }
  return out;
}

export const readEvidence = (folder: string): Promise<Read<EvidenceEntry>> =>
  readDocuments(folder, evidenceSchema, docLocate, async (data, id, yaml, problems) => {
    const { problems: found, count } = countEvidenceOutput(data, yaml);
    problems.push(...found);
    return { ...data, id, file: yaml.file, ...(count && { count }) };
  });

export const readGrowthSweeps = (folder: string): Promise<Read<GrowthEntry>> =>
  readDocuments(folder, growthSchema, docLocate, async (data, id, yaml, problems) => {
    const gz = join(folder, data.output);
    let output: string | undefined;
    try {
      output = gunzipSync(readFileSync(gz)).toString('utf8');
    } catch {
      output = undefined;
    }
    const { problems: found, sweep, points } = checkGrowth(data, yaml, output);
    problems.push(...found);
    return { ...data, id, file: yaml.file, ...(sweep && points && { sweep, points }) };
  });

export const readFigures = (folder: string): Promise<Read<ParsedFigure>> =>
  readDocuments(folder, figureSchema, figureLocate, async (data, id, yaml) => ({ ...data, id, file: yaml.file }));

/** A figure's caption, and every step's and stage's label, rendered. */
export async function renderFigure(figure: ParsedFigure, render: Render): Promise<FigureEntry> {
  const labels: Record<string, string> = {};
  for (const item of [...(figure.stages ?? []), ...figure.steps])
    labels[item.id] = await renderInline(render, item.label);
  return { ...figure, html: { caption: await renderInline(render, figure.caption), labels } };
}

/** A page's frontmatter validated, and its body scanned, from the file's whole text. */
export function readPage(id: string, abs: string, text: string): { entry?: PageEntry; problems: Problem[] } {
  const file = displayPath(abs);
  const problems: Problem[] = [];
  const fm = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!fm) {
    problems.push({
      file,
      line: 1,
      col: 1,
      problem: 'no frontmatter: start the page with a --- block holding title, description and order',
    });
    return { problems };
  }
  const yaml = parseYaml(fm[1]!, file, 1);
  problems.push(...yaml.problems);
  if (yaml.problems.length > 0) return { problems };
  const data = validate(yaml, yaml.value ?? {}, [], -1, pageSchema, docLocate, problems);
  if (!data) return { problems };
  const keys = Object.fromEntries(
    Object.keys(data).flatMap((k) => {
      const pos = yaml.at([k]);
      return pos ? [[k, pos]] : [];
    }),
  );
  return { entry: { id, file, data, keys, ...scanPage(text) }, problems };
}

export async function readPages(root: string): Promise<Read<PageEntry>> {
  const out: Read<PageEntry> = { entries: [], problems: [], files: [] };
  const walk = (d: string): string[] =>
    existsSync(d)
      ? readdirSync(d, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.mdx') ? [join(d, e.name)] : [],
        )
      : [];
  for (const abs of walk(root).sort()) {
    const id = relative(root, abs)
      .replace(/\.mdx$/, '')
      .split('\\')
      .join('/');
    const { entry, problems } = readPage(id, abs, readFileSync(abs, 'utf8'));
    if (entry) out.entries.push(entry);
    out.problems.push(...problems);
  }
  return out;
}
