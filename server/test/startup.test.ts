import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropic } from './support/fake-anthropic.js';

const root = new URL('../..', import.meta.url).pathname;

/** Starts the service as `npm start` does and answers its port once it logs that it listens. */
function start(dataDir: string, extraEnv: Record<string, string> = {}): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const child = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (d) => { out += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`no start within 30 s:\n${out}`)); }, 30_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /"port":(\d+)/.exec(out);
      if (m) { clearTimeout(timer); resolve({ child, port: Number(m[1]), output: () => out }); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`exited ${code}:\n${out}`)); });
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('npm start', () => {
  it('starts on an empty DATA_DIR, migrates, serves, and stops cleanly on SIGTERM; restarts on the same data', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'start-'));
    try {
      const first = await start(dataDir);
      expect(first.output()).toContain('"migrationsApplied":["');
      const health = await fetch(`http://127.0.0.1:${first.port}/readyz`);
      expect(await health.json()).toEqual({ ready: true, database: 'up' });
      const stopped = exited(first.child);
      first.child.kill('SIGTERM');
      expect(await stopped).toBe(0);

      const second = await start(dataDir);
      expect(second.output()).toContain('"migrationsApplied":[]');
      expect((await fetch(`http://127.0.0.1:${second.port}/healthz`)).status).toBe(200);
      const again = exited(second.child);
      second.child.kill('SIGTERM');
      expect(await again).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  // Issue 30, item 8: a wrong Claude key is named in the log as the service starts, not found by the first caller.
  it('checks ANTHROPIC_API_KEY at start (Models API) and logs a refused key with its cause, never the key; it still serves', async () => {
    const fake = await new FakeAnthropic().start();
    fake.acceptedKeys = new Set(['sk-ant-the-right-one']);
    const dataDir = mkdtempSync(join(tmpdir(), 'start-claude-'));
    try {
      const s = await start(dataDir, { ANTHROPIC_API_KEY: 'sk-ant-wrong-0123456789', ANTHROPIC_BASE_URL: fake.url });
      const deadline = Date.now() + 15_000;
      while (!s.output().includes('refused ANTHROPIC_API_KEY') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const line = s.output().split('\n').find((l) => l.includes('refused ANTHROPIC_API_KEY'))!;
      expect(JSON.parse(line)).toMatchObject({ level: 50, status: 401, errorType: 'authentication_error', message: 'invalid x-api-key', model: 'claude-sonnet-5-5' });
      expect(s.output()).not.toContain('sk-ant-wrong-0123456789');
      expect(fake.requests).toEqual([]); // no Messages call at start: nothing billed
      expect((await fetch(`http://127.0.0.1:${s.port}/healthz`)).status).toBe(200);
      const stopped = exited(s.child);
      s.child.kill('SIGTERM');
      expect(await stopped).toBe(0);
    } finally {
      await fake.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses to start with a bad configuration, naming the variable', async () => {
    const child = spawn(process.execPath, ['server/dist/main.js'], {
      cwd: root,
      env: { PATH: process.env.PATH, PORT: 'not-a-port', DATA_DIR: mkdtempSync(join(tmpdir(), 'bad-')) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d) => { err += d; });
    expect(await exited(child)).toBe(2);
    expect(err).toContain('PORT');
  });
});
