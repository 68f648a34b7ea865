// Which `.env` a starting process reads: outside production the working directory's `.env`; in production none,
// unless ENV_FILE names one (an image or a repository root may hold a developer's `.env` and its keys).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dotEnvFile, malformedLine } from '../src/config/dotenv.js';

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

describe('malformedLine', () => {
  it('names the first line Node\'s parser would misread, and passes settings, comments, blank lines and closed quotes', () => {
    expect(malformedLine('A=1\n# note\n\nexport B = "two words" # why\nC=\'x\'\r\nD=`y`\nE=\n')).toBeNull();
    expect(malformedLine('A=1\nthis is junk\nNODE_ENV=bogus\n')).toEqual({ line: 2, why: 'is not a setting' });
    expect(malformedLine('A="unterminated\nB=2\n')).toEqual({ line: 1, why: 'opens a quoted value that does not end on that line' });
    expect(malformedLine('1A=3\n')).toEqual({ line: 1, why: 'is not a setting' });
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

  it('in production it is not read even when it would allow private webhook addresses or set the metrics token', async () => {
    const other = mkdtempSync(join(tmpdir(), 'dotenv-'));
    try {
      writeFileSync(join(other, '.env'), 'WEBHOOK_ALLOW_PRIVATE_URLS=true\nMETRICS_TOKEN=x\n');
      // Read, this file would stop the service: a METRICS_TOKEN this short is refused (exit 2).
      const out = await startIn(other, production);
      expect(out).toMatch(/"port":\d+/);
      expect(out).not.toContain('METRICS_TOKEN');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 120_000);

  it('a line it cannot read stops the service with exit 2 naming the line, and does not hide the next one', async () => {
    const other = mkdtempSync(join(tmpdir(), 'dotenv-'));
    try {
      // Node's parser alone takes "NODE_ENV=bogus" as the junk line's continuation: the bad setting went unseen.
      writeFileSync(join(other, '.env'), 'PUBLIC_URL=https://from-dotenv.example.com\nthis line is junk\nNODE_ENV=bogus\n');
      const child = spawn(process.execPath, [join(root, 'server/dist/main.js')], {
        cwd: other, env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', DATA_DIR: join(other, 'data') }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d) => { err += d; });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(2);
      expect(err).toContain('.env: line 2 is not a setting');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 120_000);

  it('outside production it is read', async () => {
    const out = await startIn(dir, { ANTHROPIC_API_KEY: '' });
    expect(out).toContain('"publicUrl":"https://from-dotenv.example.com"');
  }, 120_000);
});
