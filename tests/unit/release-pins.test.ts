// Sources pinned to a kubernetes/kubernetes release tag (v1.37.2): the schema takes a tag for
// kubernetes/kubernetes only, the build reads a tag's files from the Go module cache
// (<GOMODCACHE>/k8s.io/kubernetes@<tag>/<path>) and says once when that release is absent,
// verify-anchors skips (or under CI=true fails) without it, and verify-drift reads a commit-folder
// view whose folder is named for a tag. FIXTURE module caches are written to a temporary folder.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceSchema } from '../../src/lib/content/schemas.ts';
import { goModCache, pinnedFiles, pinnedLines, releaseFolder, stagingFile } from '../../src/lib/upstream/upstream.ts';
import { openUpstream } from '../../tools/lib/drift-upstream.ts';
import { haveShared, havePinnedReleases, pinnedReleases } from '../support/shared.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const tmp = mkdtempSync(join(tmpdir(), 'release-pins-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const source = (repo: string, commit: string) => ({
  id: 'fixture-source',
  label: 'FIXTURE',
  title: 'FIXTURE source',
  repo,
  path: 'pkg/x.go',
  commit,
  license: 'Apache-2.0',
  quotable: false,
  page: 'notes/fixture',
});

test('schema: a kubernetes/kubernetes source may be pinned to a release tag; a KEP source only to a commit', () => {
  assert.ok(sourceSchema.safeParse(source('kubernetes/kubernetes', 'v1.37.2')).success);
  assert.ok(sourceSchema.safeParse(source('kubernetes/kubernetes', 'a'.repeat(40))).success);
  assert.ok(sourceSchema.safeParse(source('kubernetes/enhancements', 'a'.repeat(40))).success);
  const kep = sourceSchema.safeParse(source('kubernetes/enhancements', 'v1.37.2'));
  assert.ok(!kep.success);
  assert.match(kep.error.issues[0]!.message, /only a kubernetes\/kubernetes source may be pinned to a release tag/);
  for (const bad of ['v1.37', '1.37.2', 'v1.37.2-rc.0', 'abc123'])
    assert.ok(!sourceSchema.safeParse(source('kubernetes/kubernetes', bad)).success, bad);
});

test('a release tag is read from the Go module cache, a commit from the commit folders', () => {
  const cache = join(tmp, 'modcache');
  mkdirSync(join(cache, 'k8s.io/kubernetes@v9.9.9/pkg'), { recursive: true });
  writeFileSync(join(cache, 'k8s.io/kubernetes@v9.9.9/pkg/x.go'), 'package x\n// FIXTURE release\n');
  const folders = join(tmp, 'folders');
  mkdirSync(join(folders, 'c'.repeat(40), 'pkg'), { recursive: true });
  writeFileSync(join(folders, 'c'.repeat(40), 'pkg/x.go'), 'package x\n// FIXTURE commit\n');
  const release = (tag: string) => join(cache, `k8s.io/kubernetes@${tag}`);
  const read = pinnedFiles(folders, release);
  assert.equal(read('kubernetes/kubernetes/v9.9.9/pkg/x.go'), 'package x\n// FIXTURE release\n');
  assert.equal(read(`kubernetes/kubernetes/${'c'.repeat(40)}/pkg/x.go`), 'package x\n// FIXTURE commit\n');
  assert.equal(read('kubernetes/kubernetes/v9.9.9/pkg/none.go'), null);
  assert.equal(read('kubernetes/enhancements/v9.9.9/pkg/x.go'), null, 'another repository is not read');
  assert.equal(
    pinnedLines(folders, release)('kubernetes/kubernetes', 'v9.9.9', 'pkg/x.go', [2, 2]),
    '// FIXTURE release',
  );
});

test("a release's staging file is read from its staging module (k8s.io/<name>@v0.<minor>.<patch>)", () => {
  const cache = join(tmp, 'staging-cache');
  mkdirSync(join(cache, 'k8s.io/kubernetes@v1.9.9/pkg'), { recursive: true });
  mkdirSync(join(cache, 'k8s.io/kube-proxy@v0.9.9/config'), { recursive: true });
  writeFileSync(join(cache, 'k8s.io/kube-proxy@v0.9.9/config/types.go'), 'package config\n// FIXTURE staging\n');
  const release = (tag: string) => join(cache, `k8s.io/kubernetes@${tag}`);
  const read = pinnedFiles(join(tmp, 'no-folders'), release);
  assert.equal(
    read('kubernetes/kubernetes/v1.9.9/staging/src/k8s.io/kube-proxy/config/types.go'),
    'package config\n// FIXTURE staging\n',
  );
  assert.equal(read('kubernetes/kubernetes/v1.9.9/staging/src/k8s.io/kube-proxy/config/none.go'), null);
  assert.equal(
    read('kubernetes/kubernetes/v1.9.9/staging/src/k8s.io/client-go/x.go'),
    null,
    'a staging module not in the cache',
  );
  assert.equal(
    stagingFile(release, 'v1.37.2', 'staging/src/k8s.io/kube-proxy/config/v1alpha1/types.go'),
    join(cache, 'k8s.io/kube-proxy@v0.37.2/config/v1alpha1/types.go'),
  );
  assert.equal(stagingFile(release, 'v1.37.2', 'pkg/proxy/types.go'), undefined);
});

test('the module cache: GOMODCACHE when set, and the release folder under it', () => {
  const before = process.env.GOMODCACHE;
  process.env.GOMODCACHE = join(tmp, 'elsewhere');
  try {
    assert.equal(goModCache(), join(tmp, 'elsewhere'));
    assert.equal(releaseFolder('v1.2.3'), join(tmp, 'elsewhere', 'k8s.io/kubernetes@v1.2.3'));
  } finally {
    if (before === undefined) delete process.env.GOMODCACHE;
    else process.env.GOMODCACHE = before;
  }
});

test('an absent release: nothing is read, and the build says so once', () => {
  const logged: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => {
    logged.push(args.join(' '));
  };
  let a, b;
  try {
    const read = pinnedFiles(join(tmp, 'no-folders'), (tag) => join(tmp, 'no-cache', `k8s.io/kubernetes@${tag}`));
    a = read('kubernetes/kubernetes/v8.8.8/pkg/x.go');
    b = read('kubernetes/kubernetes/v8.8.8/pkg/y.go');
  } finally {
    console.log = log;
  }
  assert.deepEqual([a, b], [null, null]);
  // Once per process: another test file's build check may already have said it, in which case none here.
  assert.ok(logged.length <= 1, logged.join('\n'));
  for (const line of logged)
    assert.match(
      line,
      /^content: no kubernetes\/kubernetes copies at .*k8s\.io\/kubernetes@v8\.8\.8 .*were not checked$/,
    );
});

const runAnchors = (env: Record<string, string>) =>
  spawnSync(process.execPath, ['tools/verify-anchors.ts'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });

test('verify-anchors without the pinned release: skipped with a message, but a failure under CI=true', (t) => {
  if (!haveShared(t, 'sources/kubernetes')) return; // the default folder must be there to get this far
  if (pinnedReleases().length === 0) return t.skip('content pins no release tag');
  const away = { GOMODCACHE: join(tmp, 'no-such-cache') };
  const local = runAnchors({ ...away, CI: 'false' });
  assert.equal(local.status, 0, local.stdout + local.stderr);
  assert.match(
    local.stdout,
    /^verify-anchors: no kubernetes\/kubernetes copies for v\d+\.\d+\.\d+: .* \(cd lab && go mod download/m,
  );
  assert.match(local.stdout, /^0 code notes checked: skipped because this is not CI$/m);
  const ci = runAnchors({ ...away, CI: 'true' });
  assert.equal(ci.status, 1, ci.stdout + ci.stderr);
  assert.match(ci.stdout, /^0 code notes checked: CI=true, so they must not be skipped$/m);
});

test('verify-drift reads a commit-folder view with a folder named for a release tag', (t) => {
  const view = join(tmp, 'view');
  mkdirSync(join(view, 'v1.2.3', 'pkg'), { recursive: true });
  writeFileSync(join(view, 'v1.2.3', 'pkg/x.go'), 'FIXTURE\n');
  mkdirSync(join(view, 'v1.2.30'), { recursive: true });
  const up = openUpstream(view, 'v1.2.3');
  assert.equal(up.target('d'.repeat(40)), 'v1.2.3', 'v1.2.3 is named whole, not taken for a prefix of v1.2.30');
  assert.equal(up.read('v1.2.3', 'pkg/x.go'), 'FIXTURE\n');
  assert.ok(up.hasCommit('v1.2.3'));
  // The real pins: a view of the shared commit folders plus the release's module folder, compared at the tag.
  if (!haveShared(t, 'sources/kubernetes') || !havePinnedReleases(t)) return;
  const tag = pinnedReleases()[0]!;
  const real = join(tmp, 'real-view');
  mkdirSync(real);
  symlinkSync(releaseFolder(tag), join(real, tag));
  const drift = spawnSync(process.execPath, ['tools/verify-drift.ts', '--kubernetes', real, '--at', tag], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(drift.status, 0, drift.stdout + drift.stderr);
  assert.match(drift.stdout, /^\d+ pins checked: (\d+) unchanged, 0 moved, 0 changed, 0 gone/m);
});
