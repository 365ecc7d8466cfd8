// What a citation link shows: its source and its lines, short ("KEP-265 L98–102", "topology.go L55"),
// so two citations of one file in a sentence read apart, and a reader sees where to look before
// following the link. Shared by running text (remark-claims) and the table's cells (CiteLinks).
export const shortLines = ([a, b]: readonly [number, number]): string => (a === b ? `L${a}` : `L${a}–${b}`);

export const citeText = (label: string, lines: readonly [number, number]): string => `${label} ${shortLines(lines)}`;

/** Lines in words, for messages: "line 98", "lines 98–102". */
export const linesText = ([a, b]: readonly [number, number]): string => (a === b ? `line ${a}` : `lines ${a}–${b}`);

/** A citation link's accessible name: "Source: topology.go L55–66, pkg/proxy/topology.go" (holds what it shows). */
export const citeName = (t: { prefix: string; text: string; detail: string }): string =>
  `${t.prefix}${t.text}${t.detail}`;
