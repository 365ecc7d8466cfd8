// How often a reader meets a confidence mark on the home page and /drain/ of a build:
//   node tools/confidence-marks.ts [dist]
// What counts is in tools/lib/confidence-marks.ts; tests/dist/confidence.test.ts holds the budget.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countMarks, MARK_BUDGET } from './lib/confidence-marks.ts';

const dist = process.argv[2] ?? 'dist';
for (const page of ['index.html', 'drain/index.html']) {
  const m = countMarks(readFileSync(join(dist, page), 'utf8'));
  console.log(
    `${page}: ${m.total} marks (budget ${MARK_BUDGET}; ${m.total - m.closed} on first load): ${m.labels} labels (${m.closed} in closed details), ${m.drawn} in drawings, ${m.figureText} in figure text, ${m.plain} in plain words`,
  );
}
