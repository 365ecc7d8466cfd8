// Checks every code note's anchor against the upstream file at its source's pin: for each `note:`
// excerpt of a non-quotable source in content/excerpts/*.yaml, the `anchor` must occur verbatim
// within exactly its `lines` (anchorRule, src/lib/upstream/anchors.ts).
//
//   node tools/verify-anchors.ts [<folder>] [--content <dir>]
//
// <folder> holds the upstream files as <folder>/<repo>/<commit>/<path>, e.g.
// <folder>/kubernetes/kubernetes/b0f823e6…/pkg/proxy/iptables/proxier.go, or one repository's files
// as <folder>/<commit>/<path>; left out, it is the kubernetes/kubernetes copies in
// ../shared/sources/kubernetes (or KUBERNETES_SOURCES), as the build reads them (docs/claims.md). A
// source pinned to a release tag (v1.37.2) is read from the folder when it holds <tag>/<path>, else
// from that release's module in the Go module cache (<GOMODCACHE>/k8s.io/kubernetes@<tag>), as the
// build reads it. The content is read with the site's readers (src/lib/content/load.ts). Prints one
// located line per failure, `content/excerpts/x.yaml:LINE:COL: excerpt "<source>/<id>", field
// "anchor": …` (saying on which lines the anchor really is, when it is elsewhere in the file; a file
// missing from a copy is a failure, never skipped), then "N code notes checked, M failures". Where a
// release's module is not in the cache at all, says so and checks nothing, which fails under CI=true.
// Exit 0 when every anchor is in its lines, 1 on any failure or invalid content, 2 on a usage error.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runExcerptCli, upstreamReader } from './lib/content-cli.ts';
import {
  anchorRule,
  isReleaseTag,
  kubernetesSources,
  releaseFetchHint,
  releaseFiles,
  releaseFolder,
} from '../src/lib/upstream/index.ts';

const REPO = 'kubernetes/kubernetes';

process.exitCode = await runExcerptCli({
  tool: 'verify-anchors',
  folderName: 'folder of <repo>/<commit>/<path> files',
  defaultFolder: kubernetesSources(),
  noun: 'code notes',
  rule: anchorRule,
  reader: (folder) => {
    const inFolder = upstreamReader(folder);
    const inRelease = releaseFiles();
    return (upstream) => inFolder(upstream) ?? inRelease(upstream);
  },
  unavailable: (data, folder) => {
    const tags = new Set(data.sources.filter((s) => s.repo === REPO && isReleaseTag(s.commit)).map((s) => s.commit));
    return [...tags]
      .filter((tag) => !existsSync(join(folder, tag)) && !existsSync(join(folder, REPO, tag)))
      .filter((tag) => !existsSync(releaseFolder(tag)))
      .map((tag) => `no ${REPO} copies for ${tag}: ${releaseFolder(tag)} is not there (${releaseFetchHint(tag)})`);
  },
});
