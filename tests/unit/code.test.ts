// Unit tests for a code note's verbatim `code`: the byte-for-byte rule (src/lib/upstream/code.ts)
// and the Go block it is shown as (src/lib/content/code-block.ts). The "file" is a FIXTURE string.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockLines, checkCode } from '../../src/lib/upstream/code.ts';
import { commonIndent, dedent, goCodeBlock } from '../../src/lib/content/code-block.ts';

const FILE = 'FIXTURE/pkg/fixture.go';
const text = [
  '// FIXTURE file',
  'func fixture() {',
  '\tif ok {',
  '\t\treturn',
  '\t}',
  '\tif ok {',
  '\t\treturn',
  '\t}',
  '}',
  '',
].join('\n');

test('the exact lines pass, tabs and all', () => {
  assert.deepEqual(checkCode({ lines: [3, 5], text: '\tif ok {\n\t\treturn\n\t}' }, text, FILE), []);
  assert.deepEqual(checkCode({ lines: [9, 9], text: '}' }, text, FILE), []);
});

test('a line indented with spaces for a tab fails, naming the line both ways and where it is written', () => {
  const [f, ...rest] = checkCode({ lines: [3, 5], text: '\tif ok {\n    \treturn\n\t}' }, text, FILE);
  assert.equal(rest.length, 0);
  assert.equal(f!.field, 'code.text');
  assert.deepEqual(f!.at, ['code', 'text']);
  assert.equal(
    f!.problem,
    `${FILE}: code is not lines 3-5 byte for byte: its line 2 is "    \\treturn", line 4 of the file is "\\t\\treturn" ` +
      '(copy the lines from the pinned file: tabs, spaces and punctuation are compared exactly)',
  );
  assert.deepEqual(f!.seek, { text: '    \treturn', nth: 0 });
});

test('nothing is forgiven: a trailing space, a changed character, a dropped indentation', () => {
  for (const wrong of ['\tif ok { \n\t\treturn\n\t}', '\tif ok {\n\t\treturn;\n\t}', 'if ok {\n\treturn\n}'])
    assert.equal(checkCode({ lines: [3, 5], text: wrong }, text, FILE).length, 1, JSON.stringify(wrong));
});

test('the right text on other lines fails, and says on which lines it is', () => {
  const [f] = checkCode({ lines: [2, 4], text: '\tif ok {\n\t\treturn\n\t}' }, text, FILE);
  assert.match(
    f!.problem,
    /: code is not lines 2-4 byte for byte: its line 1 is "\\tif ok \{", line 2 of the file is "func fixture\(\) \{"; the text is on lines 3-5, 6-8 \(/,
  );
});

test('a repeated line is pointed at where it differs: its nth occurrence in the text', () => {
  const [f] = checkCode({ lines: [3, 7], text: '\tif ok {\n\t\treturn\n\t}\n\tif ok {\n\t\treturn x' }, text, FILE);
  assert.match(f!.problem, /its line 5 is "\\t\\treturn x", line 7 of the file is "\\t\\treturn"/);
  assert.deepEqual(f!.seek, { text: '\t\treturn x', nth: 0 });
  const [g] = checkCode({ lines: [3, 7], text: '\tif ok {\n\t\treturn\n\t}\n\tif ok  {\n\t\treturn' }, text, FILE);
  assert.deepEqual(g!.seek, { text: '\tif ok  {', nth: 0 });
  const [h] = checkCode({ lines: [2, 4], text: 'func fixture() {\n\tif ok {\n\t}' }, text, FILE);
  assert.deepEqual(h!.seek, { text: '\t}', nth: 0 });
});

test('lines outside the file fail at code.lines', () => {
  const [f] = checkCode({ lines: [9, 12], text: '}\n\n\n' }, text, FILE);
  assert.equal(f!.field, 'code.lines');
  assert.match(f!.problem, /^FIXTURE\/pkg\/fixture\.go: line range \[9, 12\] is outside the file, which has 9 lines$/);
});

test('blockLines finds every place a block of lines occurs whole', () => {
  const lines = text.split('\n');
  assert.deepEqual(blockLines(['\tif ok {', '\t\treturn'], lines), [3, 6]);
  assert.deepEqual(blockLines(['\tif ok {', '\t\treturn x'], lines), []);
});

test('the shown block takes off only the indentation every line shares', () => {
  assert.equal(commonIndent(['\t\tx', '\t\t\ty', '', '\t\tz']), '\t\t');
  assert.equal(commonIndent(['\tx', '  y']), '');
  assert.equal(dedent('\t\tif ok {\n\t\t\treturn\n\n\t\t}'), 'if ok {\n\treturn\n\n}');
  assert.equal(goCodeBlock('\tx := 1'), '```go\nx := 1\n```\n');
  // A raw string with a run of backticks gets a longer fence, so the block cannot end early.
  assert.equal(goCodeBlock('\ts := `a` + "```"'), '````go\ns := `a` + "```"\n````\n');
});
