// What each collection's reader stores: the validated data, where it came from (for located
// problems), and, for inline Markdown fields, their rendered HTML beside the text it came from.
import type { Site, Source, Excerpt, Backend, Axis, Cell, Evidence, Growth, PageData, Figure } from './schemas.ts';
import type { GrowthSummaryPoint, GrowthSweep } from '../evidence/growth.ts';
import type { Problem } from '../problems.ts';
import type { YamlFile } from './yaml.ts';
import type { PageScan } from '../claims/page-scan.ts';
import type { Count } from '../evidence/index.ts';

/** Where an entry came from: its file and, in a list file, its index. */
export interface Origin {
  file: string;
  index: number;
}

export interface SiteEntry extends Site {
  file: string;
}
export interface SourceEntry extends Source, Origin {}
export interface BackendEntry extends Backend, Origin {}
/** A cell as written, with its rendered answer (and how it is measured) on the cell itself. */
export interface CellEntry extends Cell {
  html: { short: string; answer: string; how?: string };
}
export interface AxisEntry extends Omit<Axis, 'cells'>, Origin {
  cells: Record<string, CellEntry>;
  html: { summary: string };
}
export interface ExcerptEntry extends Excerpt, Origin {
  /** The source id: an excerpt file is named after its source. */
  source: string;
  /** Rendered: `code` is the note's verbatim lines as a highlighted Go block (code-block.ts). */
  html: { quote?: string; note?: string; code?: string; answers: string };
}
export interface EvidenceEntry extends Evidence {
  id: string;
  file: string;
  /** What its output shows, counted once when the file is loaded (evidence/, one counter per exercise). */
  count?: Count;
}
/** A growth sweep, with what its output gives, read again when the file is loaded (absent when refused). */
export interface GrowthEntry extends Growth {
  id: string;
  file: string;
  points?: GrowthSummaryPoint[];
  sweep?: GrowthSweep;
}
export interface PageEntry extends PageScan {
  /** The page's id in the pages collection: its path under content/pages, without extension. */
  id: string;
  file: string;
  data: PageData;
  /** Where each frontmatter key is written, for located problems. */
  keys: Record<string, { line: number; col: number }>;
}

export interface FigureEntry extends Figure {
  /** The figure's id: its file name under content/figures/, without extension. */
  id: string;
  file: string;
  /** Caption, and every step's and stage's label, rendered (inline Markdown) for the text equivalent. */
  html: { caption: string; labels: Record<string, string> };
}

/** What one reader returns: the valid entries, every problem, and the YAML files it read. */
export interface Read<T> {
  entries: T[];
  problems: Problem[];
  /** Every YAML file read, for locating problems found later (cross-file rules). */
  files: YamlFile[];
}
