import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, defaultPublicUrl, loadConfig, withBoundPort } from '../src/config/config.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'cfg-'));

describe('configuration', () => {
  it('has the documented defaults', () => {
    const dir = dataDir();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c).toMatchObject({ port: 8080, host: '127.0.0.1', databaseUrl: undefined, publicUrl: 'http://127.0.0.1:8080', nodeEnv: 'development' });
    expect(c.plans).toEqual({ free: { heuPerMonth: 100, requestsPerMinute: 10 }, starter: { heuPerMonth: 10000, requestsPerMinute: 120 } });
  });

  it('defaults PUBLIC_URL to the address served: HOST and PORT, a wildcard host as loopback, IPv6 in brackets', () => {
    const url = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir(), ...env }).publicUrl;
    expect(url({ PORT: '9090' })).toBe('http://127.0.0.1:9090');
    expect(url({ HOST: '0.0.0.0', PORT: '3000' })).toBe('http://127.0.0.1:3000');
    expect(url({ HOST: '::', PORT: '3000' })).toBe('http://[::1]:3000');
    expect(url({ HOST: '::1' })).toBe('http://[::1]:8080');
    expect(url({ HOST: '[::1]', PORT: '81' })).toBe('http://[::1]:81');
    expect(url({ HOST: 'fd00::5', PORT: '81' })).toBe('http://[fd00::5]:81');
    expect(url({ HOST: 'docextract.internal', PORT: '8443' })).toBe('http://docextract.internal:8443');
    expect(loadConfig({ DATA_DIR: dataDir(), HOST: '10.0.0.7', PORT: '9000' })).toMatchObject({ publicUrl: 'http://10.0.0.7:9000', publicUrlIsExplicit: false });
    expect(defaultPublicUrl('0:0:0:0:0:0:0:0', 80)).toBe('http://[::1]:80');
    for (const [host, port] of [['0.0.0.0', 1], ['::', 2], ['::1', 3], ['example.com', 5]] as const) {
      expect(URL.canParse(defaultPublicUrl(host, port))).toBe(true);
    }
  });

  it('keeps an explicit PUBLIC_URL whatever HOST and PORT are (without a trailing slash)', () => {
    const c = loadConfig({ DATA_DIR: dataDir(), HOST: '0.0.0.0', PORT: '9090', PUBLIC_URL: 'https://api.example.com/' });
    expect(c).toMatchObject({ publicUrl: 'https://api.example.com', publicUrlIsExplicit: true });
    expect(withBoundPort(c, 9090).publicUrl).toBe('https://api.example.com');
  });

  it('follows the port actually bound when PORT is 0, unless PUBLIC_URL is set', () => {
    const c = loadConfig({ DATA_DIR: dataDir(), PORT: '0' });
    expect(withBoundPort(c, 43210)).toMatchObject({ port: 43210, publicUrl: 'http://127.0.0.1:43210' });
    expect(withBoundPort(loadConfig({ DATA_DIR: dataDir(), PORT: '0', HOST: '::' }), 43210).publicUrl).toBe('http://[::1]:43210');
    const explicit = loadConfig({ DATA_DIR: dataDir(), PORT: '0', PUBLIC_URL: 'https://api.example.com' });
    expect(withBoundPort(explicit, 43210)).toMatchObject({ port: 43210, publicUrl: 'https://api.example.com' });
    const fixed = loadConfig({ DATA_DIR: dataDir(), PORT: '8081' });
    expect(withBoundPort(fixed, 8081)).toBe(fixed);
  });

  it('asks for PUBLIC_URL when HOST cannot make a URL', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), HOST: 'not a host' })).toThrow(/PUBLIC_URL: required/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), HOST: 'fe80::1%eth0' })).toThrow(/PUBLIC_URL: required/);
    expect(loadConfig({ DATA_DIR: dataDir(), HOST: 'not a host', PUBLIC_URL: 'https://x.example' }).publicUrl).toBe('https://x.example');
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

  it('sizes the document reader: documented defaults, bounds, and an account cap below the processes', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).reader).toEqual({ processes: 2, memoryMb: 512, perAccount: 1, spares: 2 });
    expect(loadConfig({ DATA_DIR: dataDir(), READER_PROCESSES: '4', READER_MEMORY_MB: '1024', READER_ACCOUNT_CONCURRENCY: '3', READER_SPARES: '0' }).reader)
      .toEqual({ processes: 4, memoryMb: 1024, perAccount: 3, spares: 0 });
    // One account must never hold every reader process.
    expect(() => loadConfig({ DATA_DIR: dataDir(), READER_PROCESSES: '2', READER_ACCOUNT_CONCURRENCY: '2' })).toThrow(/READER_ACCOUNT_CONCURRENCY: must be less than READER_PROCESSES/);
    for (const [name, value] of [['READER_PROCESSES', '1'], ['READER_MEMORY_MB', '128'], ['READER_ACCOUNT_CONCURRENCY', '0'], ['READER_SPARES', '-1'], ['READER_PROCESSES', 'two']]) {
      expect(() => loadConfig({ DATA_DIR: dataDir(), [name!]: value! })).toThrow(new RegExp(`${name}`));
    }
  });

  it('sizes the PostgreSQL pool and its time limits: documented defaults, settings, and a query limit not below the statement limit', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).pool).toEqual({ max: 10, connectTimeoutMs: 5000, statementTimeoutMs: 10_000, queryTimeoutMs: 15_000, idleInTransactionTimeoutMs: 60_000, queueMax: 4, pooler: 'none' });
    expect(loadConfig({
      DATA_DIR: dataDir(), DATABASE_POOL_MAX: '4', DATABASE_CONNECT_TIMEOUT_MS: '2000', DATABASE_STATEMENT_TIMEOUT_MS: '0', DATABASE_QUERY_TIMEOUT_MS: '3000', DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '0',
      DATABASE_QUEUE_POOL_MAX: '2', DATABASE_POOLER: 'transaction',
    }).pool).toEqual({ max: 4, connectTimeoutMs: 2000, statementTimeoutMs: 0, queryTimeoutMs: 3000, idleInTransactionTimeoutMs: 0, queueMax: 2, pooler: 'transaction' });
    expect(() => loadConfig({ DATA_DIR: dataDir(), DATABASE_STATEMENT_TIMEOUT_MS: '20000' })).toThrow(/DATABASE_QUERY_TIMEOUT_MS: must not be less than DATABASE_STATEMENT_TIMEOUT_MS/);
    for (const [name, value] of [['DATABASE_POOL_MAX', '0'], ['DATABASE_CONNECT_TIMEOUT_MS', '10'], ['DATABASE_QUERY_TIMEOUT_MS', 'soon'], ['DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', '-1']]) {
      expect(() => loadConfig({ DATA_DIR: dataDir(), [name!]: value! })).toThrow(new RegExp(`${name}: `));
    }
  });

  it('requires a dashboard secret in production', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production' })).toThrow(/DASHBOARD_JWT_SECRET: required in production/);
  });

  it('names every problem in one message: bad values and the checks between variables, not one per start', () => {
    const plans = join(dataDir(), 'plans.json');
    writeFileSync(plans, JSON.stringify({ free: { heuPerMonth: -1, requestsPerMinute: 10 } }));
    let message = '';
    try {
      loadConfig({
        DATA_DIR: dataDir(), NODE_ENV: 'production', PORT: 'eighty', LOG_LEVEL: 'loud', EXTRACTION_ENGINE: 'anthropic',
        HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '30000', READER_PROCESSES: '2', READER_ACCOUNT_CONCURRENCY: '2',
        STRIPE_SECRET_KEY: 'sk_test_x', ANTHROPIC_ROUTE_MODELS: 'invoices=claude-sonnet-5-5', PLANS_FILE: plans,
      });
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as Error).message;
    }
    const lines = message.split('\n');
    expect(lines[0]).toBe('Invalid configuration:');
    const named = lines.slice(1).map((l) => /^ {2}([A-Z_]+)/.exec(l)?.[1]);
    expect(named.sort()).toEqual([
      'ANTHROPIC_ROUTE_MODELS', 'DASHBOARD_JWT_SECRET', 'DATABASE_URL', 'EXTRACTION_ENGINE', 'HTTP_HEADERS_TIMEOUT_MS',
      'LOG_LEVEL', 'PLANS_FILE', 'PORT', 'READER_ACCOUNT_CONCURRENCY', 'STRIPE_PRICE_STARTER',
    ]);
  });

  it('a bad value is named once: a dashboard secret too short is not also "required"', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production', DASHBOARD_JWT_SECRET: 'short', DATABASE_URL: 'postgres://127.0.0.1/d' }))
      .toThrow(/^Invalid configuration:\n {2}DASHBOARD_JWT_SECRET: must be at least 32 characters$/);
  });

  it('a worker alone needs no dashboard secret (it serves no dashboard) and writes none, but needs PostgreSQL', () => {
    const dir = dataDir();
    const production = { DATA_DIR: dir, NODE_ENV: 'production', DATABASE_URL: 'postgres://127.0.0.1/docextract' };
    expect(() => loadConfig(production)).toThrow(/DASHBOARD_JWT_SECRET: required in production/);
    expect(loadConfig(production, { role: 'worker' }).dashboard.jwtSecret).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://127.0.0.1/docextract' }, { role: 'worker' }).dashboard.jwtSecret).toBeUndefined();
    expect(() => readFileSync(join(dir, 'dashboard-jwt-secret'))).toThrow();
    expect(() => loadConfig({ DATA_DIR: dir, NODE_ENV: 'production' }, { role: 'worker' })).toThrow(/^Invalid configuration:\n {2}DATABASE_URL: a separate worker needs PostgreSQL/);
  });

  it('refuses a PLANS_FILE that is not the plan table', () => {
    const file = join(dataDir(), 'plans.json');
    writeFileSync(file, JSON.stringify({ free: { heuPerMonth: -1, requestsPerMinute: 10 } }));
    expect(() => loadConfig({ DATA_DIR: dataDir(), PLANS_FILE: file })).toThrow(/PLANS_FILE .*free\.heuPerMonth/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), PLANS_FILE: '/nonexistent/plans.json' })).toThrow(/PLANS_FILE/);
  });

  it('starts new accounts on free whatever NODE_ENV says, on NEW_ACCOUNT_PLAN when set, and refuses an unknown NEW_ACCOUNT_PLAN', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).newAccountPlan).toBe('free');
    expect(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'development' }).newAccountPlan).toBe('free');
    expect(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'test' }).newAccountPlan).toBe('free');
    expect(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production', DASHBOARD_JWT_SECRET: 'x'.repeat(32), DATABASE_URL: 'postgres://127.0.0.1/docextract' }).newAccountPlan).toBe('free');
    expect(loadConfig({ DATA_DIR: dataDir(), NEW_ACCOUNT_PLAN: 'starter' }).newAccountPlan).toBe('starter');
    expect(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production', DASHBOARD_JWT_SECRET: 'x'.repeat(32), DATABASE_URL: 'postgres://127.0.0.1/docextract', NEW_ACCOUNT_PLAN: 'starter' }).newAccountPlan).toBe('starter');
    expect(loadConfig({ DATA_DIR: dataDir(), NEW_ACCOUNT_PLAN: 'free' }).newAccountPlan).toBe('free');
    expect(() => loadConfig({ DATA_DIR: dataDir(), NEW_ACCOUNT_PLAN: 'unlimited' })).toThrow(/NEW_ACCOUNT_PLAN/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), NEW_ACCOUNT_PLAN: 'Starter' })).toThrow(/NEW_ACCOUNT_PLAN/);
  });
});
