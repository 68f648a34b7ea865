import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../src/config/config.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'cfg-'));

describe('configuration', () => {
  it('has the documented defaults', () => {
    const dir = dataDir();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c).toMatchObject({ port: 8080, host: '127.0.0.1', databaseUrl: undefined, publicUrl: 'http://127.0.0.1:8080', nodeEnv: 'development' });
    expect(c.plans).toEqual({ free: { heuPerMonth: 100, requestsPerMinute: 10 }, starter: { heuPerMonth: 10000, requestsPerMinute: 120 } });
  });

  it('generates a dashboard secret outside production and keeps it in DATA_DIR', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).dashboard.jwtSecret;
    expect(first).toHaveLength(64);
    expect(loadConfig({ DATA_DIR: dir }).dashboard.jwtSecret).toBe(first);
    expect(readFileSync(join(dir, 'dashboard-jwt-secret'), 'utf8').trim()).toBe(first);
  });

  it('names every bad value in one message', () => {
    const bad = () => loadConfig({ DATA_DIR: dataDir(), PORT: 'eighty', DATABASE_URL: 'mysql://x', PUBLIC_URL: 'not a url', DASHBOARD_JWT_SECRET: 'short' });
    expect(bad).toThrow(ConfigError);
    try { bad(); } catch (e) {
      const msg = (e as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'PUBLIC_URL', 'DASHBOARD_JWT_SECRET']) expect(msg).toContain(name);
    }
  });

  it('requires a dashboard secret in production', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production' })).toThrow(/DASHBOARD_JWT_SECRET: required in production/);
  });

  it('refuses a PLANS_FILE that is not the plan table', () => {
    const file = join(dataDir(), 'plans.json');
    writeFileSync(file, JSON.stringify({ free: { heuPerMonth: -1, requestsPerMinute: 10 } }));
    expect(() => loadConfig({ DATA_DIR: dataDir(), PLANS_FILE: file })).toThrow(/PLANS_FILE .*free\.heuPerMonth/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), PLANS_FILE: '/nonexistent/plans.json' })).toThrow(/PLANS_FILE/);
  });
});
