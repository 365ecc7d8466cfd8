// Starts tools/lib/static-server.ts on a folder, at a base, on a port it picks; used by the
// benchmark and by e2e fixtures that serve a build of their own. (The e2e suite's own servers are
// started by Playwright's webServer, which reads the same SERVING line.)
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { SERVING } from './ports.ts';

const root = join(import.meta.dirname, '../..');

export interface Served {
  /** http://127.0.0.1:<port><base> */
  siteUrl: string;
  stop: () => Promise<void>;
}

export async function serve(dir: string, base: string): Promise<Served> {
  const child = spawn(process.execPath, [join(root, 'tools/lib/static-server.ts'), '0'], {
    cwd: root,
    env: { ...process.env, SERVE_DIR: dir, SITE_BASE: base },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((done, fail) => {
    let out = '';
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`static server for ${dir} exited ${code}: ${out}`)));
    child.stdout!.on('data', (chunk) => {
      const port = SERVING.exec((out += chunk))?.groups?.port;
      if (port) done(port);
    });
  });
  const stop = () =>
    new Promise<void>((done) => {
      child.removeAllListeners('exit');
      child.once('exit', () => done());
      child.kill();
    });
  return { siteUrl: `http://127.0.0.1:${port}${base}`, stop };
}
