// `npm run release-check`: records which Kubernetes release the site's "as of" rests on. Runs
// `go list -m -versions k8s.io/kubernetes` (the Go module proxy's list, outside any module), reads
// the version lab/go.mod builds, and writes both, with the time of the check, into
// content/site.yaml's `release` (tools/lib/release.ts). `--check` writes nothing: it runs the
// command again and says whether the record still holds (exit 1 if the lab's release or the recorded
// newest is no longer listed, or the lab's pin has changed; a newer release is reported, exit 0).
// Exit 2 on a usage error or when go cannot list the module.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { COMMAND, compareVersions, labPin, parseListed, record, writeRecord } from './lib/release.ts';

const argv = process.argv.slice(2);
const check = argv.includes('--check');
const unknown = argv.filter((a) => a !== '--check');
if (unknown.length > 0) {
  console.error(`release-check: unknown argument ${unknown[0]}\nusage: npm run release-check [-- --check]`);
  process.exit(2);
}
const content = process.env.CONTENT_DIR ?? 'content';
const sitePath = join(content, 'site.yaml');

function go(args: string[]): string {
  // Outside any module, so lab/go.mod's own requirements play no part in what is listed.
  const dir = mkdtempSync(join(tmpdir(), 'release-check-'));
  try {
    return execFileSync('go', args, {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, GO111MODULE: 'on', GOFLAGS: '-mod=mod' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let output: string;
let proxy: string;
try {
  output = go(COMMAND.split(' ').slice(1));
  proxy = go(['env', 'GOPROXY']).trim();
} catch (e) {
  console.error(`release-check: ${COMMAND} failed: ${(e as Error).message.split('\n')[0]}`);
  process.exit(2);
}
const listed = parseListed(output);
const lab = labPin(readFileSync('lab/go.mod', 'utf8'));
const site = readFileSync(sitePath, 'utf8');

if (check) {
  const rec = (parse(site) as { release?: { lab: string; newest: string; checked: string } }).release;
  if (!rec) {
    console.error(`release-check: ${sitePath} has no release record; run npm run release-check`);
    process.exit(1);
  }
  const problems = [
    !listed.versions.includes(rec.lab) && `the recorded lab release ${rec.lab} is no longer listed`,
    !listed.versions.includes(rec.newest) && `the recorded newest ${rec.newest} is no longer listed`,
    rec.lab !== lab && `lab/go.mod now builds ${lab}, the record says ${rec.lab}`,
  ].filter(Boolean);
  for (const p of problems) console.error(`release-check: ${p}`);
  if (compareVersions(listed.newest, rec.newest) > 0)
    console.log(
      `release-check: the proxy now lists ${listed.newest}, newer than ${rec.newest} (checked ${rec.checked})`,
    );
  if (problems.length > 0) process.exit(1);
  console.log(`release-check: the record holds (lab ${rec.lab}, newest then ${rec.newest}, now ${listed.newest})`);
} else {
  const rec = record(listed, lab, proxy, new Date());
  writeFileSync(sitePath, writeRecord(site, rec));
  console.log(
    `release-check: lab builds ${rec.lab}; ${COMMAND} listed ${rec.listed} versions, newest release ${rec.newest}` +
      (rec.newestPrerelease ? `, newest prerelease ${rec.newestPrerelease}` : '') +
      `; recorded in ${sitePath} at ${rec.checked}`,
  );
}
