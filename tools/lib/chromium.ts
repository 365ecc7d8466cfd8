// The browser the e2e suite drives: Debian's Chromium (Playwright cannot download browsers
// here), in its headless-shell build (`apt-get install chromium-headless-shell`), the same
// engine and version without the desktop browser's UI processes; it is what Playwright itself
// runs for headless tests, and faster per test than the full browser (docs/performance.md). CHROMIUM_PATH picks
// another browser (the full one: /usr/bin/chromium).
// The benchmark measures pages in the full browser, as a reader loads them (the headless shell, for
// one, never asks for a favicon), and Lighthouse runs in it too (tools/lib/lighthouse.ts).
import { existsSync } from 'node:fs';

export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const FULL_BROWSER = '/usr/bin/chromium';

/** The flags that keep it off the network. */
const args = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** For the e2e suite. */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_BROWSER),
  args,
};

/** For the benchmark: the browser a reader runs. */
export const readerBrowserLaunchOptions = { executablePath: process.env.CHROMIUM_PATH ?? FULL_BROWSER, args };
