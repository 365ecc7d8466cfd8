// In `astro dev`, a page whose render throws (a content problem throws on every page) is answered
// with a 500 page that only loads Vite's client; Astro sends the error itself over the HMR socket
// 200 ms after that response, once, to the clients connected then. On a loaded machine the page
// that asked may not be connected yet (the old page's socket still is), so the message goes to the
// page that is leaving and the new one never shows the error overlay. Vite replays its own last
// build error to each client as it connects; this does the same for the last error sent while the
// last page served was a 500 page, so the overlay shows however late the page connects.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AstroIntegration } from 'astro';
import type { HotPayload } from 'vite';

export default function devErrorReplay(): AstroIntegration {
  return {
    name: 'dev-error-replay',
    hooks: {
      'astro:server:setup': ({ server }) => {
        const hot = server.environments.client.hot;
        let lastError: HotPayload | undefined;
        let lastPageStatus = 200;
        const send = hot.send.bind(hot) as (...args: unknown[]) => void;
        hot.send = ((...args: unknown[]) => {
          const payload = args[0] as HotPayload | undefined;
          if (payload?.type === 'error') lastError = payload;
          send(...args);
        }) as typeof hot.send;
        server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
          if (req.headers.accept?.includes('text/html')) res.on('finish', () => (lastPageStatus = res.statusCode));
          next();
        });
        hot.on('vite:client:connect', (_data, client) => {
          if (lastPageStatus >= 500 && lastError) client.send(lastError);
        });
      },
    },
  };
}
