// Debian's Chromium (Playwright cannot download browsers here), with the flags that keep it off
// the network: one definition for the e2e suite and the benchmark.
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};
