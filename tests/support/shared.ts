// Tests that read ../shared (the seed, the pinned KEP copies). CI always provides it, so there a
// missing folder fails the test; elsewhere the test skips and says why.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
