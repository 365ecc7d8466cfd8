// The browser the e2e suite drives: Debian's Chromium (Playwright cannot download browsers
// here), in its headless-shell build (`apt-get install chromium-headless-shell`), the same
// engine and version without the desktop browser's UI processes; it is what Playwright itself
// runs for headless tests. Measured on this 2-core machine: the same four e2e tests took 17.2 s
// against 21.7 s with the full browser, each test about half as long. CHROMIUM_PATH picks
// another browser (the full one: /usr/bin/chromium).
// The benchmark's Lighthouse runs use the full browser (scripts/lib/lighthouse.ts), as a reader does.
import { existsSync } from 'node:fs';

export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium'),
  // The flags that keep it off the network.
  args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};
