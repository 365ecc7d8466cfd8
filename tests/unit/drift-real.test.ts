// verify:drift --update on the real content, with upstream drift made on a git repository of the
// pinned KEP copies in ../shared/sources/kubernetes-enhancements: its first commit holds the copies
// (the content's pins are pointed at it), its second adds FIXTURE lines at the top of KEP-3866 (every
// quote of its README moves) and rewords one quoted line of KEP-5495 (changed). --update must bring
// KEP-3866 to the new commit with the new lines, leave KEP-5495 alone, and leave content the build
// accepts whose quotes are verbatim at the new commit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadLocated } from '../../tools/lib/drift-claims.ts';
import { verifyQuotes } from '../../tools/lib/quotes.ts';
import { splitLines } from '../../src/lib/upstream/upstream.ts';
import { haveShared, sharedPath } from '../support/shared.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PINNED = '64765b4b02389318f2113119dd9e491479f978a0';
const KEP3866 = 'keps/sig-network/3866-nftables-proxy/README.md';
const KEP5495 = 'keps/sig-network/5495-deprecate-ipvs-mode-in-kube-proxy/README.md';
const ADDED = 3;

test('--update on the real content: a KEP whose lines all moved is re-pinned, one with a changed line is not', async (t) => {
  if (!haveShared(t, 'sources/kubernetes-enhancements')) return;
  const dir = mkdtempSync(join(tmpdir(), 'drift-real-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const repo = join(dir, 'enhancements');
  cpSync(join(sharedPath('sources/kubernetes-enhancements'), 'keps'), join(repo, 'keps'), { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, ...args], {
      encoding: 'utf8',
      // The first commit is dated as SOURCE.md records the pinned one, so content's committed: holds for it.
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'FIXTURE',
        GIT_AUTHOR_EMAIL: 'fixture@example.invalid',
        GIT_COMMITTER_NAME: 'FIXTURE',
        GIT_COMMITTER_EMAIL: 'fixture@example.invalid',
        GIT_AUTHOR_DATE: '2026-07-24T23:57:50Z',
        GIT_COMMITTER_DATE: '2026-07-24T23:57:50Z',
      },
    }).trim();
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'FIXTURE: the pinned copies');
  const c1 = git('rev-parse', 'HEAD');

  const content = join(dir, 'content');
  cpSync(join(root, 'content'), content, { recursive: true });
  const sourcesFile = join(content, 'sources.yaml');
  writeFileSync(sourcesFile, readFileSync(sourcesFile, 'utf8').replaceAll(PINNED, c1));
  const { data } = await loadLocated(content);
  const quoted5495 = data.excerpts.find((e) => e.source === 'kep-5495' && e.path === undefined)!;

  const edit = (path: string, change: (lines: string[]) => string[]) => {
    const abs = join(repo, path);
    writeFileSync(abs, `${change(splitLines(readFileSync(abs, 'utf8'))).join('\n')}\n`);
  };
  edit(KEP3866, (lines) => [
    lines[0]!,
    ...Array.from({ length: ADDED }, () => 'FIXTURE line added upstream.'),
    ...lines.slice(1),
  ]);
  edit(KEP5495, (lines) => lines.map((l, i) => (i === quoted5495.lines[0] - 1 ? `${l} FIXTURE` : l)));
  git('commit', '-q', '-am', 'FIXTURE: lines added to KEP-3866, a quoted line of KEP-5495 reworded');
  const c2 = git('rev-parse', 'HEAD');

  const files = ['sources.yaml', ...data.sources.map((s) => `excerpts/${s.id}.yaml`)];
  const original = Object.fromEntries(files.map((f) => [f, readFileSync(join(content, f), 'utf8')]));
  const out = spawnSync(
    process.execPath,
    ['tools/verify-drift.ts', '--enhancements', repo, '--content', content, '--update'],
    { cwd: root, encoding: 'utf8' },
  );
  assert.equal(out.status, 1, out.stdout + out.stderr);
  const readme3866 = data.excerpts.filter((e) => e.source === 'kep-3866' && e.path === undefined);
  assert.match(
    out.stdout,
    new RegExp(
      `^  kep-3866: ${c1.slice(0, 12)} -> ${c2.slice(0, 12)} \\(\\d{4}-\\d\\d-\\d\\d\\); ${readme3866.length} moved: `,
      'm',
    ),
  );
  assert.match(out.stdout, new RegExp(`^  kep-5495: kept at ${c1.slice(0, 12)}: 1 changed; `, 'm'));
  assert.match(out.stdout, new RegExp(`^  kep-5495/${quoted5495.id} \\(quote\\) changed: ${KEP5495}`, 'm'));

  // Only sources.yaml and KEP-3866's excerpts changed, and only in their pins.
  const changed = files.filter((f) => readFileSync(join(content, f), 'utf8') !== original[f]);
  assert.deepEqual(changed, ['sources.yaml', 'excerpts/kep-3866.yaml']);
  const { data: after } = await loadLocated(content); // every check the build runs
  const kep3866 = after.sources.find((s) => s.id === 'kep-3866')!;
  assert.equal(kep3866.commit, c2);
  assert.equal(after.sources.find((s) => s.id === 'kep-5495')!.commit, c1);
  for (const e of after.excerpts.filter((x) => x.source === 'kep-3866')) {
    const old = data.excerpts.find((x) => x.source === 'kep-3866' && x.id === e.id)!;
    const shift = e.path === undefined ? ADDED : 0;
    assert.deepEqual(e.lines, [old.lines[0] + shift, old.lines[1] + shift], `kep-3866/${e.id}`);
  }
  // Its quotes are verbatim, exact-range and rightly cut at the new commit.
  const quotes = after.excerpts.filter((e) => e.source === 'kep-3866');
  const atNew = verifyQuotes({ sources: [kep3866], excerpts: quotes }, (path) =>
    execFileSync('git', ['-C', repo, 'show', `${c2}:${path}`], { encoding: 'utf8' }),
  );
  assert.deepEqual(atNew.failures, []);
  assert.equal(atNew.checked, quotes.length);
});
