// A clean build log: the gate that fails `npm run build` on any warning (tools/check-build-log.ts),
// and the one rolldown warning the build config drops on purpose (src/lib/rolldown-logs.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findWarnings } from '../../tools/check-build-log.ts';
import { isHeadInjectDirectiveWarning } from '../../src/lib/rolldown-logs.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

// As `astro build` printed it before the filter (12 times, one per MDX page), colour codes included.
const MDX_DIRECTIVE_WARNING =
  '23:18:40 [WARN] [vite] \u001b[33m[MODULE_LEVEL_DIRECTIVE] \u001b[0mThe semantics of the module level directive ' +
  '"use astro:head-inject" in "content/pages/drain.mdx?astroPropagatedAssets" may not be preserved when bundling.';
const CLEAN_LOG = [
  '23:22:03 [build] Building static entrypoints...',
  '23:22:10 [vite] \u001b[32m✓ built in 6.70s\u001b[39m',
  '23:22:10   ├─ /rows/drain/index.html (+8ms) ',
  '23:22:10   ├─ /notes/warnings/index.html (+5ms) ', // a page path is not a warning
  '23:22:11 [pagefind] indexed 18 of 20 HTML pages (en) into dist/pagefind/',
  '23:22:11 [build] Complete!',
].join('\n');

test('findWarnings: a clean build log has none', () => {
  assert.deepEqual(findWarnings(CLEAN_LOG), []);
});

test('findWarnings: Astro [WARN] lines, Node process warnings and npm warnings count', () => {
  const log = [
    MDX_DIRECTIVE_WARNING,
    '23:22:11 [WARN] [pagefind] something the integration logger warned about',
    '(node:4242) ExperimentalWarning: Type Stripping is an experimental feature',
    '(node:4242) [DEP0040] DeprecationWarning: The `punycode` module is deprecated.',
    'npm warn deprecated some-package@1.0.0',
  ].join('\n');
  const found = findWarnings(`${CLEAN_LOG}\n${log}`);
  assert.equal(found.length, 5, found.join('\n'));
  assert.match(found[0]!, /^23:18:40 \[WARN\] \[vite\] \[MODULE_LEVEL_DIRECTIVE\] The semantics/); // colours stripped
});

test('check-build-log: passes the log through, exits 1 and lists the warnings; exits 0 on a clean log', () => {
  const run = (input: string) =>
    spawnSync(process.execPath, [join(root, 'tools/check-build-log.ts')], { input, encoding: 'utf8' });
  const dirty = run(`${CLEAN_LOG}\n${MDX_DIRECTIVE_WARNING}\n`);
  assert.equal(dirty.status, 1, dirty.stderr);
  assert.equal(dirty.stdout, `${CLEAN_LOG}\n${MDX_DIRECTIVE_WARNING}\n`);
  assert.match(dirty.stderr, /printed 1 warning\(s\)[\s\S]*"use astro:head-inject"/);
  const clean = run(`${CLEAN_LOG}\n`);
  assert.equal(clean.status, 0, clean.stderr);
  assert.equal(clean.stderr, '');
});

// The fields rolldown sets on this log (id, code, message), as its onLog receives them.
const directiveLog = (directive: string, id: string) => ({
  code: 'MODULE_LEVEL_DIRECTIVE',
  id,
  message: `[MODULE_LEVEL_DIRECTIVE] The semantics of the module level directive "${directive}" in "${id}" may not be preserved when bundling.`,
});

test("isHeadInjectDirectiveWarning: drops only Astro's directive in its ?astroPropagatedAssets modules", () => {
  assert.equal(
    isHeadInjectDirectiveWarning(
      directiveLog('use astro:head-inject', '/site/content/pages/drain.mdx?astroPropagatedAssets'),
    ),
    true,
  );
  // The same code for any other directive, or this directive anywhere else, is still a warning.
  assert.equal(isHeadInjectDirectiveWarning(directiveLog('use client', '/site/node_modules/lib/index.js')), false);
  assert.equal(
    isHeadInjectDirectiveWarning(directiveLog('use astro:head-inject', '/site/src/components/Thing.ts')),
    false,
  );
  assert.equal(
    isHeadInjectDirectiveWarning({
      code: 'UNRESOLVED_IMPORT',
      id: '/site/content/pages/drain.mdx?astroPropagatedAssets',
      message: 'Could not resolve "use astro:head-inject"',
    }),
    false,
  );
});
