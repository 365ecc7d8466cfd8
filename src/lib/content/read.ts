// Reads the content folder, one collection at a time: YAML parsed with positions, each entry
// validated by its schema, every problem located (file:line:column, row, column, field). Pure
// Node, no Astro imports: the content layer's loaders (loaders.ts) and the plain-Node scripts
// (verify-quotes, the benchmark, unit tests) read through these same functions.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, relative, basename, extname } from 'node:path';
import type { z } from 'astro/zod';
import {
  siteSchema, sourceSchema, excerptSchema, backendSchema, axisSchema, evidenceSchema, pageSchema,
  type Site, type Source, type Excerpt, type Backend, type Axis, type Evidence, type PageData,
} from './schemas.ts';
import { fieldName, type Problem, type Where, type YamlPath } from './errors.ts';
import { parseYaml, type YamlFile } from './yaml.ts';
import { scanPage, type PageScan } from './page-scan.ts';
import { evidenceOutputProblems } from './evidence-checks.ts';

/** Renders inline Markdown to HTML. The site passes Astro's own pipeline; scripts, plainRender. */
export type Render = (markdown: string) => Promise<string>;

/** For plain-Node callers that never render a page: the text, HTML-escaped. */
export const plainRender: Render = async (md) =>
  md.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Where an entry came from: its file and, in a list file, its index. */
export interface Origin { file: string; index: number }

export interface SiteEntry extends Site { file: string }
export interface SourceEntry extends Source, Origin {}
export interface BackendEntry extends Backend, Origin {}
export interface AxisEntry extends Axis, Origin {
  html: { summary: string; cells: Record<string, { short: string; answer: string; how?: string }> };
}
export interface ExcerptEntry extends Excerpt, Origin {
  /** The source id: an excerpt file is named after its source. */
  source: string;
  html: { quote?: string; note?: string; answers: string };
}
export interface EvidenceEntry extends Evidence { id: string; file: string }
export interface PageEntry extends PageScan {
  /** The page's id in the pages collection: its path under content/pages, without extension. */
  id: string;
  file: string;
  data: PageData;
}

export interface ContentData {
  site: SiteEntry;
  sources: SourceEntry[];
  excerpts: ExcerptEntry[];
  backends: BackendEntry[];
  axes: AxisEntry[];
  evidence: EvidenceEntry[];
  pages: PageEntry[];
}

export interface Read<T> {
  entries: T[];
  problems: Problem[];
  /** Every YAML file read, for locating problems found later (cross-file rules). */
  files: YamlFile[];
}

/** A file name for messages: relative to the working directory, as editors expect. */
export const displayPath = (abs: string): string => relative(process.cwd(), abs) || abs;

// How a zod issue path inside one entry maps onto row / column / field.
type Locate = (entry: unknown, index: number, path: YamlPath) => Omit<Where, 'file'>;
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
const docLocate: Locate = (_entry, _index, path) => ({ field: fieldName(path) || undefined });

function readYamlFile(abs: string, problems: Problem[]): YamlFile | undefined {
  const file = displayPath(abs);
  if (!existsSync(abs)) {
    problems.push({ file, problem: 'file is missing (restore it; every content folder needs it)' });
    return undefined;
  }
  const yaml = parseYaml(readFileSync(abs, 'utf8'), file);
  problems.push(...yaml.problems);
  return yaml;
}

/** Validates one entry; on failure every issue is a located problem. */
function validate<S extends z.ZodType>(
  yaml: YamlFile, value: unknown, prefix: YamlPath, index: number, schema: S, locate: Locate, problems: Problem[],
): z.infer<S> | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const path = issue.path.filter((k): k is string | number => typeof k !== 'symbol');
    problems.push({ file: yaml.file, ...yaml.at([...prefix, ...path]), ...locate(value, index, path), problem: issue.message });
  }
  return undefined;
}

/** The entries of a list file, validated; `make` adds what the site stores beside the data. */
async function readList<S extends z.ZodType, T>(
  abs: string, schema: S, locate: Locate, make: (data: z.infer<S>, origin: Origin) => Promise<T>,
): Promise<Read<T>> {
  const problems: Problem[] = [];
  const yaml = readYamlFile(abs, problems);
  if (!yaml || yaml.value === undefined || yaml.value === null) return { entries: [], problems, files: yaml ? [yaml] : [] };
  if (!Array.isArray(yaml.value)) {
    problems.push({ file: yaml.file, ...yaml.at([]), problem: 'must be a YAML list of entries (each starting with "- id: ...")' });
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
  existsSync(dir) ? readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => join(dir, f)) : [];

/**
 * Inline Markdown: block syntax at a line's start (a quote that begins "* kube-proxy ...") is
 * escaped so it stays text, and the one paragraph the renderer wraps it in is removed.
 */
export async function renderInline(render: Render, md: string): Promise<string> {
  const text = md.trim().replace(/^(\s*)([*+>#-]|\d+[.)])(?=\s|$)/gm, '$1\\$2');
  const html = (await render(text)).trim();
  const m = /^<p>([\s\S]*)<\/p>$/.exec(html);
  return m && !m[1]!.includes('<p>') ? m[1]! : html;
}

// ---------------------------------------------------------------------------------------------
// The collections. Paths are relative to the content folder.

export const PATHS = {
  site: 'site.yaml',
  sources: 'sources.yaml',
  backends: 'comparison/backends.yaml',
  axes: 'comparison/axes.yaml',
  excerpts: 'excerpts',
  evidence: 'evidence',
  pages: 'pages',
} as const;

export async function readSite(dir: string): Promise<Read<SiteEntry>> {
  const problems: Problem[] = [];
  const yaml = readYamlFile(join(dir, PATHS.site), problems);
  if (!yaml || yaml.value === undefined) return { entries: [], problems, files: yaml ? [yaml] : [] };
  const data = validate(yaml, yaml.value, [], -1, siteSchema, docLocate, problems);
  return { entries: data ? [{ ...data, file: yaml.file }] : [], problems, files: [yaml] };
}

export const readSources = (dir: string): Promise<Read<SourceEntry>> =>
  readList(join(dir, PATHS.sources), sourceSchema, rowLocate, async (d: Source, o) => ({ ...d, ...o }));

export const readBackends = (dir: string): Promise<Read<BackendEntry>> =>
  readList(join(dir, PATHS.backends), backendSchema, columnLocate, async (d: Backend, o) => ({ ...d, ...o }));

export const readAxes = (dir: string, render: Render): Promise<Read<AxisEntry>> =>
  readList(join(dir, PATHS.axes), axisSchema, axisLocate, async (d: Axis, o) => {
    const cells: AxisEntry['html']['cells'] = {};
    for (const [backend, cell] of Object.entries(d.cells)) {
      cells[backend] = {
        short: await renderInline(render, cell.short),
        answer: await renderInline(render, cell.answer),
        ...(cell.measure && { how: await renderInline(render, cell.measure.how) }),
      };
    }
    return { ...d, ...o, html: { summary: await renderInline(render, d.summary), cells } };
  });

export async function readExcerpts(dir: string, render: Render): Promise<Read<ExcerptEntry>> {
  const out: Read<ExcerptEntry> = { entries: [], problems: [], files: [] };
  for (const abs of yamlIn(join(dir, PATHS.excerpts))) {
    const source = basename(abs, extname(abs));
    const read = await readList(abs, excerptSchema, rowLocate, async (d: Excerpt, o) => ({
      ...d, ...o, source,
      html: {
        ...(d.quote !== undefined && { quote: await renderInline(render, d.quote) }),
        ...(d.note !== undefined && { note: await renderInline(render, d.note) }),
        answers: await renderInline(render, d.answers),
      },
    }));
    out.entries.push(...read.entries);
    out.problems.push(...read.problems);
    out.files.push(...read.files);
  }
  return out;
}

export async function readEvidence(dir: string): Promise<Read<EvidenceEntry>> {
  const out: Read<EvidenceEntry> = { entries: [], problems: [], files: [] };
  for (const abs of yamlIn(join(dir, PATHS.evidence))) {
    const yaml = readYamlFile(abs, out.problems);
    if (!yaml) continue;
    out.files.push(yaml);
    if (yaml.value === undefined) continue;
    const data = validate(yaml, yaml.value, [], -1, evidenceSchema, docLocate, out.problems);
    if (data) out.problems.push(...evidenceOutputProblems(data, yaml));
    if (data) out.entries.push({ ...data, id: basename(abs, extname(abs)), file: yaml.file });
  }
  return out;
}

/** A page's frontmatter validated, and its body scanned, from the file's whole text. */
export function readPage(id: string, abs: string, text: string): { entry?: PageEntry; problems: Problem[] } {
  const file = displayPath(abs);
  const problems: Problem[] = [];
  const fm = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!fm) {
    problems.push({ file, line: 1, col: 1, problem: 'no frontmatter: start the page with a --- block holding title, description and order' });
    return { problems };
  }
  const yaml = parseYaml(fm[1]!, file, 1);
  problems.push(...yaml.problems);
  if (yaml.problems.length > 0) return { problems };
  const data = validate(yaml, yaml.value ?? {}, [], -1, pageSchema, docLocate, problems);
  if (!data) return { problems };
  return { entry: { id, file, data, ...scanPage(text) }, problems };
}

export async function readPages(dir: string): Promise<Read<PageEntry>> {
  const out: Read<PageEntry> = { entries: [], problems: [], files: [] };
  const root = join(dir, PATHS.pages);
  const walk = (d: string): string[] =>
    existsSync(d)
      ? readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.mdx') ? [join(d, e.name)] : []))
      : [];
  for (const abs of walk(root).sort()) {
    const id = relative(root, abs).replace(/\.mdx$/, '').split('\\').join('/');
    const { entry, problems } = readPage(id, abs, readFileSync(abs, 'utf8'));
    if (entry) out.entries.push(entry);
    out.problems.push(...problems);
  }
  return out;
}

/** Every collection of a content folder, read from disk (the plain-Node path). */
export async function readAll(dir: string, render: Render = plainRender) {
  const [site, sources, backends, axes, excerpts, evidence, pages] = await Promise.all([
    readSite(dir), readSources(dir), readBackends(dir), readAxes(dir, render), readExcerpts(dir, render), readEvidence(dir), readPages(dir),
  ]);
  return { site, sources, backends, axes, excerpts, evidence, pages };
}
