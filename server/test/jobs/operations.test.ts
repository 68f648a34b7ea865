// Running the service for real: the embedded default takes a job with no other setup (`npm start`, a key, POST
// /v1/jobs, GET /v1/jobs/{id}); production refuses the embedded database unless told; `.env` is read at start; a
// worker alone needs PostgreSQL; GET /metrics speaks Prometheus; every variable is listed in .env.example.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CONFIG_VARIABLES, loadConfig } from '../../src/config/config.js';
import { startChildServer, startChildWorker } from '../support/child-server.js';
import { startTestServer } from '../support/harness.js';
import { createTestDatabase } from '../support/databases.js';
import { lintScrape, namingProblems, promtoolProblems } from '../support/prometheus-lint.js';

const run = promisify(execFile);
const root = new URL('../../..', import.meta.url).pathname;
const SECRET = 'operations-test-secret-0123456789-0123456789';

describe('operating the service', () => {
  it('the embedded default: start, a key, POST /v1/jobs, then GET /v1/jobs/{id} succeeds with no other setup', async () => {
    // A data folder as `npm start` leaves it after its first start (migrated: copied from the suite's template).
    const { dataDir } = await createTestDatabase('embedded');
    const server = await startChildServer({ DATA_DIR: dataDir });
    try {
      // The README's way to a key: `npm run -s key` (scripts/key.ts) against the running service.
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/key.ts', '--url', server.baseUrl], { cwd: root, env: { PATH: process.env.PATH, DATA_DIR: dataDir, ENV_FILE: '' } });
      const key = stdout.trim();
      const res = await fetch(`${server.baseUrl}/v1/jobs`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ route: 'invoice', document: { text: 'ACME LLC\nInvoice No: INV-7\nTotal due: $4,500.00' } }) });
      expect(res.status).toBe(202);
      const location = res.headers.get('location')!;
      let job: Record<string, any> = {};
      for (let i = 0; i < 200 && job.status !== 'succeeded'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        job = await (await fetch(`${server.baseUrl}${location}`, { headers: { 'x-api-key': key } })).json();
      }
      expect(job).toMatchObject({ status: 'succeeded', route: 'invoice', result: { data: { invoiceNumber: 'INV-7', total: 4500 }, model: 'local-rules-1' } });
    } finally {
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
    }
  }, 120_000);

  it('refuses NODE_ENV=production on the embedded database unless ALLOW_EMBEDDED_DATABASE=true', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ops-prod-'));
    const base = { DATA_DIR: dataDir, NODE_ENV: 'production', DASHBOARD_JWT_SECRET: SECRET };
    expect(() => loadConfig(base)).toThrow(/DATABASE_URL: required in production .*ALLOW_EMBEDDED_DATABASE=true/s);
    expect(loadConfig({ ...base, ALLOW_EMBEDDED_DATABASE: 'true' }).nodeEnv).toBe('production');
    expect(loadConfig({ ...base, DATABASE_URL: 'postgresql://db/docextract' }).databaseUrl).toBe('postgresql://db/docextract');
    const refused = await startChildServer(base).then(() => null, (e: Error) => e.message);
    expect(refused).toMatch(/^exited 2:\n.*DATABASE_URL: required in production/s);
  });

  it('reads .env at start (ENV_FILE names it here); a variable already in the environment wins', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ops-env-'));
    const file = join(dir, '.env');
    writeFileSync(file, 'PUBLIC_URL=https://docextract.example.com\nLOG_LEVEL=silent\n');
    const server = await startChildServer({ DATA_DIR: (await createTestDatabase('embedded')).dataDir, ENV_FILE: file, LOG_LEVEL: 'info' });
    try {
      expect(server.output()).toContain('"publicUrl":"https://docextract.example.com"');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    const missing = await startChildServer({ DATA_DIR: join(dir, 'data2'), ENV_FILE: join(dir, 'nope.env') }).then(() => null, (e: Error) => e.message);
    expect(missing).toMatch(/ENV_FILE: .*nope\.env does not exist/);
  }, 120_000);

  it('runs a worker alone only on PostgreSQL (the embedded database serves one process)', async () => {
    const refused = await startChildWorker({ DATA_DIR: mkdtempSync(join(tmpdir(), 'ops-worker-')) }).then(() => null, (e: Error) => e.message);
    expect(refused).toMatch(/^exited 2:\n.*DATABASE_URL: a separate worker needs PostgreSQL/s);
  });

  it('says every wrong setting at once on stderr and exits 2 (was: one per start)', async () => {
    const refused = await startChildServer({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ops-config-')), NODE_ENV: 'production', PORT: 'eighty', JOB_CONCURRENCY: '0', EXTRACTION_ENGINE: 'anthropic',
    }).then(() => null, (e: Error) => e.message);
    expect(refused).toMatch(/^exited 2:\nInvalid configuration:\n/);
    for (const name of ['PORT', 'JOB_CONCURRENCY', 'DASHBOARD_JWT_SECRET', 'DATABASE_URL', 'EXTRACTION_ENGINE']) expect(refused).toMatch(new RegExp(`\\n {2}${name}: `));
  });

  it('a worker starts in production with no dashboard secret (it serves no dashboard); its /metrics is its own figures only', async () => {
    const db = await createTestDatabase('postgres');
    const worker = await startChildWorker({ NODE_ENV: 'production', DATABASE_URL: db.databaseUrl!, DATA_DIR: mkdtempSync(join(tmpdir(), 'ops-worker-prod-')) });
    try {
      let ready = await fetch(`${worker.baseUrl}/readyz`);
      for (let i = 0; i < 100 && ready.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 100));
        ready = await fetch(`${worker.baseUrl}/readyz`);
      }
      expect(await ready.json()).toEqual({ ready: true, database: 'up' });
      const scrape = await (await fetch(`${worker.baseUrl}/metrics`)).text();
      expect(scrape).toContain('docextract_jobs_finished_total');
      expect(scrape).not.toMatch(/^docextract_jobs\b|^docextract_job_queue_depth\b/m);
      expect(lintScrape(scrape)).toEqual([]);
      expect((await fetch(`${worker.baseUrl}/metrics/queue`)).status).toBe(404);
    } finally {
      worker.child.kill('SIGTERM');
      expect((await worker.exited).code).toBe(0);
      await db.drop();
    }
  }, 60_000);

  it('lists every variable it reads in .env.example', () => {
    const example = readFileSync(join(root, '.env.example'), 'utf8');
    const missing = CONFIG_VARIABLES.filter((name) => !new RegExp(`^${name}=`, 'm').test(example));
    expect(missing).toEqual([]);
  });

  it('answers GET /metrics in Prometheus\' format: latency by route, jobs by status, queue depth, HEU charged; with METRICS_TOKEN only to its bearer', async () => {
    const s = await startTestServer('embedded', { METRICS_TOKEN: 'metrics-token-0123456789' }, undefined, { worker: true });
    try {
      await s.db.prisma.account.create({ data: { id: 'acct_metrics', plan: 'starter' } });
      const { key } = await s.createKey('acct_metrics');
      const accepted = await (await s.fetch('/v1/jobs', { method: 'POST', headers: { 'x-api-key': key }, json: { route: 'receipt', document: { text: 'CORNER SHOP\nTOTAL 3.00\nCASH' } } })).json();
      for (let i = 0; i < 100; i++) {
        const job = await (await s.fetch(`/v1/jobs/${accepted.id}`, { headers: { 'x-api-key': key } })).json();
        if (job.status === 'succeeded') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await s.fetch('/metrics')).status).toBe(401);
      const res = await s.fetch('/metrics', { headers: { authorization: 'Bearer metrics-token-0123456789' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const text = await res.text();
      expect(text).toMatch(/docextract_http_request_duration_seconds_bucket\{le="[\d.]+",method="POST",route="\/v1\/jobs",status="202"\} \d+/);
      expect(text).toMatch(/docextract_jobs_finished_total\{status="succeeded",route="receipt"\} 1/);
      expect(text).toMatch(/docextract_heu_settled_total [1-9]/);
      expect(text).toMatch(/docextract_reader_kills_total 0/);
      expect(text).toContain('docextract_process_cpu_seconds_total');
      expect(text).toMatch(/^docextract_nodejs_active_handles\{type="\w+"\} \d+$/m);
      // The database-wide job gauges are not per process (a sum over processes would count the queue once per
      // process): they are on /metrics/queue, behind the same token.
      expect(text).not.toMatch(/^docextract_jobs\b|^docextract_job_queue_depth\b/m);
      expect((await s.fetch('/metrics/queue')).status).toBe(401);
      const queue = await s.fetch('/metrics/queue', { headers: { authorization: 'Bearer metrics-token-0123456789' } });
      expect(queue.status).toBe(200);
      const queueText = await queue.text();
      expect(queueText).toMatch(/^docextract_jobs\{status="queued"\} 0$/m);
      expect(queueText).toMatch(/^docextract_jobs\{status="running"\} 0$/m);
      expect(queueText).toMatch(/^docextract_job_queue_depth 0$/m);
      expect(queueText).not.toContain('docextract_process_');
      // Prometheus' naming rules hold for both (promtool check metrics when installed: was
      // "docextract_nodejs_active_handles_total non-counter metrics should not have "_total" suffix").
      expect(lintScrape(text)).toEqual([]);
      expect(lintScrape(queueText)).toEqual([]);
    } finally {
      await s.close();
    }
  }, 60_000);

  it('the naming checks catch what they are for (a gauge named _total, a counter without it)', () => {
    const bad = '# HELP docextract_x_total x\n# TYPE docextract_x_total gauge\ndocextract_x_total 1\n# HELP docextract_y y\n# TYPE docextract_y counter\ndocextract_y 1\n';
    expect(namingProblems(bad)).toEqual(['docextract_x_total: a gauge is named _total (only counters are)', 'docextract_y: a counter\'s name ends in _total']);
    const promtool = promtoolProblems(bad);
    if (promtool === null) process.stderr.write('promtool is not installed: its own check of a bad scrape is skipped\n');
    else expect(promtool.join('\n')).toMatch(/docextract_x_total non-counter metrics should not have "_total" suffix/);
  });
});
