// One zod schema per kind of content file. Plain module (no astro: imports) so unit tests,
// the build and the scripts all validate with the same rules.
import { z } from 'astro/zod';
import { wordCount } from '../claims/words.ts';
import type { YamlPath } from '../problems.ts';

const kebab = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const kebabId = z.string().regex(kebab, 'must be kebab-case: lower-case letters, digits and single hyphens');
/** A pin: a full commit id, or a release tag (`v1.37.2`, read from the Go module cache: docs/refreshing.md). */
const pin = z
  .string()
  .regex(/^(?:[0-9a-f]{40}|v\d+\.\d+\.\d+)$/, 'must be a full 40-hex commit id or a release tag like v1.37.2');
const lineRange = z
  .tuple([z.number().int().positive(), z.number().int().positive()])
  .refine(([a, b]) => a <= b, 'first line must not be after the last line');

/** A k8s.io/kubernetes module version: a release tag, or a prerelease such as v1.38.0-beta.0. */
const moduleVersion = z.string().regex(/^v\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/, 'must look like v1.37.2');

export const siteSchema = z
  .strictObject({
    title: z.string().min(1),
    shortTitle: z.string().min(1),
    description: z.string().min(20),
    /** The Kubernetes release every status statement on the site is "as of". */
    asOf: z.string().regex(/^v\d+\.\d+$/, 'must look like v1.37'),
    /**
     * Why that release: written by `npm run release-check` (tools/release-check.ts), never by hand. The
     * release the lab builds (lab/go.mod) and what `go list -m -versions k8s.io/kubernetes` listed, when.
     */
    release: z
      .strictObject({
        lab: moduleVersion,
        checked: z.iso.datetime(),
        command: z.literal('go list -m -versions k8s.io/kubernetes'),
        proxy: z.string().min(1),
        newest: moduleVersion,
        newestPrerelease: moduleVersion.optional(),
        listed: z.number().int().positive(),
      })
      .optional(),
  })
  .refine((s) => !s.release || s.asOf === s.release.lab.replace(/^(v\d+\.\d+)\..*$/, '$1'), {
    path: ['asOf'],
    message: 'asOf names the minor release of release.lab, the release the lab builds (npm run release-check)',
  });

export const sourceSchema = z
  .strictObject({
    id: kebabId,
    label: z.string().min(1),
    title: z.string().min(1),
    repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'must be owner/name'),
    path: z.string().min(1),
    commit: pin,
    /**
     * The pinned commit's date (UTC), only as a pinned copy records it (a SOURCE.md, or git): never
     * guessed. Shown on the source's page; `npm run verify:drift` checks it against the copy.
     */
    committed: z.iso.date().optional(),
    license: z.string().min(1),
    /** True only where a byte-exact copy is pinned, so quotes from it can be verified. */
    quotable: z.boolean(),
    /** Site page (no slashes at either end) that shows this source's excerpts. */
    page: z.string().regex(/^[a-z0-9-]+(?:\/[a-z0-9-]+)*$/, 'must be a site path like keps/kep-3866'),
  })
  // A release tag is read from the Go module cache (k8s.io/kubernetes@<tag>), so only
  // kubernetes/kubernetes sources may be pinned to one; the KEPs stay at a commit.
  .refine((s) => /^[0-9a-f]{40}$/.test(s.commit) || s.repo === 'kubernetes/kubernetes', {
    path: ['commit'],
    message: 'only a kubernetes/kubernetes source may be pinned to a release tag; pin this one to a 40-hex commit',
  });

/** The most lines a code note's verbatim `code` may show: a few lines that convince, not a listing. */
export const CODE_MAX_LINES = 6;

export const excerptSchema = z
  .strictObject({
    id: kebabId,
    section: z.string().min(1),
    lines: lineRange,
    /** Another file in the source's directory (e.g. kep.yaml), when not the source file itself. */
    path: z.string().min(1).optional(),
    quote: z.string().min(1).max(600, 'quotes must be short (at most 600 characters)').optional(),
    /** Where a quote breaks off mid-sentence (mid-line in YAML or code); shown as an ellipsis there. */
    cut: z.enum(['start', 'end', 'both']).optional(),
    /**
     * How a quote that spans more than one block of its source keeps that block's shape (written as a
     * `|-` block with the source's line breaks): `markdown` for a heading with its items or a list
     * (shown as a heading and a list, the markers not as text), `sample` for lines of a code block
     * such as sample output (shown preformatted, line for line). Checked by verify-quotes (quoteShape).
     */
    form: z.enum(['markdown', 'sample']).optional(),
    note: z.string().min(1).optional(),
    /**
     * A code note's short verbatim identifier or string literal from its lines, to re-find them (required on
     * notes: checks/excerpts.ts).
     */
    anchor: z.string().min(1).optional(),
    /**
     * A few lines of the code a note describes, verbatim: `lines`, a sub-range of the note's (at most
     * CODE_MAX_LINES), and `text`, exactly those lines of the pinned file (a `|-` block, tabs kept).
     * The build checks the text byte for byte where the pinned copy is present (checks/excerpts.ts,
     * upstream/code.ts); it is stored, as the site deploys where no copy is (docs/claims.md, "Code").
     */
    code: z
      .strictObject({
        lines: lineRange,
        text: z.string().min(1),
      })
      .optional(),
    answers: z.string().min(1),
  })
  .refine((e) => (e.quote === undefined) !== (e.note === undefined), {
    message: 'needs exactly one of quote (verbatim) or note (own words)',
    path: ['quote'],
  })
  .refine((e) => e.cut === undefined || e.quote !== undefined, {
    message: 'cut marks where a quote is cut; a note has none',
    path: ['cut'],
  })
  .refine((e) => e.form === undefined || (e.quote !== undefined && e.quote.includes('\n')), {
    message: "form keeps a quote's lines: write the quote as a |- block with the source's line breaks",
    path: ['form'],
  })
  .superRefine((e, ctx) => {
    if (!e.code) return;
    const [a, b] = e.code.lines;
    const add = (field: 'lines' | 'text', message: string) =>
      ctx.addIssue({ code: 'custom', path: ['code', field], message });
    if (e.note === undefined)
      return add('lines', "code shows lines under a code note; a quote's own words are verbatim already");
    if (a < e.lines[0] || b > e.lines[1])
      return add('lines', `code lines [${a}, ${b}] must be within the note's lines [${e.lines[0]}, ${e.lines[1]}]`);
    if (b - a + 1 > CODE_MAX_LINES)
      return add('lines', `too long: ${b - a + 1} lines, at most ${CODE_MAX_LINES} (the note describes the rest)`);
    const count = e.code.text.split('\n').length;
    if (count !== b - a + 1)
      add(
        'text',
        `the text has ${count} line${count === 1 ? '' : 's'} and lines [${a}, ${b}] are ${b - a + 1}: write exactly those lines as a |- block (no final line break)`,
      );
  });

/**
 * Ids an axis or a backend was published under before it was renamed, so links to them keep
 * working (the old axis page redirects, the old fragments stay on the page). Never reuse one.
 */
const formerIds = z.array(kebabId).min(1, 'list the old ids, or leave formerly out').optional();

export const backendSchema = z.strictObject({
  id: kebabId,
  formerly: formerIds,
  name: z.string().min(1),
  /** Whether this study ran the backend; a backend that was not run cannot hold measurements. */
  run: z.boolean(),
  status: z.string().min(1),
});

export const measureSchema = z.strictObject({
  exercise: z.number().int().positive(),
  /** How to measure it (inline Markdown), shown while no evidence is captured. */
  how: z.string().min(1),
  /** Id of the captured evidence file (content/evidence/<id>.yaml), once there is one. */
  evidence: kebabId.optional(),
});

/** The most words a cell's short answer (the table's at-a-glance verdict) may have. */
export const SHORT_MAX_WORDS = 12;

/**
 * A cell's short answer: what the table shows beside the badge, the full answer one click away.
 * Never stronger than the full answer (docs/claims.md, "Short answers and summaries").
 */
const shortAnswer = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? `missing: every cell needs a short answer (inline Markdown, at most ${SHORT_MAX_WORDS} words), the table shows it beside the badge`
        : undefined,
  })
  .min(1, "must not be empty: write the cell's verdict in a few words")
  .superRefine((text, ctx) => {
    const words = wordCount(text);
    if (words > SHORT_MAX_WORDS) {
      ctx.addIssue({
        code: 'custom',
        message: `too long: ${words} words, at most ${SHORT_MAX_WORDS} (the full answer holds the rest)`,
      });
    }
  });

export const cellSchema = z.strictObject({
  short: shortAnswer,
  answer: z.string().min(1),
  cites: z.array(z.string().min(1)).min(1, 'every cell cites at least one excerpt'),
  measure: measureSchema.optional(),
});

export const axisSchema = z.strictObject({
  id: kebabId,
  formerly: formerIds,
  /** The axis's question, worded as the seed words it. */
  question: z.string().min(1),
  /** One short sentence for link previews of the axis's own page. */
  summary: z.string().min(1),
  cells: z.record(z.string(), cellSchema),
});

const evidenceFields = z.strictObject({
  /** The exercise that measures it (16-18); absent for what the study measured beyond the exercises. */
  exercise: z.number().int().positive().optional(),
  /** What was run when it is not an exercise: "drain", the drain run (lab/drain.sh, src/lib/evidence/drain.ts). */
  kind: z.literal('drain').optional(),
  axis: kebabId,
  backend: kebabId,
  captured: z.iso.date(),
  kubernetes: z.string().regex(/^v\d+\.\d+\.\d+/, 'must be a Kubernetes version like v1.37.0'),
  kernel: z.string().min(1),
  command: z.string().min(1),
  output: z.string().min(1),
  notes: z.string().optional(),
  // Written by `npm run evidence -- add` from a capture (tools/capture/); optional for hand-made files.
  /** kube-proxy's mode on the node when captured, and how the capture read it (e.g. its /proxyMode). */
  mode: kebabId.optional(),
  modeFrom: z.string().min(1).optional(),
  /** How the capture read kube-proxy's version (`kubernetes`), e.g. the process's binary with --version. */
  versionFrom: z.string().min(1).optional(),
  /** The capture's UTC time, ISO 8601; `captured` is its date. */
  capturedAt: z.iso.datetime().optional(),
  /** The node's netfilter tools as they name themselves (`iptables --version`, `nft --version`). */
  iptables: z.string().min(1).optional(),
  nft: z.string().min(1).optional(),
  /** Where the capture was taken, as its `--setting` file says (the cluster, what was simulated). */
  setting: z.string().min(1).optional(),
  /** sha256 of `output` (UTF-8) as the capture script recorded it: an edit after capture fails the build. */
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits (sha256sum)')
    .optional(),
});
/** An evidence file: a capture of an exercise (16-18), or a run of another kind (drain). */
export const evidenceSchema = evidenceFields.superRefine((ev, ctx) => {
  if ((ev.exercise === undefined) === (ev.kind === undefined))
    ctx.addIssue({
      code: 'custom',
      path: ['exercise'],
      message: 'give exactly one of exercise (16-18: a capture of the kit) and kind (drain: lab/drain.sh)',
    });
});

/**
 * A growth sweep (content/growth/<id>.yaml, issue 45): lab/growth.sh's raw output, gzipped beside it
 * (`output`), and what it states, all written by tools/growth-evidence.ts from that output. The
 * reader decompresses the output, checks its sha256, reads it again (src/lib/evidence/growth.ts)
 * and refuses the file when a field or a number of `summary` does not follow from it.
 */
export const growthSchema = z.strictObject({
  captured: z.iso.date(),
  /** The sweep's first and last lines' UTC times ("# started:", "# finished:"). */
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime(),
  kubernetes: z.string().regex(/^v\d+\.\d+\.\d+/, 'must be a Kubernetes version like v1.37.0'),
  kernel: z.string().min(1),
  machine: z.string().min(1),
  /** /proc/loadavg when the sweep started, at each size, and when it finished. */
  loadavg: z.array(z.string().min(1)).min(2),
  iptables: z.string().min(1),
  nft: z.string().min(1),
  setting: z.string().min(1),
  /** The command that ran the sweep (its first line). */
  command: z.string().min(1),
  /** The raw output's file beside this one, gzip. */
  output: z
    .string()
    .regex(/^[a-z0-9-]+\.output\.gz$/, 'must name the gzipped output beside this file (<id>.output.gz)'),
  /** sha256 of the output, decompressed (UTF-8). */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits (sha256sum)'),
  /** What the output gives, per size (src/lib/evidence/growth.ts, summarize): the build recomputes it. */
  summary: z.array(z.record(z.string(), z.unknown())).min(1),
});

export const pageSchema = z.strictObject({
  title: z.string().min(1),
  description: z.string().min(20, 'write a sentence (it is the link preview)'),
  /** Position in the artifact's page order (previous/next links, navigation). */
  order: z.number(),
  /** Short label for navigation; defaults to the title. */
  nav: z.string().optional(),
  /** Listed in the site's primary navigation (in `order`). */
  menu: z.boolean().default(false),
  /** The navigation entry this page belongs under (a `menu: true` page's id); a menu page heads its own. */
  section: z.string().min(1).optional(),
  /** Show a table of contents (long pages). */
  toc: z.boolean().default(true),
  /**
   * Whether the page makes claims about upstream, so that every paragraph and list item must cite
   * or be marked as our reading (docs/claims.md). Only a page that reproduces a text verbatim (the
   * exercise, the seed) says `claims: false`.
   */
  claims: z.boolean().default(true),
});

// Figures (content/figures/<id>.yaml): lanes, steps, edges and labels, laid out and drawn at build
// time (src/lib/figures/). A label is a short line of text with `code` spans and nothing else: it is
// drawn as SVG text, so links, emphasis and HTML have no place in it (citations go in `cites`).
const figureLabel = z
  .string()
  .min(1)
  .max(160, 'keep a figure label short (at most 160 characters): the figure is a summary, the prose says the rest')
  .refine(
    (s) => !/[[\]*<>]|(^|\s)_/.test(s.replace(/`[^`]*`/g, '')),
    'a figure label holds text and `code` only (no links, emphasis or HTML; cite with cites:)',
  );

/** Provenance, as for a table cell: excerpt ids it rests on, or `reading: true` for our inference. */
const provenance = {
  cites: z.array(z.string().min(1)).min(1, 'cite at least one excerpt, or drop cites and say reading: true').optional(),
  /** Our own inference: shown as such in the figure and its text equivalent. */
  reading: z.literal(true).optional(),
};
const oneProvenance = <T extends { cites?: string[]; reading?: true }>(e: T) =>
  (e.cites === undefined) !== (e.reading === undefined);
const provenanceMessage = {
  message: 'needs exactly one of cites (excerpt ids) or reading: true (our own inference)',
  path: ['cites'],
};

export const figureStageSchema = z
  .strictObject({ id: kebabId, label: figureLabel, ...provenance })
  .refine(oneProvenance, provenanceMessage);

export const figureLaneSchema = z.strictObject({
  /** The backend this lane shows (content/comparison/backends.yaml); its name is the lane's title. */
  backend: kebabId,
});

export const figureStepSchema = z
  .strictObject({
    id: kebabId,
    /** The backend whose lane holds the step (formerly `lane:`, still read: FIGURE_RENAMES). */
    backend: kebabId,
    /** The stage it belongs to, when the figure has stages: its band across every lane. */
    stage: kebabId.optional(),
    label: figureLabel,
    ...provenance,
  })
  .refine(oneProvenance, provenanceMessage);

export const figureEdgeSchema = z.strictObject({
  from: kebabId,
  to: kebabId,
  /** One or two words on the arrow ("jump", "goto"); claims belong in steps, which cite. */
  label: z.string().min(1).max(24, 'an edge label is one or two words; put claims in a step').optional(),
});

/**
 * Figure keys renamed to the names of docs/names.md. Content written with an old key still reads
 * (the key is taken as its new name, and the figure's `renamed` lists where); checks/figures.ts
 * prints a located deprecation for each.
 */
export const FIGURE_RENAMES = {
  /** At the figure's top level. */
  figure: { rows: 'axes' },
  /** In each of `steps`. */
  step: { lane: 'backend' },
} as const;

/** An old key read under its new name: where it is written (a path in the file), and both names. */
const renamedKey = z.strictObject({
  path: z.array(z.union([z.string(), z.number()])),
  old: z.string(),
  now: z.string(),
});
export type RenamedKey = z.infer<typeof renamedKey>;

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A copy of an object with each old key that has no new key beside it under its new name. */
function renameKeys(value: Plain, renames: Readonly<Record<string, string>>, at: YamlPath, out: RenamedKey[]): Plain {
  const copy: Plain = { ...value };
  for (const [old, now] of Object.entries(renames))
    if (old in copy && !(now in copy)) {
      copy[now] = copy[old];
      delete copy[old];
      out.push({ path: [...at, old], old, now });
    }
  return copy;
}

/** The figure as written, old keys under their new names and listed in `renamed` (set here only). */
function renameFigureKeys(value: unknown): unknown {
  if (!isPlain(value) || 'renamed' in value) return value;
  const renamed: RenamedKey[] = [];
  const figure = renameKeys(value, FIGURE_RENAMES.figure, [], renamed);
  if (Array.isArray(figure.steps))
    figure.steps = figure.steps.map((step, i) =>
      isPlain(step) ? renameKeys(step, FIGURE_RENAMES.step, ['steps', i], renamed) : step,
    );
  return { ...figure, renamed };
}

const figureObject = z.strictObject({
  title: z.string().min(1),
  /** Says what the figure shows (inline Markdown); the steps carry the claims. */
  caption: z.string().min(1),
  /** The axes (ids) whose pages show this figure (formerly `rows:`, still read: FIGURE_RENAMES). */
  axes: z.array(kebabId).default([]),
  stages: z.array(figureStageSchema).min(1, 'list the stages, or leave stages out').optional(),
  lanes: z.array(figureLaneSchema).min(1, 'a figure needs at least one lane'),
  steps: z.array(figureStepSchema).min(1, 'a figure needs at least one step'),
  edges: z.array(figureEdgeSchema).default([]),
  /** Set by the reader, never written: the old keys this file used (FIGURE_RENAMES). */
  renamed: z.array(renamedKey),
});

export const figureSchema = z.preprocess(renameFigureKeys, figureObject);

export type Site = z.infer<typeof siteSchema>;
export type Source = z.infer<typeof sourceSchema>;
export type Excerpt = z.infer<typeof excerptSchema>;
export type Backend = z.infer<typeof backendSchema>;
export type Axis = z.infer<typeof axisSchema>;
export type Cell = z.infer<typeof cellSchema>;
export type Evidence = z.infer<typeof evidenceSchema>;
export type Growth = z.infer<typeof growthSchema>;
export type PageData = z.infer<typeof pageSchema>;
export type Figure = z.infer<typeof figureSchema>;
export type FigureStep = z.infer<typeof figureStepSchema>;
