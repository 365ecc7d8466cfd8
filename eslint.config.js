// @ts-check
// The linter: JavaScript's and typescript-eslint's recommended rules, Astro's for components.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import astro from 'eslint-plugin-astro';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist-subpath/',
      'dist-nosite/',
      '.astro/',
      '.bench/',
      'test-results/',
      'playwright-report/',
      'node_modules/',
      'tools/lighthouse/node_modules/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Prettier wraps code at 120; this catches the comments it leaves alone. Long messages and
      // patterns stay whole, so they can be searched for.
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
    },
  },
  // The layers' rules on components, layouts and pages (.dependency-cruiser.cjs), for .astro files too,
  // which dependency-cruiser does not read.
  {
    files: ['src/components/**', 'src/layouts/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/lib/content/**'],
              message:
                'Components and layouts never import the content layer: use src/lib/view/ (components-through-view).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/pages/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/lib/content/**', '!**/lib/content/index.ts'],
              message:
                'Pages reach the content layer only through src/lib/content/index.ts (pages-through-the-way-in).',
            },
          ],
        },
      ],
    },
  },
);
