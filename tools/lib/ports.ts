// Ports, so that test servers never collide: two suites, a suite and `npm start`, or the link
// gate and the bench can all run side by side.
import { createServer, type AddressInfo } from 'node:net';

/**
 * The line tools/lib/static-server.ts prints once it listens. Start it on port 0 and read the
 * port it took from this line: no window in which another process can take the port first.
 */
export const SERVING = /static: serving .* at http:\/\/127\.0\.0\.1:(?<port>\d+)\//;

/**
 * SERVING, with the port captured under `variable`: Playwright's webServer.wait sets that
 * environment variable (upper-cased) to the port (playwright.config.ts).
 */
export const servingLine = (variable: string): RegExp =>
  new RegExp(SERVING.source.replace('(?<port>', `(?<${variable.toLowerCase()}>`));

/** A port that was free a moment ago, for tools that must be told a port before they listen (linkinator). */
export const freePort = (host = '127.0.0.1'): Promise<number> =>
  new Promise((done, fail) => {
    const server = createServer().once('error', fail);
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
