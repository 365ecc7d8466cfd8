// The layers' rules (.dependency-cruiser.cjs): each fails on its fixture's violating import, and
// only that rule; the real tree passes them all. Each fixture (tests/fixtures/dependency-rules/<rule>/)
// is a miniature of the tree (src/lib/content/, src/components/, tools/, ...), cruised with the project's
// rules and options from its own folder. For .astro files, which dependency-cruiser does not read,
// the rules on components and pages are the linter's (eslint.config.js): its fixture files show those.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { ESLint } from 'eslint';

const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as IConfiguration;
const FIXTURES = resolve('tests/fixtures/dependency-rules');
const rules = (config.forbidden ?? []).map((r) => r.name!);

async function violations(dir: string): Promise<Array<{ rule: string; from: string; to: string }>> {
  const { tsConfig: _, ...options } = config.options!;
  const roots = ['src', 'tools'].filter((d) => existsSync(join(dir, d)));
  const { output } = await cruise(roots, {
    ...options,
    baseDir: dir,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
  });
  const result = output as ICruiseResult;
  return result.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

test('every rule has a fixture, and every fixture is a rule', () => {
  assert.deepEqual(readdirSync(FIXTURES).sort(), [...rules].sort());
});

for (const rule of rules)
  test(`${rule}: fails on its fixture's violating import, and no other rule does`, async () => {
    const found = await violations(join(FIXTURES, rule));
    assert.ok(found.length > 0, `${rule}: the fixture's import is reported`);
    assert.deepEqual(
      found.filter((v) => v.rule !== rule),
      [],
      'no other rule fails',
    );
    // A cycle is reported once per module on it; every other rule, once for its one import.
    if (rule !== 'no-circular') assert.equal(found.length, 1, JSON.stringify(found));
  });

test('the real tree passes every rule (as npm run check cruises it)', () => {
  const bin = resolve('node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
  const out = execFileSync(
    process.execPath,
    [bin, 'src', 'tools', 'tests', 'astro.config.mjs', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const result = JSON.parse(out) as ICruiseResult;
  assert.deepEqual(result.summary.violations, []);
  assert.ok(result.summary.totalCruised > 100, `cruised ${result.summary.totalCruised} modules`);
});

// The linter's half, for .astro files: each fixture .astro file linted as if it stood in src/.
const astroFixtures = [
  { rule: 'components-through-view', file: 'src/components/FixtureCard.astro', line: 4 },
  { rule: 'pages-through-the-way-in', file: 'src/pages/FixturePage.astro', line: 4 },
];
for (const { rule, file, line } of astroFixtures)
  test(`${rule}, in .astro files: the linter fails on the fixture's violating import only`, async () => {
    const text = readFileSync(join(FIXTURES, rule, file), 'utf8');
    const [result] = await new ESLint().lintText(text, { filePath: resolve(file) });
    assert.deepEqual(
      result!.messages.map((m) => [m.ruleId, m.line]),
      [['no-restricted-imports', line]],
    );
    assert.match(result!.messages[0]!.message, new RegExp(`\\(${rule}\\)`));
  });
