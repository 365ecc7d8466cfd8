// The layers' rules, checked by `npm run check` (depcruise). Each rule fails on a violating import
// of a fixture (tests/unit/dependency-rules.test.ts).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Layers point one way: no module reaches itself through its imports (type imports too).',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|dist-subpath|\\.astro|tools/lighthouse)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mjs', '.js', '.astro'] },
  },
};
