// A copy of the site's content/ as it was before any measurement, for tests that add FIXTURE
// captures to cells that have none, whatever the real content holds.
import { cpSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Copies content/ to `dir` with no kit evidence: no evidence file but the drain run's, no
 * `measure.evidence`, and none of the sentences that cite a capture ("Measured in this study's lab …
 * :cite[evidence/…]."). Returns `dir`.
 */
export function unmeasuredContent(dir: string): string {
  cpSync(join(root, 'content'), dir, { recursive: true });
  // The drain run's evidence (kind: drain) measures no kit cell: it stays, with the sentences citing it.
  for (const f of readdirSync(join(dir, 'evidence')))
    if (!/^kind: drain$/m.test(readFileSync(join(dir, 'evidence', f), 'utf8'))) rmSync(join(dir, 'evidence', f));
  const axes = join(dir, 'comparison/axes.yaml');
  writeFileSync(
    axes,
    readFileSync(axes, 'utf8')
      .replace(/^ +evidence: \S+\n/gm, '')
      .replace(
        / ?Measured\s+in\s+this study's lab(?:(?!Measured\s)[\s\S])*?:cite\[evidence\/(?!drain-)[^\]]+\]\./g,
        '',
      ),
  );
  return dir;
}
