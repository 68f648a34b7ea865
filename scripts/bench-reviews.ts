// The review queue on PostgreSQL: 1,000 open reviews (and 1,000 resolved, and another account's 1,000) in a fresh
// database, then GET /v1/reviews?status=open (a page of 100, the default) timed from a client on 127.0.0.1, and every
// page of the queue walked with its cursor. Target: p95 under 100 ms.
//
//   npx tsx scripts/bench-reviews.ts
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { createApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config/config.js';
import { openDatabase } from '../server/src/db/database.js';
import { applyMigrations } from '../server/src/db/migrate.js';
import { newId } from '../server/src/ids/ids.js';
import { JobSystem } from '../server/src/jobs/job-system.js';
import { Documents } from '../server/src/documents/documents.js';
import { Meter } from '../server/src/metering/meter.js';
import { reviewRepository } from '../server/src/reviews/review-repository.js';
import { systemClock } from '../server/src/time/clock.js';
import { postgresBinDir, startCluster, stopCluster } from '../server/test/support/postgres-cluster.js';
import { mintDashboardToken } from '../server/src/auth/dashboard-tokens.js';

if (!postgresBinDir()) {
  console.error('bench-reviews needs PostgreSQL (apt-get install postgresql)');
  process.exit(2);
}
const SECRET = 'bench-secret-that-is-long-enough-for-hs256-0123456789';
const cluster = await startCluster();
const dataDir = mkdtempSync(join(tmpdir(), 'bench-reviews-'));
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;
try {
  const admin = new pg.Client({ connectionString: cluster.url('postgres') });
  await admin.connect();
  await admin.query('CREATE DATABASE bench_reviews');
  await admin.end();
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: cluster.url('bench_reviews'), DASHBOARD_JWT_SECRET: SECRET, VALIDATE_RESPONSES: 'false', LOG_LEVEL: 'warn' });
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir, pool: config.pool });
  await applyMigrations(db.pool);
  const logger = pino({ level: 'warn' });
  const documents = new Documents({ ...config.reader, log: logger });
  const meter = new Meter(db.sql, config.plans, 'http://127.0.0.1/dashboard/billing');
  const jobs = new JobSystem({ config, db, engine: undefined as never, documents, meter, clock: systemClock, logger });
  const app = createApp({ config, db, logger, documents, meter, jobs, engine: undefined as never });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // A review as an invoice makes it: its answer (data, evidence, withheld) and a 2,000-character document.
  const text = 'INVOICE\nInvoice No: INV-1\n'.padEnd(2000, 'Line item 1 x 10.00\n');
  const answer = JSON.stringify({ data: { invoiceNumber: 'INV-1', total: 10 }, evidence: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`/f${i}`, { quote: 'INV-1', start: 20, end: 25, confidence: 0.7, derived: false }])), withheld: [], low: ['/f1'], found: [] });
  for (const account of ['acct_bench', 'acct_bench_other']) await db.prisma.account.create({ data: { id: account, plan: 'starter' } });
  const seed = async (account: string, n: number, resolved: boolean) => {
    for (let i = 0; i < n; i++) {
      const id = newId();
      const now = new Date();
      await reviewRepository.insert(db.sql, { id, accountId: account, route: i % 2 ? 'invoice' : 'receipt', engine: 'local', model: 'local-rules-1', jobId: null, minConfidence: 0.5, reviewBelow: 0.8, withheldCount: 1, lowCount: 2, answer, schema: null, documentText: text, mediaType: 'text/plain', filename: null, pages: '[]', file: null, createdAt: now, expiresAt: new Date(now.getTime() + 30 * 86_400_000) });
      if (resolved) await reviewRepository.resolve(db.sql, account, id, '{}', now, []);
    }
  };
  await seed('acct_bench', 1000, true);
  await seed('acct_bench', 1000, false);
  await seed('acct_bench_other', 1000, false);
  await db.pool.query('ANALYZE reviews');
  const headers = { authorization: `Bearer ${await mintDashboardToken(SECRET, 'acct_bench')}` };
  const timed = async (path: string) => {
    const t = performance.now();
    const res = await fetch(base + path, { headers });
    const body = await res.json() as { reviews: unknown[]; nextCursor: string | null };
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return { ms: performance.now() - t, body };
  };
  for (let i = 0; i < 20; i++) await timed('/v1/reviews?status=open');
  const first: number[] = [];
  for (let i = 0; i < 300; i++) first.push((await timed('/v1/reviews?status=open')).ms);
  const pages: number[] = [];
  let seen = 0;
  for (let round = 0; round < 10; round++) {
    let cursor: string | null = null;
    do {
      const { ms, body } = await timed(`/v1/reviews?status=open${cursor ? `&cursor=${cursor}` : ''}`);
      pages.push(ms);
      seen += round === 0 ? body.reviews.length : 0;
      cursor = body.nextCursor;
    } while (cursor);
  }
  const filtered: number[] = [];
  for (let i = 0; i < 100; i++) filtered.push((await timed('/v1/reviews?status=open&route=invoice&limit=50')).ms);
  console.log('| case | p50 ms | p95 ms | target |\n|---|---|---|---|');
  console.log(`| first page of 100 open reviews (1,000 open, 1,000 resolved, another account's 1,000), 300 calls | ${pct(first, 50).toFixed(1)} | ${pct(first, 95).toFixed(1)} | p95 < 100 |`);
  console.log(`| every page of the open queue by cursor (${seen} reviews, 10 walks) | ${pct(pages, 50).toFixed(1)} | ${pct(pages, 95).toFixed(1)} | p95 < 100 |`);
  console.log(`| open invoices, pages of 50, 100 calls | ${pct(filtered, 50).toFixed(1)} | ${pct(filtered, 95).toFixed(1)} | p95 < 100 |`);
  server.close();
  await jobs.stop(1000);
  await documents.close();
  await db.close();
} finally {
  stopCluster(cluster.dir);
  rmSync(dataDir, { recursive: true, force: true });
}
