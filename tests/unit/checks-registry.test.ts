// The registry of the content rules (src/lib/content/checks/index.ts) runs every rule of every
// concern module: a new module, or a rule a module exports but does not list in its `checks`
// record, fails here. (A rule left unexported and unlisted is an unused constant: the linter fails it.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHECKS, CONCERNS, type Check } from '../../src/lib/content/checks/index.ts';

const DIR = resolve('src/lib/content/checks');
/** The modules of the folder that hold no rules: the registry, the shared helpers, the disk readers. */
const NOT_CONCERNS = new Set(['index.ts', 'shared.ts', 'disk.ts']);
/** Exported functions of concern modules that are not rules (a report the tests and tools read). */
const NOT_RULES = new Set(['tokenReport']);

const modules = readdirSync(DIR)
  .filter((f) => f.endsWith('.ts') && !NOT_CONCERNS.has(f))
  .sort();

test('every concern module of checks/ is in the registry, with its own record', async () => {
  assert.ok(modules.length >= 5, `concern modules: ${modules.join(', ')}`);
  const registered = new Set<unknown>(Object.values(CONCERNS));
  for (const file of modules) {
    const mod = (await import(pathToFileURL(join(DIR, file)).href)) as { checks?: Record<string, Check> };
    assert.ok(mod.checks, `${file} exports its rules as \`checks\``);
    assert.ok(registered.has(mod.checks), `${file}: its checks are in CONCERNS (src/lib/content/checks/index.ts)`);
  }
  assert.equal(registered.size, modules.length, 'CONCERNS holds only the modules of the folder');
});

test('CHECKS is every rule of every concern, each once, named by its key', () => {
  const records = Object.values(CONCERNS) as Array<Record<string, Check>>;
  const all = records.flatMap((r) => Object.entries(r));
  assert.deepEqual(
    CHECKS.map((c) => c.name),
    all.map(([name]) => name),
  );
  assert.equal(new Set(CHECKS).size, CHECKS.length, 'no rule twice');
  for (const [name, rule] of all) assert.equal(rule.name, name, `the rule listed as ${name} is named ${rule.name}`);
});

test('a concern module exports no rule outside its record', async () => {
  for (const file of modules) {
    const mod = (await import(pathToFileURL(join(DIR, file)).href)) as Record<string, unknown>;
    const listed = new Set(Object.keys(mod.checks as object));
    for (const [name, value] of Object.entries(mod))
      if (name !== 'checks' && typeof value === 'function' && !NOT_RULES.has(name))
        assert.ok(listed.has(name), `${file} exports ${name}, which its checks record does not list`);
  }
});
