// The first minutes with the service: the line it prints on start, the page at `/`, and `npm run key`.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startChildServer, type ChildServer } from './support/child-server.js';

const root = new URL('../..', import.meta.url).pathname;

describe('starting out', () => {
  let server: ChildServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'first-start-'));
    server = await startChildServer({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('prints one line for a person: the address, the dashboard, the reference, the engine, the database and how to get a key', () => {
    const line = server.output().split('\n').find((l) => l.startsWith('docextract is up at'));
    // Which database: the embedded one and its folder (issue 30), never a URL that could hold a password.
    expect(line).toBe(`docextract is up at ${server.baseUrl}  ·  dashboard ${server.baseUrl}/dashboard  ·  reference ${server.baseUrl}/docs  ·  engine: offline rules (local-rules-1)  ·  database: embedded PostgreSQL (PGlite) in ${dataDir}  ·  a key for local use: npm run key`);
  });

  it('answers GET / with a page linking the dashboard, the reference and the contract', async () => {
    const res = await fetch(`${server.baseUrl}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await res.text();
    for (const href of ['/dashboard', '/docs', '/openapi.json']) expect(page).toContain(`href="${href}"`);
    expect(page).toContain(server.baseUrl);
    // The Host header goes into the page escaped.
    const hostile = await fetch(`${server.baseUrl}/`, { headers: { host: '"><script>x</script>' } });
    expect(await hostile.text()).not.toContain('<script>x');
  });

  it('npm run key prints a working key for a local account, once', async () => {
    const { stdout, stderr } = await promisify(execFile)('npm', ['run', '-s', 'key'], {
      cwd: root, env: { ...process.env, DATA_DIR: dataDir, PUBLIC_URL: server.baseUrl, NODE_ENV: 'development' }, timeout: 60_000,
    });
    const key = stdout.trim();
    expect(key).toMatch(/^dx_live_[A-Za-z0-9]{43}$/);
    expect(stderr).toContain('shown once');
    const account = await fetch(`${server.baseUrl}/v1/account`, { headers: { 'x-api-key': key } });
    expect(account.status).toBe(200);
    // On the free plan, as every account a session creates (NEW_ACCOUNT_PLAN unset).
    expect(await account.json()).toMatchObject({ id: 'acct_local', plan: 'free', heuLimit: 100, requestsPerMinute: 10 });
  });

  it('npm run key says plainly when no service answers', async () => {
    const run = promisify(execFile)('npm', ['run', '-s', 'key'], { cwd: root, env: { ...process.env, DATA_DIR: dataDir, PUBLIC_URL: 'http://127.0.0.1:9', NODE_ENV: 'development' }, timeout: 60_000 });
    await expect(run).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('No docextract answers at http://127.0.0.1:9: start it with `npm start`') });
  });
});
