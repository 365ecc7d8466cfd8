// What the built HTML says, checked by parsing dist/ (no browser): metadata and link previews,
// rel on external links, the sitemap and robots.txt, ids, the table's structure and badges, the
// row pages and the data exports. Expected rows, columns and counts come from the model (the same
// collections the site is built from), so a new row or column breaks nothing here.
// Run after a build, with the build's SITE_BASE and SITE_URL (tools/task.sh does: dist/ and
// dist-subpath/ with one, dist-nosite/ without, as `npm start` builds).
import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as cheerio from 'cheerio';
import GithubSlugger from 'github-slugger';
import { plainText } from '../../src/lib/markdown.ts';
import { loadTable } from '../../src/lib/content/load.ts';
import { PROVENANCES, PROVENANCE_LABEL, PROVENANCE_ICON, bySource } from '../../src/lib/view/model.ts';
import { shortLines } from '../../src/lib/claims/cite-text.ts';
import { READING_LABEL } from '../../src/lib/claims/syntax.ts';
import { routes } from '../../src/lib/routes.ts';
import { normaliseBase } from '../../src/lib/base.ts';
import { builtHtmlFiles, sitePathOfFile } from '../../tools/lib/site-pages.ts';
import { csvRecords } from '../support/csv.ts';

const dist = process.env.DIST_DIR ?? 'dist';
const base = normaliseBase(process.env.SITE_BASE);
const site = process.env.SITE_URL || undefined;
/** SITE_URL + base; without SITE_URL, the base: the build's own links are then from the host's root. */
const siteRoot = site ? new URL(base, site).href : base;
const model = await loadTable('content');

assert.ok(existsSync(join(dist, 'index.html')), `${dist}/index.html exists: build before these tests`);

const read = (path: string) => readFileSync(join(dist, path), 'utf8');
const html = (sitePath: string) => cheerio.load(read(join(sitePath, 'index.html')));

/** Each cell's short and full answer as the site renders them to plain text (the CSV), by "<row>/<backend>". */
const csvAnswers = new Map(
  csvRecords(read('comparison.csv'))
    .slice(1)
    .map((r) => [`${r[0]}/${r[2]}`, { short: r[5]!, answer: r[6]! }]),
);
const plain = (el: { text(): string }) => el.text().replace(/\s+/g, ' ').trim();
/** A rendered answer's words, its citation groups left out as the CSV leaves them out (src/lib/markdown.ts). */
const words = (el: { html(): string | null }) => plainText(el.html() ?? '');
const htmlFiles = builtHtmlFiles(dist);
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));

/** The sitemap's pages as paths relative to the base ('' for home). */
function sitemapPaths(): string[] {
  const paths: string[] = [];
  for (const sitemap of locs(read('sitemap-index.xml'))) {
    assert.ok(sitemap.startsWith(siteRoot), `${sitemap} is under ${siteRoot}`);
    for (const loc of locs(read(sitemap.slice(siteRoot.length)))) {
      assert.ok(loc.startsWith(siteRoot), `${loc} is under ${siteRoot}`);
      paths.push(loc.slice(siteRoot.length));
    }
  }
  return paths;
}
const noindex = (file: string) =>
  /\bnoindex\b/.test(cheerio.load(read(file))('meta[name=robots]').attr('content') ?? '');
/** The pages a crawler may index: the sitemap's; without SITE_URL (no sitemap), every page not noindex. */
const listed = site ? sitemapPaths() : htmlFiles.filter((f) => !noindex(f)).map(sitePathOfFile);

test(
  "without SITE_URL: no sitemap, and no address of its own: every 127.0.0.1 in the build is kube-proxy's metrics address in the evidence",
  { skip: site && 'built with SITE_URL' },
  () => {
    assert.ok(!existsSync(join(dist, 'sitemap-index.xml')), 'no sitemap-index.xml');
    let files = 0;
    for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
      if (!/\.(html|xml|txt|csv|json|svg)$/.test(file) || file.startsWith('pagefind')) continue;
      files += 1;
      const text = read(file);
      const loopback = [...text.matchAll(/127\.0\.0\.1(:\d+)?/g)].map((m) => m[0]);
      assert.deepEqual(
        loopback.filter((a) => a !== '127.0.0.1:10249'),
        [],
        `${file}: a loopback address not kube-proxy's`,
      );
      if (loopback.length > 0)
        assert.ok(file.startsWith('evidence/'), `${file}: 127.0.0.1:10249 outside the evidence pages`);
      assert.doesNotMatch(text, /https?:\/\/localhost\b/, `${file}: localhost`);
    }
    assert.ok(files > 20, `${files} files read`);
  },
);

test(
  'the sitemap lists every built page at SITE_URL + base once, except the noindex search and 404 pages',
  { skip: !site && 'built without SITE_URL: no sitemap' },
  () => {
    assert.ok(listed.includes(''), 'the home page');
    assert.equal(new Set(listed).size, listed.length, 'no page listed twice');
    for (const path of listed) assert.ok(existsSync(join(dist, path, 'index.html')), `${path} exists`);
    for (const file of htmlFiles) {
      const path = sitePathOfFile(file);
      if (listed.includes(path)) continue;
      const robots = cheerio.load(read(file))('meta[name=robots]').attr('content') ?? '';
      assert.match(robots, /\bnoindex\b/, `${file} is neither in the sitemap nor noindex`);
    }
    assert.ok(!listed.includes(routes.search), 'search is not listed');
  },
);

test("the footer: when the page's content last changed (its files' newest commit) and, with SITE_REPOSITORY, where to edit it and report a problem", () => {
  const repo = process.env.SITE_REPOSITORY;
  const newest = (...paths: string[]) =>
    execFileSync('git', ['log', '-1', '--format=%cs', '--', ...paths.map((p) => join('content', p))], {
      encoding: 'utf8',
    }).trim();
  const table = ['comparison', 'evidence', 'excerpts'];
  const expected: Array<{ path: string; date: string; edit?: string; editTable?: string }> = [
    ...model.pages.map((p) => ({
      path: p.path,
      date: newest(`pages/${p.id}.mdx`, ...(p.id === 'index' ? table : [])),
      edit: `content/pages/${p.id}.mdx`,
      // The home page shows the table besides its own text: its data is edited elsewhere.
      ...(p.id === 'index' && { editTable: 'content/comparison/axes.yaml' }),
    })),
    { path: routes.axisPage(model.axes[0]!.id), date: newest(...table), edit: 'content/comparison/axes.yaml' },
    ...model.evidence.map((e) => ({
      path: routes.evidence(e.id),
      date: newest(`evidence/${e.id}.yaml`),
      edit: undefined,
    })),
  ];
  for (const { path, date, edit, editTable } of expected) {
    const $ = html(path);
    assert.match(date, /^\d{4}-\d\d-\d\d$/, `${path}: git knows the date`);
    assert.equal($('.page-facts time').attr('datetime'), date, `/${path}: content last changed`);
    const link = (text: string) =>
      $('.page-facts a')
        .filter((_, a) => $(a).text().trim() === text)
        .attr('href');
    if (!repo) {
      assert.equal($('.page-facts a').length, 0, `/${path}: no repository links without SITE_REPOSITORY`);
      continue;
    }
    assert.equal(link('Source'), repo, `/${path}: the repository`);
    assert.equal(link('Edit this page'), edit && `${repo}/edit/main/${edit}`, `/${path}: edit this page`);
    if (edit) assert.ok(existsSync(edit), `${edit} exists`);
    assert.equal(link('Edit the table'), editTable && `${repo}/edit/main/${editTable}`, `/${path}: edit the table`);
    if (editTable) assert.ok(existsSync(editTable), `${editTable} exists`);
    assert.equal(
      link('Report a problem'),
      `${repo}/issues/new?title=${encodeURIComponent(`Problem on ${base}${path}`)}`,
    );
  }
});

test('robots.txt points at the sitemap index at the configured site and base (none without SITE_URL)', () => {
  const robots = read('robots.txt');
  assert.match(robots, /^User-agent: \*$/m);
  assert.equal(robots.match(/^Sitemap: (\S+)$/m)?.[1], site && `${siteRoot}sitemap-index.xml`);
});

test('every listed page: canonical URL, title, description, Open Graph and Twitter metadata, favicon (og:url and images only with SITE_URL)', () => {
  for (const path of listed) {
    const $ = html(path);
    const loc = siteRoot + path;
    const meta = (sel: string) => $(sel).attr('content');
    const title = $('title').text();
    assert.ok(title.length > 0, `${path}: title`);
    assert.equal($('link[rel=canonical]').attr('href'), site && loc, `${path}: canonical`);
    // Paper names the page's address (print.css shows it; the screen hides it), only where there is one.
    const printed = $('footer .page-facts > .print-only');
    assert.equal(printed.length, site ? 1 : 0, `${path}: printed address`);
    if (site) assert.equal(plain(printed), `· Printed from ${loc}`, path);
    assert.equal(meta('meta[property="og:url"]'), site && loc, `${path}: og:url`);
    assert.equal($('link[rel=sitemap]').length, site ? 1 : 0, `${path}: link to the sitemap`);
    assert.equal(meta('meta[property="og:title"]'), title, `${path}: og:title`);
    assert.equal(meta('meta[name="twitter:title"]'), title, `${path}: twitter:title`);
    assert.match(meta('meta[property="og:type"]') ?? '', /^(website|article)$/, `${path}: og:type`);
    // A page with a preview image (home, rows) has the large card; the others the plain one.
    const image = meta('meta[property="og:image"]');
    if (image) assert.ok(site && image.startsWith(siteRoot), `${path}: ${image} is at SITE_URL + base`);
    assert.equal(meta('meta[name="twitter:card"]'), image ? 'summary_large_image' : 'summary', `${path}: twitter:card`);
    if (image) assert.equal(meta('meta[name="twitter:image"]'), image, `${path}: twitter:image`);
    const description = meta('meta[name=description]') ?? '';
    assert.match(description, /\S.{20,}/, `${path}: description`);
    assert.equal(meta('meta[property="og:description"]'), description, `${path}: og:description`);
    assert.equal(meta('meta[name="twitter:description"]'), description, `${path}: twitter:description`);
    assert.equal($('meta[name=robots]').length, 0, `${path} is listed, so it is indexable`);
    assert.equal($('link[rel=icon]').attr('href'), `${base}favicon.svg`, `${path}: favicon`);
    assert.equal($('html').attr('lang'), 'en', `${path}: lang`);
    assert.equal($('h1').length, 1, `${path}: one h1`);
  }
  assert.ok(existsSync(join(dist, 'favicon.svg')));
});

test('every page: external links carry rel="noopener"; ids are unique', () => {
  let external = 0;
  for (const file of htmlFiles) {
    const $ = cheerio.load(read(file));
    $('a[href]').each((_, a) => {
      const href = $(a).attr('href')!;
      if (!/^https?:/.test(href) || href.startsWith(siteRoot)) return;
      external += 1;
      assert.ok(($(a).attr('rel') ?? '').split(/\s+/).includes('noopener'), `${href} on ${file}`);
    });
    const ids = $('[id]')
      .map((_, el) => $(el).attr('id'))
      .get();
    assert.deepEqual(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      [],
      `${file}: duplicate ids`,
    );
  }
  assert.ok(external > 0, 'the footer links to the upstream repositories');
});

test('the table: caption, a column header per backend (not-run marked), a row per axis in content order', () => {
  const $ = html('');
  const table = $('table.comparison');
  assert.equal(table.length, 1);
  assert.match(table.find('caption').text(), new RegExp(`on ${model.axes.length} axes`));
  const heads = table
    .find('thead th[scope=col]')
    .map((_, th) => ({
      name: $(th).clone().children('.not-run').remove().end().text().trim(),
      mark: $(th).find('.not-run').text().trim(),
    }))
    .get();
  assert.deepEqual(heads, [
    { name: 'Axis', mark: '' },
    ...model.backends.map((b) => ({ name: b.name, mark: b.run ? '' : 'read, not run' })),
  ]);
  assert.deepEqual(
    table
      .find('tbody tr')
      .map((_, tr) => $(tr).attr('id'))
      .get(),
    model.axes.map((r) => r.id),
  );
  for (const axis of model.axes) {
    const th = table.find(`tr#${axis.id} th[scope=row]`);
    assert.equal(th.find('a.row-link').attr('href'), routes.axisFragment(axis.id));
    assert.equal(th.find('a.row-link').text(), axis.question);
    assert.equal(th.find('a.row-page').attr('href'), base + routes.axisPage(axis.id));
  }
});

test('every cell: one badge naming its kind in words and what it rests on; provenance as the model says', () => {
  const $ = html('');
  for (const axis of model.axes)
    for (const cell of axis.cells) {
      const td = $(`tr#${axis.id} td[data-backend="${cell.backend.id}"]`);
      const where = `${axis.id} / ${cell.backend.id}`;
      assert.equal(td.attr('data-provenance'), cell.provenance, where);
      const badge = td.find('.badge');
      assert.equal(badge.length, 1, `${where}: one badge`);
      const text = badge.text().replace(/\s+/g, ' ').trim();
      assert.ok(
        text.startsWith(`${PROVENANCE_ICON[cell.provenance]} ${PROVENANCE_LABEL[cell.provenance]} · `),
        `${where}: ${text}`,
      );
      // At a glance: the short answer, then the badge, which is the button of the disclosure that
      // holds the full answer, its sources and the cell's one link.
      const expected = cell.provenance === 'to-measure' ? 'Expected: ' : '';
      const csv = csvAnswers.get(`${axis.id}/${cell.backend.id}`);
      assert.ok(csv && csv.short !== '' && csv.answer !== '', `${where}: both answers in comparison.csv`);
      assert.equal(plain(td.find('.cell-short')), expected + csv.short, `${where}: short answer`);
      assert.equal(words(td.find('.cell-answer')), expected + csv.answer, `${where}: full answer`);
      const details = td.children('details.cell-details');
      assert.equal(details.length, 1, `${where}: one disclosure`);
      assert.equal(details.attr('open'), undefined, `${where}: closed in the HTML`);
      assert.equal(
        details.children('summary').children('.badge').length,
        1,
        `${where}: the badge is the disclosure's button`,
      );
      assert.equal(badge.is('a'), false, `${where}: the badge is not a link`);
      assert.match(
        details.children('summary').text(),
        new RegExp(`\\(details and sources: ${cell.backend.name}, `),
        `${where}: the button's name says what it opens`,
      );
      assert.equal(details.find('.cell-answer').length, 1, `${where}: the full answer is inside the disclosure`);
      const links = details.find('a.cell-link');
      assert.equal(links.length, 1, `${where}: one cell link`);
      assert.equal(links.attr('href'), base + routes.cellPage(axis.id, cell.backend.id), `${where}: cell link inside`);
      assert.equal(links.attr('data-copy-link'), '', `${where}: the cell link is what copies`);
      assert.equal(td.find('button').length, 0, `${where}: no second copy control`);
      // One group per source, in the order of its first citation: the source named once, then its lines.
      const grouped = bySource(cell.cites);
      const inOrder = grouped.flatMap((g) => g.cites);
      const cites = td
        .find('.cite-list a')
        .map((_, a) => $(a).attr('href'))
        .get();
      assert.deepEqual(
        cites,
        inOrder.map((c) => base + c.href),
        `${where}: cites, in the disclosure, grouped by source`,
      );
      details.find('.cite-list a').each((i, a) => {
        const ref = inOrder[i]!;
        assert.equal($(a).attr('href'), base + ref.href);
        assert.equal($(a).text(), shortLines(ref.excerpt.lines), `${where}: a cite link names its lines`);
      });
      assert.equal(
        plain(details.find('.cell-how .cite-list').first()),
        grouped.map((g) => `${g.label} ${g.cites.map((c) => shortLines(c.excerpt.lines)).join(', ')}`).join('; '),
        `${where}: each source named once, before its lines`,
      );
      assert.equal(badge.find('a').length, 0, `${where}: no links in the compact badge`);
      if (cell.provenance === 'cited')
        // The compact badge names each source once; the excerpt links are in the full answer.
        assert.equal(
          text,
          `${PROVENANCE_ICON.cited} ${PROVENANCE_LABEL.cited} · ${[...new Set(cell.cites.map((c) => c.source.label))].join(', ')}` +
            // A cited cell that also cites a run beyond the exercise (the drain run) says so.
            (cell.runs ? ' · also run in the lab' : ''),
          where,
        );
      else
        assert.equal(
          text,
          `${PROVENANCE_ICON[cell.provenance]} ${PROVENANCE_LABEL[cell.provenance]} · on a node`,
          where,
        );
      if (cell.provenance === 'to-measure') {
        assert.match(td.find('.cell-answer').text(), /^Expected: /, where);
        assert.match(td.find('.cell-how').text(), /^How to measure: /, where);
        assert.equal(
          td
            .find('.cell-how a')
            .filter((_, a) => $(a).text() === `exercise ${cell.exercise}`)
            .attr('href'),
          base + routes.page('exercise'),
          `${where}: the exercise is a link`,
        );
      }
      if (cell.provenance === 'measured')
        assert.equal(
          // The cell's own link to its evidence (the answer's prose may cite it too, as a.cite).
          details.find(`a[href="${base + routes.evidence(cell.evidence.id)}"]`).not('.cite').length,
          1,
          `${where}: evidence link`,
        );
    }
});

test("a cell's own page says, as the table's column does, when its backend was read and not run", () => {
  for (const axis of model.axes)
    for (const cell of axis.cells) {
      const h1 = html(routes.cellPage(axis.id, cell.backend.id))('h1');
      assert.equal(h1.find('.not-run').length, cell.backend.run ? 0 : 1, `${axis.id} / ${cell.backend.id}`);
      if (!cell.backend.run) assert.equal(plain(h1.find('.not-run')), 'read, not run');
    }
});

test("a cell's own page's description is its short answer and what its badge says, the lab's runs included", () => {
  for (const axis of model.axes)
    for (const cell of axis.cells) {
      const $ = html(routes.cellPage(axis.id, cell.backend.id));
      const description = $('meta[name="description"]').attr('content') ?? '';
      assert.ok(
        description.includes(plain($('.cell-short').first())),
        `${axis.id} / ${cell.backend.id}: ${description}`,
      );
      // The badge's kind, and no course exercise number (it names nothing on this site).
      assert.ok(
        description.includes(`(${PROVENANCE_LABEL[cell.provenance]}`),
        `${axis.id} / ${cell.backend.id}: ${description}`,
      );
      assert.doesNotMatch(description, /\bex(ercise)?\.? \d/i, `${axis.id} / ${cell.backend.id}`);
      assert.equal(
        description.endsWith('; also run in the lab)'),
        cell.runs !== undefined,
        `${axis.id} / ${cell.backend.id}: ${description}`,
      );
      assert.equal(
        description.endsWith('; read, not run)'),
        !cell.backend.run,
        `${axis.id} / ${cell.backend.id}: ${description}`,
      );
    }
});

test('the legend counts each kind of cell', () => {
  const $ = html('');
  for (const p of PROVENANCES) {
    const n = model.counts[p];
    assert.equal($(`.legend [data-legend=${p}] .legend-count`).text(), `${n} ${n === 1 ? 'cell' : 'cells'}`, p);
    // The badge and its count are apart in the text, not only on screen ("Measured 0 cells").
    assert.match(
      $(`.legend [data-legend=${p}]`).text().replace(/\s+/g, ' ').trim(),
      new RegExp(`^${PROVENANCE_ICON[p]} ${PROVENANCE_LABEL[p]} ${n} cells?: `),
      p,
    );
  }
  // The one mark prose uses for our inference is in the legend, with the label the pages show.
  assert.match(
    $('.legend [data-legend=reading]').text().replace(/\s+/g, ' ').trim(),
    new RegExp(`^${READING_LABEL} in the text marks our own inference`),
  );
});

test('with SITE_REPOSITORY, the legend’s Measured line links to how a measurement is published (docs/evidence.md, at its section)', () => {
  const repo = process.env.SITE_REPOSITORY;
  const $ = html('');
  const publish = $('a')
    .map((_, a) => $(a).attr('href'))
    .get()
    .filter((href) => href.includes('docs/evidence.md'));
  if (!repo) {
    assert.deepEqual(publish, [], 'no link into the repository without SITE_REPOSITORY');
    for (const evidence of model.evidence)
      assert.equal(html(routes.evidence(evidence.id))('.evidence-own').length, 0, evidence.id);
    return;
  }
  const want = `${repo}/blob/main/docs/evidence.md#publishing-a-measurement`;
  const link = $('.legend [data-legend=measured] a');
  assert.deepEqual(link.map((_, a) => [[$(a).attr('href'), plain($(a))]]).get(), [
    [want, 'How to publish a measurement of your own'],
  ]);
  // Each To-measure cell's "How to measure" links there too (the table's and the cell's own page).
  const toMeasure = model.axes.flatMap((a) =>
    a.cells.filter((c) => c.provenance === 'to-measure').map((c) => [a, c] as const),
  );
  for (const [axis, cell] of toMeasure)
    for (const $$ of [$, html(routes.cellPage(axis.id, cell.backend.id))])
      assert.equal($$(`.cell-how a[href="${want}"]`).length, 1, `${axis.id} / ${cell.backend.id}: how to publish`);
  assert.equal(publish.length, 1 + toMeasure.length, 'the legend and each To-measure cell, nowhere else');
  // Each evidence page says how to measure the same on one's own node: the kit, then publishing.
  for (const evidence of model.evidence) {
    const own = html(routes.evidence(evidence.id))('.evidence-own a');
    assert.deepEqual(
      own.map((_, a) => $(a).attr('href')).get(),
      [`${repo}/blob/main/docs/evidence.md`, want],
      `${evidence.id}: how to measure it on one's own node`,
    );
  }
  // The section is there, under the heading GitHub makes that fragment of.
  const slugger = new GithubSlugger();
  const headings = [...readFileSync('docs/evidence.md', 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
    slugger.slug(m[1]!),
  );
  assert.ok(headings.includes('publishing-a-measurement'), headings.join(', '));
});

test('each row has its own page: title, a description of its short answers, a section per backend, a link back', () => {
  for (const axis of model.axes) {
    const $ = html(routes.axisPage(axis.id));
    assert.match($('title').text(), new RegExp(`^${axis.question.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    // The preview's text: every backend's name and short answer (as the CSV has it), short enough
    // to show whole.
    const description = $('meta[name=description]').attr('content') ?? '';
    for (const c of axis.cells) {
      const short = csvAnswers.get(`${axis.id}/${c.backend.id}`)?.short;
      assert.ok(
        short && description.includes(`${c.backend.name}: `) && description.includes(short),
        `${axis.id}: ${description}`,
      );
    }
    assert.ok(description.length <= 300, `${axis.id}: description of ${description.length} characters`);
    assert.deepEqual(
      $('section.row-cell')
        .map((_, s) => $(s).attr('data-backend'))
        .get(),
      model.backends.map((b) => b.id),
    );
    // The answer first: right after the title, each backend's short answer and badge, its name
    // linking to its section; there the full answer waits in one closed disclosure (issue 44, the
    // answer on a phone's first screen, the rest on demand); a cited badge carries its links.
    const glance = $('h1').next('ul.axis-glance');
    assert.equal(glance.length, 1, `${axis.id}: the answers at a glance right after the title`);
    assert.deepEqual(
      glance
        .children('li')
        .map((_, li) => $(li).children('a').attr('href'))
        .get(),
      axis.cells.map((c) => `#${routes.cellId(axis.id, c.backend.id)}`),
      `${axis.id}: one line per backend, in order, each linking to its section`,
    );
    for (const cell of axis.cells) {
      const li = glance.children(`li[data-backend="${cell.backend.id}"]`);
      assert.ok(
        words(li).includes(csvAnswers.get(`${axis.id}/${cell.backend.id}`)!.short),
        `${axis.id}/${cell.backend.id}: short answer at a glance`,
      );
      assert.equal(li.find('.badge').length, 1, `${axis.id}/${cell.backend.id}: its badge at a glance`);
    }
    for (const cell of axis.cells) {
      const section = $(`section.row-cell[data-backend="${cell.backend.id}"]`);
      const more = section.children('details.row-cell-more');
      assert.equal(more.length, 1, `${axis.id}/${cell.backend.id}: the full answer in one disclosure`);
      assert.equal(more.attr('open'), undefined, `${axis.id}/${cell.backend.id}: closed at first`);
      assert.equal(more.find('.cell-answer').length, 1, `${axis.id}/${cell.backend.id}: the answer inside it`);
      assert.ok(
        words(section.find('.cell-answer')).endsWith(csvAnswers.get(`${axis.id}/${cell.backend.id}`)!.answer),
        `${axis.id}/${cell.backend.id}: full answer`,
      );
      if (cell.provenance === 'cited')
        assert.equal(
          section.find('.badge .cite-list a').length,
          cell.cites.length,
          `${axis.id}/${cell.backend.id}: cites in the badge`,
        );
    }
    assert.equal(
      $('a')
        .filter((_, a) => $(a).text() === 'See this axis in the full table')
        .attr('href'),
      base + routes.axisFragment(axis.id),
    );
  }
});

test('the table as JSON and CSV, with provenance and links that carry the base', () => {
  const json = JSON.parse(read('comparison.json')) as {
    version: number;
    backends: Array<{ id: string }>;
    counts: Record<string, number>;
    rows: unknown;
    axes: Array<{
      id: string;
      url: string;
      page: string;
      preview: string;
      cells: Record<
        string,
        {
          provenance: string;
          short: string;
          answer: string;
          url: string;
          page: string;
          share: string;
          preview: string;
          cites: Array<{ excerpt: string; upstream: string }>;
        }
      >;
    }>;
  };
  assert.deepEqual(
    json.backends.map((b) => b.id),
    model.backends.map((b) => b.id),
  );
  assert.deepEqual(
    json.axes.map((r) => r.id),
    model.axes.map((r) => r.id),
  );
  // Version 2 names the list axes; version 1's rows is still there, the same list.
  assert.equal(json.version, 2);
  assert.deepEqual(json.rows, json.axes, 'rows, the deprecated name, holds the same list as axes');
  assert.deepEqual(json.counts, model.counts);
  for (const axis of model.axes) {
    const j = json.axes.find((r) => r.id === axis.id)!;
    assert.equal(j.url, siteRoot + routes.axisFragment(axis.id));
    assert.equal(j.page, siteRoot + routes.axisPage(axis.id));
    assert.equal(j.preview, siteRoot + routes.axisPreview(axis.id));
    for (const cell of axis.cells) {
      const jc = j.cells[cell.backend.id]!;
      assert.equal(jc.provenance, cell.provenance);
      assert.equal(jc.short, cell.short, `${axis.id}/${cell.backend.id}: short answer`);
      assert.equal(jc.answer, cell.answer, `${axis.id}/${cell.backend.id}: full answer`);
      assert.equal(jc.url, siteRoot + routes.cellFragment(axis.id, cell.backend.id));
      assert.equal(jc.page, siteRoot + routes.axisPageCell(axis.id, cell.backend.id));
      assert.equal(jc.share, siteRoot + routes.cellPage(axis.id, cell.backend.id));
      assert.equal(jc.preview, siteRoot + routes.cellPreview(axis.id, cell.backend.id));
      assert.deepEqual(
        jc.cites.map((c) => c.excerpt),
        cell.cites.map((c) => siteRoot + c.href),
      );
      // Pinned: at a full commit id, or at a release tag (kubernetes/kubernetes, docs/refreshing.md).
      for (const c of jc.cites)
        assert.match(
          c.upstream,
          /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\/blob\/(?:[0-9a-f]{40}|v\d+\.\d+\.\d+)\/.+#L\d+(-L\d+)?$/,
        );
    }
  }
  const lines = read('comparison.csv').trimEnd().split('\r\n');
  assert.equal(lines[0], 'axis,question,backend,provenance,exercise,short,answer,cites,sources');
  assert.equal(lines.length, 1 + model.axes.length * model.backends.length);
  // Both answers, as plain text, in every cell's record, in model order (their text is checked against the
  // table above).
  const records = csvRecords(read('comparison.csv'));
  assert.deepEqual(records[0]!.slice(5, 7), ['short', 'answer']);
  assert.deepEqual(
    records.slice(1).map((r) => `${r[0]}/${r[2]}`),
    model.axes.flatMap((axis) => axis.cells.map((c) => `${axis.id}/${c.backend.id}`)),
  );
});

test('each source page holds every excerpt of its source under its own id; KEP pages say "as of" the pinned release', () => {
  for (const source of model.sources) {
    const $ = html(source.page);
    for (const ref of [...model.excerpts.values()].filter((r) => r.source.id === source.id))
      assert.equal(
        $(`figure.excerpt[id="${ref.excerpt.id}"]`).attr('data-excerpt'),
        ref.id,
        `${source.page}: ${ref.id}`,
      );
    if (source.page.startsWith('keps/'))
      assert.match(
        $('.prose .as-of').first().text(),
        new RegExp(`as of Kubernetes ${model.site.asOf}`, 'i'),
        source.page,
      );
  }
});

test('the readings index links to every source page; each quoted question links to the exercise', () => {
  const $ = html('readings/');
  const hrefs = $('.prose a[href]')
    .map((_, a) => $(a).attr('href'))
    .get();
  for (const page of new Set(model.sources.map((s) => s.page)))
    assert.ok(hrefs.includes(`${base}${page}/`), `link to ${page}`);
  const quotes = $('.prose blockquote');
  assert.ok(quotes.length > 0);
  quotes.each((_, q) => assert.equal($(q).find(`a[href="${base}exercise/#read"]`).length, 1, $(q).text()));
});

test("every table of contents lists its page's h2/h3 headings, in order, each linking to the heading's id", () => {
  let tocs = 0;
  for (const file of htmlFiles) {
    const $ = cheerio.load(read(file));
    const toc = $('nav.toc');
    if (toc.length === 0) continue;
    tocs += 1;
    assert.equal(
      $(`#${toc.attr('aria-labelledby')}`).text(),
      'On this page',
      `${file}: the table of contents is named`,
    );
    const entries = toc
      .find('a')
      .map((_, a) => ({ href: $(a).attr('href'), text: $(a).text().trim() }))
      .get();
    const headings = $('.prose :is(h2, h3)')
      .map((_, h) => ({ href: `#${$(h).attr('id')}`, text: $(h).text().trim() }))
      .get();
    assert.deepEqual(entries, headings, file);
  }
  // Pages long enough to get one exist; which ones is the content's business, not this test's.
  assert.ok(tocs > 0, 'no page has a table of contents');
});

test('the page order runs from the home page through every listed page once, each step linking back', () => {
  const next = (path: string) => html(path)('nav[aria-label="Page order"] a[rel=next]').attr('href');
  const prev = (path: string) => html(path)('nav[aria-label="Page order"] a[rel=prev]').attr('href');
  assert.equal(prev(''), undefined, 'the home page comes first');
  const visited = [''];
  for (let href = next(''); href !== undefined; href = next(visited.at(-1)!)) {
    assert.ok(href.startsWith(base), `${href} carries the base`);
    const path = href.slice(base.length);
    assert.ok(!visited.includes(path), `the chain returns to /${path}`);
    assert.ok(listed.includes(path), `/${path} is a listed page`);
    assert.equal(prev(path), base + visited.at(-1)!, `/${path} links back`);
    visited.push(path);
  }
  // Every page of the pages collection is on the way; the pages generated per row and per
  // evidence file are reached from the table instead.
  const generated = [routes.axisPage(''), routes.evidence('')].map((r) => r.replace(/\/+$/, '/'));
  const pages = listed.filter((p) => !generated.some((prefix) => p.startsWith(prefix)));
  assert.deepEqual([...visited].sort(), [...pages].sort(), 'every page of the pages collection is on the way');
});

test('a measured cell counts what its sync wrote in words that agree with the number ("1 chain", not "1 chains")', () => {
  const $ = html('');
  const said = $('[data-measured-change]')
    .map((_, p) => plain($(p)))
    .get();
  assert.ok(said.length > 0, 'measured changes on the home page');
  for (const text of said) {
    assert.match(text, /wrote \d+ lines?: \d+ chains?, \d+ rules?\.$/, text);
    assert.doesNotMatch(text, /\b1 (lines|chains|rules)\b/, text);
    assert.doesNotMatch(text, /\b(?!1\b)\d+ (line|chain|rule)\b/, text);
  }
});
