import type { Server } from 'node:http';
import express from 'express';
import { startupConfig } from './config/dotenv.js';
import { openDatabase } from './db/database.js';
import { SchemaReadiness } from './db/schema-readiness.js';
import { Documents } from './documents/documents.js';
import { describeEngine, selectEngine } from './extraction/engines/select-engine.js';
import { createLogger } from './http/logger.js';
import { createLimitedServer } from './http/server-limits.js';
import { JobSystem } from './jobs/job-system.js';
import { FOLD_INTERVAL_MS, Meter } from './metering/meter.js';
import { Metrics } from './metrics/metrics.js';
import { metricsRoute } from './metrics/metrics-route.js';

/**
 * `npm run worker`: a worker alone, with the same configuration as the service, against the same PostgreSQL: it
 * runs queued jobs and sends webhooks, and answers only its probes and metrics on WORKER_PORT (`/healthz`,
 * `/readyz`, `/metrics`). Run as many as the queue needs, on any machines.
 */
async function main(): Promise<void> {
  // A worker's configuration: DATABASE_URL required (PostgreSQL), no dashboard secret (it serves no dashboard).
  const config = startupConfig('worker');
  const logger = createLogger(config.logLevel);
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pool: config.pool });
  const schema = new SchemaReadiness();
  await schema.start(db.pool, logger, (err) => {
    logger.fatal({ err }, 'migrations failed');
    logger.flush();
    process.exit(1);
  });
  // This process's own figures only: the database-wide job gauges are the API's (GET /metrics/queue), or a sum over
  // the workers would count the queue once per worker.
  const metrics = new Metrics();
  const meter = new Meter(db.sql, config.plans, `${config.publicUrl}/dashboard/billing?plan=starter`, (heu) => metrics.heuSettled.inc(heu));
  // HEU given back while a bucket's row was busy (jobs of one account ending together) are folded in within a second.
  const stopFolding = meter.foldEvery(FOLD_INTERVAL_MS);
  const engine = selectEngine(config.extraction);
  for (const described of describeEngine(engine)) logger[described.level](described.fields, described.message);
  const jobs = new JobSystem({ config, db, engine, documents: new Documents(), meter, clock: { now: () => new Date() }, logger, metrics });

  // Probes and metrics only: the worker serves no API.
  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', async (_req, res) => {
    const up = await db.pool.query('SELECT 1').then(() => true, () => false);
    const ready = up && schema.isReady();
    res.status(ready ? 200 : 503).json({ ready, database: up ? 'up' : 'down' });
  });
  app.use(metricsRoute(metrics, config.metricsToken));
  app.use((_req, res) => void res.status(404).json({ error: { code: 'not_found', message: 'A worker answers /healthz, /readyz and /metrics only.', details: null } }));
  const server: Server = createLimitedServer(app, config.http);
  server.listen(config.jobs.workerPort, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.jobs.workerPort;
  void schema.whenReady().then(() => jobs.start({ worker: true })).then(
    () => logger.info({ concurrency: config.jobs.concurrency }, 'worker taking jobs'),
    (err) => {
      logger.fatal({ err }, 'the job queue could not start');
      logger.flush();
      process.exit(1);
    },
  );
  logger.info({ host: config.host, port, database: db.kind, engine: config.extraction.engine }, `docextract worker listening on ${config.host}:${port}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    schema.stop();
    logger.info({ signal, running: jobs.busy }, 'worker stopping: finishing running jobs');
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs + 2_000).unref();
    server.close();
    server.closeAllConnections();
    const stopped = await jobs.stop(config.shutdownTimeoutMs).catch((err) => {
      logger.warn({ err }, 'stopping the job queue failed');
      return null;
    });
    // What the last jobs gave back while their bucket was busy is folded in before the connections close.
    stopFolding();
    await meter.fold().catch(() => {});
    await db.close();
    // How the stop went for the jobs it held: finished in the grace time, or handed back (another worker runs them).
    if (stopped) logger.info({ signal, ...stopped, finished: stopped.running - stopped.handedBack }, `worker stopped, ${stopped.handedBack} ${stopped.handedBack === 1 ? 'job' : 'jobs'} handed back`);
    else logger.info({ signal }, 'worker stopped');
    logger.flush();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((e) => {
  process.stderr.write(`docextract worker failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
