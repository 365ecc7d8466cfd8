import { defineConfig, devices } from '@playwright/test';
import { normaliseBase } from './src/lib/base.ts';
import { servingLine } from './tools/lib/ports.ts';
import { chromiumLaunchOptions } from './tools/lib/chromium.ts';

// The e2e suite runs against the built site served by a plain static server mounted at its base,
// so it proves what any static host will serve. Two projects, one run, one pool of workers:
//   root     dist/ at /                                  every test
//   subpath  dist-subpath/ at E2E_SUBPATH (a sub-path)   only what depends on the base (@base:
//            links, navigation, search, assets, CSP, copy link); the rest is the same markup
// `npm run e2e` (tools/task.sh) builds both folders first.
export const SUBPATH = normaliseBase(process.env.E2E_SUBPATH ?? '/kube-proxy-backends/');

// Each server takes a free port and prints it; webServer.wait reads it into an environment
// variable (ROOT_PORT, SUBPATH_PORT) in the runner before any worker starts. Each worker
// evaluates this file again and inherits those variables, so every worker gets the same, real
// baseURL. (In the runner itself, before the servers are up, the URL is a placeholder nothing
// navigates to.)
const url = (port: string | undefined, base: string) => `http://127.0.0.1:${port ?? '0'}${base}`;

const server = (dir: string, base: string, portVariable: string) => ({
  command: `node tools/lib/static-server.ts 0`,
  env: { SERVE_DIR: dir, SITE_BASE: base },
  wait: { stdout: servingLine(portVariable) },
  reuseExistingServer: false,
  timeout: 30_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
});

const browser = {
  ...devices['Desktop Chrome'],
  launchOptions: chromiumLaunchOptions, // Debian's Chromium: Playwright cannot download browsers here
};

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Each axe scan adds its own budget (tests/e2e/fixtures.ts); this covers the rest on a busy machine.
  timeout: 90_000,
  // Three workers on two cores: tests also wait (navigation, servers), and the whole suite took
  // 2.3 min with 3 against 2.6 min with 2 and 2.5 min with 4 on this machine.
  workers: 3,
  reporter: [['list']],
  // Traces are off unless asked for (E2E_TRACE=retain-on-failure, or --trace): recording one
  // for every test made the same 30 tests take 79-84 s instead of 50-53 s on this machine.
  // A failure still prints its error and the call log; npm run test:stress keeps traces.
  use: { trace: (process.env.E2E_TRACE ?? 'off') as 'off' | 'on' | 'retain-on-failure' }, // page.goto('rows/drain/'): no leading slash
  // subpath first: its serial group (share.spec.ts builds a FIXTURE site for it) then starts early
  // instead of running last while the other workers wait; root's many short tests fill the end.
  projects: [
    { name: 'subpath', grep: /@base/, use: { ...browser, baseURL: url(process.env.SUBPATH_PORT, SUBPATH) } },
    { name: 'root', use: { ...browser, baseURL: url(process.env.ROOT_PORT, '/') } },
  ],
  webServer: [server('dist', '/', 'ROOT_PORT'), server('dist-subpath', SUBPATH, 'SUBPATH_PORT')],
});
