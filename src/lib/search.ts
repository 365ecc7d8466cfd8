// Pagefind's search options: the search page hands them to its Component UI (src/pages/search.astro),
// and the tests that query the built index (tests/dist/search.test.ts) pass the same ones.

/**
 * Ranking (Pagefind's "Customize ranking"). Pagefind matches every query word as a prefix, and it
 * indexes the parts of a word with punctuation in it as words too ("5,002": "5002", "5", "002";
 * "2026-12-02": "2026", "12", "02"). So "0" in `weight 0` also matches "002", "02", "0x4000" and
 * "0.0.0.0/0", which this site's counts, dates, mark bits and rule dumps are full of. termSimilarity
 * weighs a match by how close its length is to the query word's: at Pagefind's default, 1, a word five
 * characters longer still counts 42 % of an exact match, so pages of numbers outranked the weight-0
 * drain; at 3 it counts 7 %. Inflections are unaffected: Pagefind stems the query and the words.
 */
export const SEARCH_RANKING = { termSimilarity: 3 } as const;

/** What `pagefind.options()` and the Component UI's configureInstance take. */
export const SEARCH_OPTIONS = { ranking: SEARCH_RANKING } as const;
