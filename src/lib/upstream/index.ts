// The pinned-file checks' one way in for tools (.dependency-cruiser.cjs, tools-through-the-ways-in):
// where an excerpt's file is upstream and its lines, each code note's anchor in its lines, and the
// excerpt rules the quote and anchor verifiers share. The content rules import the modules directly.
export {
  isReleaseTag,
  kubernetesSources,
  rangeProblem,
  releaseFetchHint,
  releaseFiles,
  releaseFolder,
  splitLines,
  stagingFile,
  upstreamPath,
} from './upstream.ts';
export { anchorRule, checkAnchor } from './anchors.ts';
export { checkCode } from './code.ts';
export {
  addFailures,
  verifyExcerpts,
  type CheckedExcerpt,
  type CheckedSource,
  type ExcerptFailure,
  type ExcerptReport,
  type ExcerptRule,
  type Finding,
} from './verify-excerpts.ts';
