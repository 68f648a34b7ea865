// Which `.env` a starting process reads: outside production the working directory's `.env`; in production none,
// unless ENV_FILE names one (an image or a repository root may hold a developer's `.env` and its keys).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dotEnvFile } from '../src/config/dotenv.js';

const root = new URL('../..', import.meta.url).pathname;

describe('dotEnvFile', () => {
  it('reads .env outside production, none in production, and what ENV_FILE says in both', () => {
    expect(dotEnvFile({})).toBe('.env');
    expect(dotEnvFile({ NODE_ENV: 'development' })).toBe('.env');
    expect(dotEnvFile({ NODE_ENV: 'test' })).toBe('.env');
    expect(dotEnvFile({ NODE_ENV: 'production' })).toBeNull();
    expect(dotEnvFile({ NODE_ENV: 'production', ENV_FILE: '/run/secrets/docextract.env' })).toBe('/run/secrets/docextract.env');
    expect(dotEnvFile({ NODE_ENV: 'production', ENV_FILE: '' })).toBeNull();
    expect(dotEnvFile({ ENV_FILE: '' })).toBeNull();
    expect(dotEnvFile({ ENV_FILE: 'other.env' })).toBe('other.env');
  });
});

/** Starts the compiled service in `cwd` until it logs where it listens (or exits); answers its output. */
function startIn(cwd: string, env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [join(root, 'server/dist/main.js')], {
    cwd,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', DATA_DIR: join(cwd, 'data'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve) => {
    const done = () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      child.once('exit', () => resolve(out));
      if (child.exitCode !== null) resolve(out);
    };
    child.stderr.on('data', (d) => { out += d; });
    child.stdout.on('data', (d) => {
      out += d;
      if (/"port":\d+/.test(out)) done();
    });
    child.once('exit', () => resolve(out));
  });
}

describe('a starting service and the .env in its working directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dotenv-'));
  // A developer's .env, as a copied repository or an image built from one would hold it.
  writeFileSync(join(dir, '.env'), 'PUBLIC_URL=https://from-dotenv.example.com\nANTHROPIC_API_KEY=sk-ant-developer-key\n');
  const production = { NODE_ENV: 'production', ALLOW_EMBEDDED_DATABASE: 'true', DASHBOARD_JWT_SECRET: 'dotenv-test-secret-0123456789-0123456789' };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('in production it is not read: no URL and no engine from it', async () => {
    const out = await startIn(dir, production);
    expect(out).toMatch(/"port":\d+/);
    expect(out).not.toContain('from-dotenv.example.com');
    expect(out).toContain('"engine":"local"');
  }, 120_000);

  it('in production ENV_FILE names it, and it is read', async () => {
    const out = await startIn(dir, { ...production, ENV_FILE: '.env', ANTHROPIC_API_KEY: '' });
    expect(out).toContain('"publicUrl":"https://from-dotenv.example.com"');
  }, 120_000);

  it('outside production it is read', async () => {
    const out = await startIn(dir, { ANTHROPIC_API_KEY: '' });
    expect(out).toContain('"publicUrl":"https://from-dotenv.example.com"');
  }, 120_000);
});
