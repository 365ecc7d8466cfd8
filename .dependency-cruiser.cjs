// The layers' rules, checked by `npm run check` (depcruise). Bottom-up: the claim syntax
// (src/lib/claims/) and the site's paths (src/lib/routes.ts); the content layer (src/lib/content/:
// reading, the rules, the table model); the view (src/lib/view/: what is shown of the model); the
// Markdown plugins; components, layouts and pages. Each rule fails on a violating import of its
// fixture (tests/unit/dependency-rules.test.ts, tests/fixtures/dependency-rules/).
// dependency-cruiser does not read .astro files (sverweij/dependency-cruiser#1007): for them the
// rules on components, layouts and pages are also in eslint.config.js (no-restricted-imports).
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
    {
      name: 'claims-syntax-below-content',
      severity: 'error',
      comment:
        'The claim syntax (src/lib/claims/: directive names, cited-id forms, what an id resolves to) is shared by the ' +
        'Markdown plugins and the content rules, so it imports nothing of the content layer.',
      from: { path: '^src/lib/claims/' },
      to: { path: '^src/lib/(content|evidence|upstream|view|route)/' },
    },
    {
      name: 'evidence-parsers-stand-alone',
      severity: 'error',
      comment:
        "The evidence parsers (src/lib/evidence/: what kube-proxy's output shows) read text and nothing else: the " +
        'content layer, the evidence kit (tools/) and the lab use them, so they import none of the site.',
      from: { path: '^src/lib/evidence/' },
      to: { path: '^src/lib/', pathNot: '^src/lib/evidence/' },
    },
    {
      name: 'upstream-below-content',
      severity: 'error',
      comment:
        'The pinned-file checks (src/lib/upstream/: anchors, quoted lines) take the few fields they read as plain ' +
        'values; the content rules call them, so they import nothing of the content layer.',
      from: { path: '^src/lib/upstream/' },
      to: { path: '^src/lib/(content|view|route)/' },
    },
    {
      name: 'problems-at-the-bottom',
      severity: 'error',
      comment:
        'The one located-problem type (src/lib/problems.ts) is shared by every layer, so it imports none of them.',
      from: { path: '^src/lib/problems\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'markdown-plugins-below-content',
      severity: 'error',
      comment:
        'The Markdown plugins (src/lib/remark-*, rehype-*, markdown*) render any text; what they need of the content ' +
        '(the cited ids) is given to them as options, so they never import the content layer.',
      from: { path: '^src/lib/(remark-|rehype-|markdown)[^/]*$' },
      to: { path: '^src/lib/content/' },
    },
    {
      name: 'content-below-view',
      severity: 'error',
      comment:
        'The content layer builds the model; how it is shown (src/lib/view/), components, layouts and pages sit above ' +
        'it, so it imports none of them.',
      from: { path: '^src/lib/content/' },
      to: { path: '^src/(lib/view|components|layouts|pages)/' },
    },
    {
      name: 'components-through-view',
      severity: 'error',
      comment:
        'Components and layouts never import the content layer: they get the model and how to show it from ' +
        'src/lib/view/ (and paths from src/lib/routes.ts, citation text from src/lib/claims/).',
      from: { path: '^src/(components|layouts)/' },
      to: { path: '^src/lib/content/' },
    },
    {
      name: 'pages-through-the-way-in',
      severity: 'error',
      comment:
        "Pages reach the content layer only through its way in (src/lib/content/index.ts, getTable); the model's " +
        'types and helpers come from src/lib/view/.',
      from: { path: '^src/pages/' },
      to: { path: '^src/lib/content/', pathNot: '^src/lib/content/index\\.ts$' },
    },
    {
      name: 'tools-through-the-ways-in',
      severity: 'error',
      comment:
        "Tools (tools/) reach the site only through each module's way in for them: src/lib/content/load.ts, " +
        'src/lib/evidence/index.ts, src/lib/upstream/index.ts, src/lib/claims/index.ts, and the shared problems.ts, ' +
        'base.ts and routes.ts; so a module can change inside without a tool noticing.',
      from: { path: '^tools/' },
      to: {
        path: '^src/',
        pathNot:
          '^src/lib/(content/load|evidence/index|upstream/index|claims/index)\\.ts$|^src/lib/(problems|base|routes)\\.ts$',
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|dist-subpath|\\.astro|tools/lighthouse|tests/fixtures/dependency-rules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mjs', '.js', '.astro'] },
  },
};
