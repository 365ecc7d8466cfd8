// Ports, so that test servers never collide: two suites, a suite and `npm start`, or the link
// gate and the bench can all run side by side.
import { createServer, type AddressInfo } from 'node:net';

/**
 * The line tests/support/static-server.ts prints once it listens. Start it on port 0 and read the
 * port it took from this line: no window in which another process can take the port first. The
 * group name becomes E2E_PORT when Playwright's webServer.wait matches it (playwright.config.ts).
 */
export const SERVING = /static: serving .* at http:\/\/127\.0\.0\.1:(?<e2e_port>\d+)\//;

/** A port that was free a moment ago, for tools that must be told a port before they listen (linkinator). */
export const freePort = (host = '127.0.0.1'): Promise<number> =>
  new Promise((done, fail) => {
    const server = createServer().once('error', fail);
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
