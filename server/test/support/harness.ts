// Starts the real app on 127.0.0.1 with a fresh database, and offers the calls tests make again and again.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import { createApp } from '../../src/app.js';
import { Documents } from '../../src/documents/documents.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { SignJWT } from 'jose';
import { mintDashboardToken } from '../../src/auth/dashboard-tokens.js';
import { createLogger } from '../../src/http/logger.js';
import { createLimitedServer } from '../../src/http/server-limits.js';
import type { Clock } from '../../src/time/clock.js';
import { createTestDatabase, type DbMode } from './databases.js';
import { JobSystem } from '../../src/jobs/job-system.js';
import { Meter } from '../../src/metering/meter.js';
import { jobCountsOf, Metrics } from '../../src/metrics/metrics.js';
import type { ExtractionEngine } from '../../src/extraction/engines/engine.js';
import { selectEngine } from '../../src/extraction/engines/select-engine.js';

export const TEST_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

/** A clock tests can move. */
export class TestClock implements Clock {
  constructor(private at = new Date()) {}
  now(): Date {
    return new Date(this.at);
  }
  set(at: Date | string): void {
    this.at = new Date(at);
  }
  advance(ms: number): void {
    this.at = new Date(this.at.getTime() + ms);
  }
}

/** The real time, for tests that read back when things happened (a job's start and end, a delivery's attempts). */
export class RealClock extends TestClock {
  override now(): Date {
    return new Date();
  }
}

export interface TestServerOptions {
  /** Run a job worker in the server (else jobs stay queued: `jobs.start({ worker: true })` starts one later). */
  worker?: boolean;
  /** The extraction engine (default: the configured one). */
  engine?: ExtractionEngine;
}

export interface TestServer {
  baseUrl: string;
  /** The server's jobs and webhooks (its queue starts on first use, or with `worker`). */
  jobs: JobSystem;
  config: Config;
  db: Database;
  clock: TestClock;
  /** Every log line the service wrote, as text. */
  logs: string[];
  /** The service's document reader (its processes and queues: readerState()). */
  documents: Documents;
  /** A dashboard token for the account; `expired` makes one that ran out an hour ago (as a browser may still hold). */
  token(accountId: string, opts?: { ttlSeconds?: number; expired?: boolean }): Promise<string>;
  /** Creates a key for the account through the API and answers the raw key. */
  createKey(accountId: string, name?: string): Promise<{ key: string; id: string }>;
  fetch(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestServer(mode: DbMode = 'embedded', env: Record<string, string> = {}, clock = new TestClock(), options: TestServerOptions = {}): Promise<TestServer> {
  const database = await createTestDatabase(mode);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: database.dataDir,
    DATABASE_URL: database.databaseUrl ?? '',
    DASHBOARD_JWT_SECRET: TEST_SECRET,
    PUBLIC_URL: 'http://127.0.0.1:8080',
    LOG_LEVEL: 'info',
    // Tests run production settings on the embedded database too (the refusal itself is tested in config.test.ts).
    ALLOW_EMBEDDED_DATABASE: 'true',
    ...env,
  });
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pool: config.pool });
  const logs: string[] = [];
  const stream = new Writable({ write(chunk, _enc, cb) { logs.push(String(chunk)); cb(); } });
  // The document reader's processes end with the server (READER_* variables size it, as in the service).
  const logger = createLogger('info', stream);
  const documents = new Documents({ ...config.reader, log: logger });
  const metrics = new Metrics(jobCountsOf(db.sql));
  const meter = new Meter(db.sql, config.plans, `${config.publicUrl}/dashboard/billing?plan=starter`, (heu) => metrics.heuSettled.inc(heu));
  const engine = options.engine ?? selectEngine(config.extraction);
  const jobs = new JobSystem({ config, db, engine, documents, meter, clock, logger, metrics });
  const app = createApp({ config, db, logger, clock, documents, engine, meter, metrics, jobs });
  if (options.worker) await jobs.start({ worker: true });
  // The same limits as the service (main.ts): tests set short ones through HTTP_* variables.
  const server: Server = createLimitedServer(app, config.http, logger);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const t: TestServer = {
    baseUrl,
    jobs,
    config,
    db,
    clock,
    logs,
    documents,
    token: (accountId, opts) => (opts?.expired
      ? new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(accountId).setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
        .setExpirationTime(Math.floor(Date.now() / 1000) - 3600).sign(new TextEncoder().encode(TEST_SECRET))
      : mintDashboardToken(TEST_SECRET, accountId, opts)),
    async createKey(accountId, name = 'test key') {
      const res = await t.fetch('/v1/keys', { method: 'POST', headers: { authorization: `Bearer ${await t.token(accountId)}` }, json: { name } });
      if (res.status !== 201) throw new Error(`key creation answered ${res.status}: ${await res.text()}`);
      const body = (await res.json()) as { key: string; id: string };
      return { key: body.key, id: body.id };
    },
    fetch(path, init = {}) {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
      return fetch(baseUrl + path, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await jobs.stop(1_000);
      await documents.close();
      await db.close();
      await database.drop();
    },
  };
  return t;
}

