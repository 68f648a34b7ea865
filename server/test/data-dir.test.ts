// DATA_DIR belongs to one service: its files are owner-only, and a second service on the same folder refuses to start
// instead of sharing the embedded database's files and deleting the first one's socket when it stops.
import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildServer } from './support/child-server.js';

const SECRET = 'data-dir-test-secret-0123456789-0123456789-0123';
const mode = (path: string) => statSync(path).mode & 0o777;

describe('DATA_DIR', () => {
  it('is made owner-only even when it already existed open to everyone', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'datadir-')), 'data');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o777);
    const server = await startChildServer({ DATA_DIR: dataDir, DASHBOARD_JWT_SECRET: SECRET });
    try {
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(join(dataDir, 'pgdata'))).toBe(0o700);
      expect(mode(join(dataDir, 'docextract.pid'))).toBe(0o600);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('refuses a second service on the same folder, which leaves the first one serving', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'datadir-'));
    const first = await startChildServer({ DATA_DIR: dataDir, DASHBOARD_JWT_SECRET: SECRET });
    try {
      await expect(startChildServer({ DATA_DIR: dataDir, DASHBOARD_JWT_SECRET: SECRET })).rejects.toThrow(/exited 1:[\s\S]*DATA_DIR .* is in use by another docextract \(pid \d+\)/);
      const ready = await fetch(`${first.baseUrl}/readyz`);
      expect(ready.status).toBe(200);
      expect((await fetch(`${first.baseUrl}/v1/account`, { headers: { 'x-api-key': 'dx_live_nope' } })).status).toBe(401);
    } finally {
      first.child.kill('SIGTERM');
      expect(await first.exited).toEqual({ code: 0, signal: null });
    }
    // Stopped cleanly, it gives the folder up: the next service starts.
    const next = await startChildServer({ DATA_DIR: dataDir, DASHBOARD_JWT_SECRET: SECRET });
    next.child.kill('SIGTERM');
    await next.exited;
  });

  it('takes over a folder whose pid file was left by a process that died', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'datadir-'));
    writeFileSync(join(dataDir, 'docextract.pid'), '2147483646\n');
    const server = await startChildServer({ DATA_DIR: dataDir, DASHBOARD_JWT_SECRET: SECRET });
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    server.child.kill('SIGTERM');
    await server.exited;
  });
});
