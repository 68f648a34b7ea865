// SIGTERM ends the service in every state: through `npm start` (npm passes the signal to the service itself), and
// when the reader of its standard output has gone away.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildServer } from '../support/child-server.js';

const root = new URL('../../..', import.meta.url).pathname;
const SECRET = 'signals-test-secret-0123456789-0123456789-012345';
const gone = (pid: number) => { try { process.kill(pid, 0); return false; } catch { return true; } };
async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (check()) return true;
  return check();
}

it('kill -TERM of `npm start` stops the service, not only npm', async () => {
  const npm = spawn('npm', ['start'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', HOST: '127.0.0.1', DATA_DIR: mkdtempSync(join(tmpdir(), 'signals-')), DASHBOARD_JWT_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  npm.stdout.on('data', (d) => { out += d; });
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  expect(await until(() => /"port":(\d+)/.test(out), 60_000)).toBe(true);
  const port = Number(/"port":(\d+)/.exec(out)![1]);
  const service = execFileSync('ps', ['-o', 'pid=', '--ppid', String(npm.pid)], { encoding: 'utf8' }).trim().split(/\s+/).map(Number);
  expect(service.length).toBeGreaterThan(0);
  npm.kill('SIGTERM');
  await exited;
  expect(await until(() => service.every(gone), 15_000)).toBe(true);
  await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  expect(out).toContain('"msg":"stopped"');
}, 90_000);

it('with its standard output closed, the service keeps answering and still ends on SIGTERM within SHUTDOWN_TIMEOUT_MS', async () => {
  const server = await startChildServer({ DATA_DIR: mkdtempSync(join(tmpdir(), 'signals-')), DASHBOARD_JWT_SECRET: SECRET, SHUTDOWN_TIMEOUT_MS: '1000' });
  server.child.stdout!.destroy(); // the reader goes away: every later log line meets a closed pipe
  for (let i = 0; i < 20; i++) expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
  const started = Date.now();
  server.child.kill('SIGTERM');
  const result = await server.exited;
  expect(result.signal).toBeNull();
  expect(Date.now() - started).toBeLessThan(1000 + 2000 + 2000);
}, 60_000);
