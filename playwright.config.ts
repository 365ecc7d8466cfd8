import { defineConfig, devices } from '@playwright/test';
import { normaliseBase } from './src/lib/base.ts';
import { SERVING } from './tests/support/ports.ts';
import { chromiumLaunchOptions } from './tests/support/chromium.ts';

// The e2e suite runs against the built site (dist/) served by a plain static server mounted
// at SITE_BASE, so it proves what any static host will serve. Build with the same SITE_BASE.
const base = normaliseBase(process.env.SITE_BASE);
// The server takes a free port (or PREVIEW_PORT, if set) and prints it; webServer.wait reads it
// into process.env.E2E_PORT in the runner before any worker starts. Each worker evaluates this
// file again and inherits that variable, so every worker gets the same, real baseURL. (In the
// runner itself, before the server is up, the URL is a placeholder nothing navigates to.)
const port = process.env.E2E_PORT ?? process.env.PREVIEW_PORT ?? '0';
const baseURL = `http://127.0.0.1:${port}${base}`;

export default defineConfig({
  testDir: 'tests/e2e',
  // Under a sub-path only what depends on the base runs (tagged @base: links, navigation, search,
  // assets, CSP, copy link); everything else is the same markup and runs once, in the pass at /.
  grep: base === '/' ? undefined : /@base/,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // axe scans of the full table page take several seconds on a busy 2-core machine.
  timeout: 90_000,
  workers: 2,
  reporter: [['list']],
  use: { baseURL, trace: 'retain-on-failure' }, // page.goto('rows/drain/'): no leading slash
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: chromiumLaunchOptions, // Debian's Chromium: Playwright cannot download browsers here
      },
    },
  ],
  webServer: {
    command: `node tests/support/static-server.ts ${process.env.PREVIEW_PORT ?? 0}`,
    wait: { stdout: SERVING },
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
