// A plain static file server for dist/, the way static hosts serve it: the site is mounted at
// SITE_BASE, directories serve index.html, unknown paths get 404.html, and the `/*` block of
// dist/_headers (the Netlify/Cloudflare Pages format) is applied to every response, so the
// e2e tests exercise the Content-Security-Policy the site ships.
// Usage: node tools/lib/static-server.ts [port]   (SITE_BASE from the environment;
// SERVE_DIR serves another build folder instead of dist/). Port 0 (the default) takes a free
// port; the line printed once listening names the port (tools/lib/ports.ts reads it).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, stat } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { join, extname, normalize, resolve } from 'node:path';
import { normaliseBase } from '../../src/lib/base.ts';

const root = process.env.SERVE_DIR ? resolve(process.env.SERVE_DIR) : join(import.meta.dirname, '../../dist');
const base = normaliseBase(process.env.SITE_BASE);
const port = Number(process.argv[2] ?? 0);

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.csv': 'text/csv; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.pf_meta': 'application/octet-stream',
  '.pf_index': 'application/octet-stream',
  '.pf_fragment': 'application/octet-stream',
};

/** Headers from the `/*` block of _headers: indented "Name: value" lines under the path line. */
function globalHeaders(): Record<string, string> {
  const file = join(root, '_headers');
  if (!existsSync(file)) return {};
  const out: Record<string, string> = {};
  let inGlobal = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\S/.test(line)) inGlobal = line.trim() === '/*';
    else if (inGlobal && line.includes(':')) {
      const i = line.indexOf(':');
      out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
    }
  }
  return out;
}
const headers = globalHeaders();

async function resolveFile(urlPath: string): Promise<string | undefined> {
  const rel = normalize(decodeURIComponent(urlPath)).replace(/^(\.\.[/\\])+/, '');
  let file = join(root, rel);
  try {
    if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
    await stat(file);
    return file;
  } catch {
    return undefined;
  }
}

const server = createServer(async (req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  let status = 200;
  let file: string | undefined;
  if (path.startsWith(base)) file = await resolveFile(path.slice(base.length));
  else if (path === base.slice(0, -1)) {
    res.writeHead(301, { Location: base }).end();
    return;
  }
  if (!file) {
    status = 404;
    file = join(root, '404.html');
  }
  const body = await readFile(file).catch(() => Buffer.from('Not found'));
  res.writeHead(status, { ...headers, 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
  res.end(req.method === 'HEAD' ? undefined : body);
});
server.listen(port, '127.0.0.1', () => {
  const { port: bound } = server.address() as AddressInfo;
  console.log(`static: serving ${root} at http://127.0.0.1:${bound}${base}`);
});
