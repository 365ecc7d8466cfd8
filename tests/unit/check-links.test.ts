// The link gate (tools/check-links.ts) on small built-site fixtures: it passes when every link
// resolves, and names the page, the href and what is missing for each kind of broken link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkLinks, formatProblem } from '../../tools/check-links.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = (name: string) => join(root, 'tests/fixtures/links', name);
const site = 'http://fixture.example:4321';

test('check-links: a folder whose links and fragments all resolve passes', async () => {
  const report = await checkLinks({ dir: fixture('ok'), base: '/', site });
  assert.deepEqual(report.problems.map(formatProblem), []);
  assert.equal(report.pages, 2);
  // Targets: the two pages (with and without fragments), the deployed origin, two external links.
  assert.ok(report.links >= 5, `expected at least 5 link targets looked at, got ${report.links}`);
});

test('check-links: each broken link is reported with its page, href and what is missing', async () => {
  const report = await checkLinks({ dir: fixture('broken'), base: '/', site });
  assert.deepEqual(report.problems, [
    { page: '/', href: '/#fixture-absent', missing: 'no element with id="fixture-absent" on /' },
    { page: '/', href: '/fixture-gone/', missing: 'no page or file at /fixture-gone/' }, // canonical on SITE_URL
    { page: '/', href: '/fixture-missing/', missing: 'no page or file at /fixture-missing/' },
    { page: '/', href: '/page/#fixture-no-such-id', missing: 'no element with id="fixture-no-such-id" on /page/' },
    { page: '/', href: 'htps://example.org/', missing: 'unsupported scheme "htps:" (use https:, http: or mailto:)' },
    { page: '/', href: 'https://exa mple.org/', missing: 'not a well-formed URL' },
  ]);
});

test('check-links: under a sub-path, a link that forgets the base fails and says so', async () => {
  const report = await checkLinks({ dir: fixture('subpath'), base: '/fixture-base/', site });
  assert.deepEqual(report.problems, [
    {
      page: '/fixture-base/',
      href: '/page/',
      missing: 'no page or file at /page/ (the link does not start with the base path /fixture-base/)',
    },
  ]);
  // The same folder checked at the root: now every base-carrying link is the broken one.
  const atRoot = await checkLinks({ dir: fixture('subpath'), base: '/', site });
  assert.ok(
    atRoot.problems.some((p) => p.href === '/fixture-base/page/'),
    atRoot.problems.map(formatProblem).join('\n'),
  );
});

const cli = (dir: string, base = '/') =>
  spawnSync(process.execPath, ['tools/check-links.ts', dir], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, SITE_BASE: base, SITE_URL: site },
  });

test('check-links CLI: exit 1 and one line per broken link; exit 0 when clean', () => {
  const bad = cli(fixture('broken'));
  assert.equal(bad.status, 1, bad.stdout + bad.stderr);
  assert.match(
    bad.stderr,
    /^check-links: \/: href "\/page\/#fixture-no-such-id": no element with id="fixture-no-such-id" on \/page\/$/m,
  );
  assert.match(bad.stderr, /^check-links: .*: 2 pages, \d+ link targets, 6 broken links$/m);
  const good = cli(fixture('ok'));
  assert.equal(good.status, 0, good.stdout + good.stderr);
  assert.match(good.stdout, /2 pages, \d+ link targets, 0 broken links/);
});

test('check-links CLI: a missing or empty build folder is a usage error, not a pass', () => {
  assert.equal(cli(join(root, 'tests/fixtures/links/no-such-folder')).status, 2);
  assert.equal(cli(join(root, 'scripts')).status, 2); // a folder with no HTML pages
});
