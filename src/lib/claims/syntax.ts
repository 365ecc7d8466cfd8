// The claims syntax (docs/claims.md), as the site's Markdown and the content's rules both read it:
// the directive names, the forms of a cited id, and what a resolved id points at. It imports
// nothing of the content layer, so the Markdown plugins (remark-claims) and the content's rules
// (page-scan, checks) share it without importing each other.
//   :cite[id id ...]   ids: "<source>/<excerpt>" (an excerpt), "row/<axis>" (an axis),
//                      "evidence/<id>" (a capture)
//   :reading[...] and :::reading ... :::   our own inference
//   :::intro ... :::   text that makes no claim
import type { TextDirective } from 'mdast-util-directive';
import { toString } from 'mdast-util-to-string';

export const CITE = 'cite';
export const READING = 'reading';
export const INTRO = 'intro';
/** What a reader sees (and a screen reader reads) before our reading. */
export const READING_LABEL = 'Our reading';

/** The ids of a `:cite[...]`: its label, split on white space. */
export const citeIds = (node: TextDirective): string[] => toString(node).split(/\s+/).filter(Boolean);

/** An excerpt's full id, "<source>/<excerpt>": how cells, figures and `:cite[...]` name it. */
export const excerptId = (e: { source: string; id: string }): string => `${e.source}/${e.id}`;
/** An axis, cited: "row/<axis>" (the published id form, kept in content). */
export const axisCiteId = (axis: string): string => `row/${axis}`;
/** A capture, cited: "evidence/<id>". */
export const evidenceCiteId = (id: string): string => `evidence/${id}`;

export interface CiteTarget {
  id: string;
  kind: 'excerpt' | 'axis' | 'evidence';
  /** Site path from the root ("/keps/kep-265/#x"); rehype-base-links adds the deploy base. */
  href: string;
  /** The source's label ("KEP-265"), "table" or "evidence". */
  label: string;
  /** What the link shows: the source and its lines ("KEP-265 L98–102"), the axis ("drain axis"), "evidence". */
  text: string;
  /** The rest of its accessible name, shown in print only: the file (", pkg/proxy/topology.go"), ": <question>". */
  detail: string;
  /** Read before the label, with its punctuation: "Source: " (or nothing). */
  prefix: string;
}

/** Looks an id up; undefined when it names nothing (the checks report it, located). */
export type CiteResolver = (id: string) => CiteTarget | undefined;

/**
 * Where a `:cite[...]` stands until a page renders it. The Markdown pipeline knows no content: in an
 * MDX page the citation becomes the component `<Cite ids="…" />`; in a YAML field's rendered HTML,
 * this empty element, which components/RichText.astro replaces by the same component. Either way the
 * link's text comes from the content as the page renders (the route's table model), so an edit of a
 * cited excerpt or source shows on every page that cites it.
 */
export const CITE_COMPONENT = 'Cite';
export const CITE_ELEMENT = 'site-cite';
/** The placeholder as rehype writes it: `<site-cite data-ids="a b"></site-cite>`; group 1 is the ids. */
export const CITE_PLACEHOLDER = /<site-cite data-ids="([^"]*)"><\/site-cite>/g;

/**
 * Block syntax at a line's start (a quote that begins "* kube-proxy ...") escaped so it stays text.
 * The content layer renders a field through it (content/inline.ts) and the page scan (page-scan.ts)
 * parses it through it too, so both see the same text.
 */
export const escapeBlockSyntax = (md: string): string =>
  md.trim().replace(/^(\s*)([*+>#-]|\d+[.)])(?=\s|$)/gm, '$1\\$2');
