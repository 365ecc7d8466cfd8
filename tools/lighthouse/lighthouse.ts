// Lighthouse (the npm package) against the bench's static server, in the full Chromium a reader runs
// (the e2e tests use its headless shell), launched by chrome-launcher. Only loopback is involved: the page's
// requests go to the local
// server and Lighthouse reports nowhere (error reporting stays off, as in the Node API's default).
import { FULL_BROWSER } from '../lib/chromium.ts';
import lighthouse, { desktopConfig, type Config } from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import {
  summariseLighthouse,
  type LighthousePreset,
  type LighthouseRun,
  type LighthouseSummary,
} from '../lib/bench.ts';

const PRESETS: Record<LighthousePreset, Config | undefined> = {
  mobile: undefined, // Lighthouse's default: a mid-range phone, simulated slow 4G and 4x CPU slowdown
  // The same phone with the slowdown applied while the page loads (Chromium's own CPU and network
  // throttling), so TBT counts the tasks that really ran after the first paint. The simulation
  // starts its clock at a first paint it computes from the document, render-blocking requests and
  // the first parse, layout and paint tasks only: a page that paints after fetching its CSS hides its
  // later tasks before it, one that paints from its own HTML does not (docs/performance.md).
  'mobile-applied': { extends: 'lighthouse:default', settings: { throttlingMethod: 'devtools' } },
  desktop: desktopConfig,
};

/** A run that Lighthouse itself could not complete (it says: run again) is retried, at most twice. */
async function attempt(url: string, config: Config | undefined, port: number, log: (msg: string) => void) {
  for (let tries = 1; ; tries++) {
    const result = await lighthouse(url, { port, logLevel: 'error', output: 'json' }, config);
    if (!result) throw new Error(`lighthouse returned nothing for ${url}`);
    const error = result.lhr.runtimeError;
    if (!error) return result;
    if (tries === 3) throw new Error(`lighthouse on ${url}: ${error.code} ${error.message}`);
    log(`  lighthouse could not finish (${error.code}); running again`);
  }
}

/** Runs Lighthouse `runs` times on each URL with each preset; medians per URL and preset. */
export async function runLighthouse(
  urls: { label: string; url: string }[],
  runs: number,
  log: (msg: string) => void,
): Promise<LighthouseSummary[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? FULL_BROWSER,
    chromeFlags: ['--headless=new', '--disable-gpu', ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
    logLevel: 'error',
  });
  try {
    const out: LighthouseSummary[] = [];
    for (const { label, url } of urls) {
      for (const preset of Object.keys(PRESETS) as LighthousePreset[]) {
        const results: LighthouseRun[] = [];
        for (let i = 1; i <= runs; i++) {
          log(`lighthouse ${label} (${preset}) run ${i}/${runs}`);
          const result = await attempt(url, PRESETS[preset], chrome.port, log);
          const { categories, audits } = result.lhr;
          const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
          const value = (id: string) => audits[id]?.numericValue ?? Number.NaN;
          results.push({
            performance: score('performance'),
            accessibility: score('accessibility'),
            bestPractices: score('best-practices'),
            seo: score('seo'),
            lcpMs: value('largest-contentful-paint'),
            tbtMs: value('total-blocking-time'),
            cls: value('cumulative-layout-shift'),
            benchmarkIndex: result.lhr.environment.benchmarkIndex,
            failing: Object.values(audits)
              .filter(
                (a) =>
                  a.score !== null &&
                  a.score < 1 &&
                  a.scoreDisplayMode !== 'informative' &&
                  a.scoreDisplayMode !== 'manual' &&
                  a.scoreDisplayMode !== 'notApplicable',
              )
              .map((a) => a.id),
          });
        }
        out.push(summariseLighthouse(label, preset, results));
      }
    }
    return out;
  } finally {
    chrome.kill();
  }
}
