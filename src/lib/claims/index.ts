// The claim syntax's one way in for tools (.dependency-cruiser.cjs, tools-through-the-ways-in): how an
// excerpt is named, a field's citations and unmarked prose, and how many words a reader sees.
export { excerptId } from './syntax.ts';
export { scanInline } from './page-scan.ts';
export { wordCount } from './words.ts';
