// Tests that read ../shared (the seed, the pinned KEP copies) or a kubernetes/kubernetes release in
// the Go module cache. CI always provides them, so there a missing folder fails the test; elsewhere
// the test skips and says why.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { releaseFetchHint, releaseFolder } from '../../src/lib/upstream/upstream.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The absolute path of `rel` under ../shared. */
export const sharedPath = (rel: string): string => resolve(root, '..', 'shared', rel);

/** Whether ../shared/<rel> is here; under CI=true a missing one fails, otherwise the test skips. */
export function haveShared(t: { skip: (message: string) => void }, rel: string): boolean {
  const path = sharedPath(rel);
  if (existsSync(path)) return true;
  const message = `../shared/${rel} not found (looked in ${path})`;
  if (process.env.CI === 'true') assert.fail(`${message}; CI=true, so this check must not be skipped`);
  t.skip(`${message}; skipped because this is not CI`);
  return false;
}

/**
 * Whether the kubernetes/kubernetes release `tag` is in the Go module cache
 * (<GOMODCACHE>/k8s.io/kubernetes@<tag>, where the build reads sources pinned to it); under CI=true a
 * missing one fails, otherwise the test skips and says how to get it.
 */
export function haveRelease(t: { skip: (message: string) => void }, tag: string): boolean {
  const path = releaseFolder(tag);
  if (existsSync(path)) return true;
  const message = `k8s.io/kubernetes@${tag} not in the Go module cache (looked in ${path}; ${releaseFetchHint(tag)})`;
  if (process.env.CI === 'true') assert.fail(`${message}; CI=true, so this check must not be skipped`);
  t.skip(`${message}; skipped because this is not CI`);
  return false;
}

/** The release tags content/sources.yaml pins kubernetes/kubernetes sources to. */
export function pinnedReleases(): string[] {
  const text = readFileSync(resolve(root, 'content/sources.yaml'), 'utf8');
  return [...new Set([...text.matchAll(/^\s+commit:\s*(v\d+\.\d+\.\d+)\s*$/gm)].map((m) => m[1]!))];
}

/** Whether every release content pins kubernetes/kubernetes to is here (haveRelease for each). */
export const havePinnedReleases = (t: { skip: (message: string) => void }): boolean =>
  pinnedReleases().every((tag) => haveRelease(t, tag));
