// Checks every code note's anchor against the upstream file at its source's pinned commit: for each
// `note:` excerpt of a non-quotable source in content/excerpts/*.yaml, the `anchor` must occur
// verbatim within exactly its `lines` (anchorRule, src/lib/upstream/anchors.ts).
//
//   node tools/verify-anchors.ts [<folder>] [--content <dir>]
//
// <folder> holds the upstream files as <folder>/<repo>/<commit>/<path>, e.g.
// <folder>/kubernetes/kubernetes/b0f823e6…/pkg/proxy/iptables/proxier.go, or one repository's files
// as <folder>/<commit>/<path>; left out, it is the kubernetes/kubernetes copies in
// ../shared/sources/kubernetes (or KUBERNETES_SOURCES), as the build reads them (docs/claims.md). The
// content is read with the site's readers (src/lib/content/load.ts). Prints one located line per
// failure, `content/excerpts/x.yaml:LINE:COL: excerpt "<source>/<id>", field "anchor": …` (saying on
// which lines the anchor really is, when it is elsewhere in the file; a file missing from the folder
// is a failure, never skipped), then "N code notes checked, M failures". Exit 0 when every anchor is
// in its lines, 1 on any failure or invalid content, 2 on a usage error.
import { runExcerptCli, upstreamReader } from './lib/content-cli.ts';
import { kubernetesSources } from '../src/lib/upstream/index.ts';
import { anchorRule } from '../src/lib/upstream/index.ts';

process.exitCode = await runExcerptCli({
  tool: 'verify-anchors',
  folderName: 'folder of <repo>/<commit>/<path> files',
  defaultFolder: kubernetesSources(),
  noun: 'code notes',
  rule: anchorRule,
  reader: upstreamReader,
});
