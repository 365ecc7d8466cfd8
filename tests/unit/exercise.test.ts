// The exercise page reproduces the seed faithfully: once Markdown markup, our editorial note and
// our links are set aside, its words are the seed's words, in the seed's order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { haveShared, sharedPath } from '../support/shared.ts';

/** Words only: no table pipes or rules, no emphasis, link text kept, whitespace collapsed. */
function words(text: string): string {
  return text
    .replace(/¶/g, '') // the seed's stray permalink sign (the page drops it and says so)
    .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
    .replace(/\*\*/g, '')
    .replace(/^#+ /gm, '')
    .replace(/\|[-\s|]*\|/g, ' ') // table rules and runs of empty cells
    .replace(/\|/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

test('the exercise page holds the seed text word for word', (t) => {
  if (!haveShared(t, 'seed/exercise.txt')) return;
  const page = readFileSync('content/pages/exercise.mdx', 'utf8');
  // The editorial note before the text, and the note on its marks after it.
  const body = page.split('</Callout>')[1]?.split('<Callout')[0];
  assert.ok(body, 'the page has its editorial note followed by the exercise text');
  assert.equal(words(body), words(readFileSync(sharedPath('seed/exercise.txt'), 'utf8')));
});
