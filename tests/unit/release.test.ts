// The release the site's "as of" rests on is recorded, not typed: tools/lib/release.ts reads what
// `go list -m -versions k8s.io/kubernetes` prints and lab/go.mod's pin; content/site.yaml holds the
// record tools/release-check.ts wrote. Version lists below are FIXTURES (never rendered).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { compareVersions, labPin, minorOf, parseListed, record, writeRecord } from '../../tools/lib/release.ts';
import { siteSchema } from '../../src/lib/content/schemas.ts';

test('parseListed: the newest release, and a newer prerelease apart from it (FIXTURE list)', () => {
  const fixture = 'k8s.io/kubernetes v1.9.11 v1.10.0-alpha.1 v1.10.0-alpha.10 v1.10.0 v1.10.1 v1.11.0-beta.0\n';
  assert.deepEqual(parseListed(fixture), {
    versions: ['v1.9.11', 'v1.10.0-alpha.1', 'v1.10.0-alpha.10', 'v1.10.0', 'v1.10.1', 'v1.11.0-beta.0'],
    newest: 'v1.10.1',
    newestPrerelease: 'v1.11.0-beta.0',
  });
  assert.equal(parseListed('k8s.io/kubernetes v1.2.0-rc.1 v1.2.0').newestPrerelease, undefined);
  assert.throws(() => parseListed('k8s.io/api v0.37.2'), /expected "k8s.io\/kubernetes/);
  assert.throws(() => parseListed('k8s.io/kubernetes v1.3.0-beta.0'), /no release/);
  assert.throws(() => parseListed('k8s.io/kubernetes 1.2'), /not a module version/);
});

test('compareVersions: numbers, not strings; a release after its prereleases', () => {
  const sorted = ['v1.10.0', 'v1.9.0', 'v1.10.0-rc.1', 'v1.10.0-alpha.10', 'v1.10.0-alpha.2', 'v1.10.0-beta.0'].sort(
    compareVersions,
  );
  assert.deepEqual(sorted, [
    'v1.9.0',
    'v1.10.0-alpha.2',
    'v1.10.0-alpha.10',
    'v1.10.0-beta.0',
    'v1.10.0-rc.1',
    'v1.10.0',
  ]);
  assert.equal(minorOf('v1.37.2'), 'v1.37');
});

test("labPin reads lab/go.mod's require, not its replaces", () => {
  assert.equal(
    labPin(
      'replace (\n\tk8s.io/kubernetes => k8s.io/kubernetes v9.9.9\n)\nrequire (\n\tk8s.io/kubernetes v1.2.3 // indirect\n)\n',
    ),
    'v1.2.3',
  );
  assert.throws(() => labPin('module x\n'), /requires no k8s.io\/kubernetes/);
});

test("content/site.yaml's release record: written by the tool, the lab's pin, asOf its minor release", () => {
  const site = parse(readFileSync('content/site.yaml', 'utf8')) as { asOf: string; release?: Record<string, unknown> };
  assert.ok(site.release, 'content/site.yaml has a release record (npm run release-check)');
  const parsed = siteSchema.safeParse(site);
  assert.ok(parsed.success, parsed.success ? '' : parsed.error.message);
  const rec = parsed.data.release!;
  assert.equal(rec.lab, labPin(readFileSync('lab/go.mod', 'utf8')), 'the record names the release lab/go.mod builds');
  assert.match(
    readFileSync('lab/go.sum', 'utf8'),
    new RegExp(`^k8s\\.io/kubernetes ${rec.lab.replace(/\./g, '\\.')} h1:`, 'm'),
  );
  assert.equal(site.asOf, minorOf(rec.lab));
  assert.equal(
    parseListed(`k8s.io/kubernetes ${rec.newest}`).newest,
    rec.newest,
    'newest is a release, not a prerelease',
  );
  assert.ok(
    compareVersions(rec.newest, rec.lab) >= 0,
    'the lab builds a release the proxy listed, the newest or older',
  );
  assert.ok(Date.parse(rec.checked) <= Date.now(), 'checked in the past');
  // A schema that refuses an asOf other than the lab's minor release.
  assert.equal(siteSchema.safeParse({ ...site, asOf: 'v1.36' }).success, false);
});

test('writeRecord replaces the release block and leaves every other line as it was', () => {
  const before = readFileSync('content/site.yaml', 'utf8');
  const listed = parseListed('k8s.io/kubernetes v1.2.0 v1.2.1'); // FIXTURE
  const out = writeRecord(before, record(listed, 'v1.2.1', 'off', new Date(Date.UTC(2000, 0, 2))));
  const keep = (s: string) => s.slice(0, s.indexOf('# Written by `npm run release-check`'));
  assert.equal(keep(out), keep(before));
  assert.deepEqual((parse(out) as { release: unknown }).release, {
    lab: 'v1.2.1',
    checked: '2000-01-02T00:00:00Z',
    command: 'go list -m -versions k8s.io/kubernetes',
    proxy: 'off',
    newest: 'v1.2.1',
    listed: 2,
  });
  assert.equal(writeRecord(out, record(listed, 'v1.2.1', 'off', new Date(Date.UTC(2000, 0, 2)))), out, 'idempotent');
});

test('release-check --check: the record still holds against the module proxy (needs go and the network)', (t) => {
  const run = spawnSync(process.execPath, ['tools/release-check.ts', '--check'], {
    encoding: 'utf8',
    timeout: 150_000,
  });
  if (run.error || run.status === 2) {
    t.skip(`go could not list the module here: ${(run.error?.message ?? run.stderr).trim().split('\n')[0]}`);
    return;
  }
  assert.equal(run.status, 0, run.stderr + run.stdout);
  assert.match(run.stdout, /the record holds/);
});
