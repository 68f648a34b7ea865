import type { Server } from 'node:http';
import type { Express } from 'express';
import { createApp } from './app.js';
import { Documents } from './documents/documents.js';
import { withBoundPort } from './config/config.js';
import { openDatabase } from './db/database.js';
import { SchemaReadiness } from './db/schema-readiness.js';
import { createLogger } from './http/logger.js';
import { createLimitedServer } from './http/server-limits.js';
import { checkAnthropicAccess } from './extraction/engines/anthropic/access-check.js';
import { checkOpenAIAccess } from './extraction/engines/openai/access-check.js';
import { FOLD_INTERVAL_MS, Meter } from './metering/meter.js';
import { describeEngine, selectEngine } from './extraction/engines/select-engine.js';
import { databaseName, startBanner } from './meta/start-banner.js';
import { startupConfig } from './config/dotenv.js';
import { JobSystem } from './jobs/job-system.js';
import { jobCountsOf, Metrics } from './metrics/metrics.js';

/** After SHUTDOWN_TIMEOUT_MS has closed every connection: time to close the database and write the last lines. */
const SHUTDOWN_GRACE_MS = 2000;

/**
 * Starts the service: configuration (`.env` read first), database (migrated), HTTP, and the job queue with a worker
 * (unless START_WORKER=false); stops cleanly on SIGTERM/SIGINT.
 */
async function main(): Promise<void> {
  let config = startupConfig();
  const logger = createLogger(config.logLevel);
  const started = Date.now();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pool: config.pool });
  const schema = new SchemaReadiness();
  await schema.start(db.pool, logger, (err) => {
    logger.fatal({ err }, 'migrations failed');
    logger.flush();
    process.exit(1);
  });
  // The app is built once the server listens: without PUBLIC_URL, the address callers are sent to (config.publicUrl,
  // in upgrade and checkout links) is the one served, and with PORT=0 its port is known only then. The app is in
  // place before the event loop turns again after 'listening', so no request can find it missing (the 503 is a guard).
  let app: Express | undefined;
  // Slow or stalled clients cannot hold a socket for long, nor send oversized heads (config.http).
  const server: Server = createLimitedServer((req, res) => {
    if (app) return app(req, res);
    res.writeHead(503, { 'retry-after': '1' }).end();
  }, config.http, logger);
  server.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  config = withBoundPort(config, typeof address === 'object' && address ? address.port : config.port);
  const metrics = new Metrics(jobCountsOf(db.sql));
  const meter = new Meter(db.sql, config.plans, `${config.publicUrl}/dashboard/billing?plan=starter`, (heu) => metrics.heuSettled.inc(heu));
  // The engine, and the settings its model gets from the capability table, named once at start.
  const engine = selectEngine(config.extraction);
  for (const described of describeEngine(engine)) logger[described.level](described.fields, described.message);
  // Claude: the key and each model checked once now, beside the start (a wrong key is named here, not at a 502).
  const claude = config.extraction.anthropic;
  const usesClaude = config.extraction.engine === 'anthropic' || (config.extraction.engine === 'cascade' && config.extraction.cascade.modelEngine === 'anthropic');
  if (usesClaude && claude.apiKey) {
    void checkAnthropicAccess({ apiKey: claude.apiKey, baseUrl: claude.baseUrl }, claude.allowedModels, logger).catch(() => {});
  }
  // An OpenAI-compatible server: its key and model checked the same way (GET /models/{model}).
  const openai = config.extraction.openai;
  const usesOpenAI = config.extraction.engine === 'openai' || (config.extraction.engine === 'cascade' && config.extraction.cascade.modelEngine === 'openai');
  if (usesOpenAI && openai.model) void checkOpenAIAccess(openai, openai.model, logger).catch(() => {});
  // The document reader's spare processes start 2 s after listening (not competing with the first requests for CPU),
  // so a file does not wait for them; a file sooner starts its own.
  const documents = new Documents({ ...config.reader, log: logger });
  setTimeout(() => documents.warm(), 2000).unref();
  const jobs = new JobSystem({ config, db, engine, documents, meter, clock: { now: () => new Date() }, logger, metrics });
  app = createApp({ config, db, logger, meter, schema, engine, documents, jobs, metrics });
  // The queue (and this process's worker) start once the schema is current: at once, or when the database is back.
  const startWorker = config.jobs.startWorker;
  void schema.whenReady().then(() => jobs.start({ worker: startWorker })).then(
    () => logger.info({ worker: startWorker }, startWorker ? 'job queue started, with a worker' : 'job queue started (START_WORKER=false: no worker here)'),
    (err) => logger.error({ err }, 'the job queue could not start'),
  );
  // Reservations whose request died with its process are given back once they expire (see docs/metering.md).
  const sweep = setInterval(() => {
    meter.releaseExpired(new Date()).catch((err) => logger.warn({ err }, 'releasing expired reservations failed'));
  }, 60_000);
  sweep.unref();
  // HEU given back while a bucket's row was busy are folded into it within a second (see Meter.fold).
  const stopFolding = meter.foldEvery(FOLD_INTERVAL_MS);
  const { host, port, publicUrl } = config;
  logger.info({ host, port, publicUrl, database: db.kind, engine: config.extraction.engine, ready: schema.isReady(), startMs: Date.now() - started }, `docextract listening on ${host.includes(':') ? `[${host}]` : host}:${port}`);
  // One line for a person, beside the JSON logs (on stderr, so log shippers reading stdout see only JSON).
  const engineLabel = { local: 'offline rules', anthropic: 'Claude', openai: 'OpenAI-compatible' } as const;
  const engineName = config.extraction.engine === 'cascade'
    ? `offline rules, then ${engineLabel[config.extraction.cascade.modelEngine]}`
    : engineLabel[engine.name];
  process.stderr.write(`${startBanner(publicUrl, `${engineName} (${engine.defaultModel})`, config.dashboard.localSignIn, databaseName(db.kind, config.dataDir))}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(sweep);
    schema.stop();
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      logger.warn('shutdown timeout: closing remaining connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    force.unref();
    // Whatever still holds the process then (a database that does not answer, a log reader gone), it ends: SIGTERM
    // always stops the service within SHUTDOWN_TIMEOUT_MS and a short grace for closing.
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs + SHUTDOWN_GRACE_MS).unref();
    // Running jobs get the same time as requests; those still running then are run again by another worker.
    const jobsStopped = jobs.stop(config.shutdownTimeoutMs).catch((err) => {
      logger.warn({ err }, 'stopping the job queue failed');
      return null;
    });
    server.close(async () => {
      const stopped = await jobsStopped;
      stopFolding();
      await meter.fold().catch(() => {});
      await documents.close();
      await db.close();
      // With its own worker, what the stop did to the jobs it held (as a worker's last line says it).
      logger.info(stopped && config.jobs.startWorker ? { signal, ...stopped, finished: stopped.running - stopped.handedBack } : { signal }, 'stopped');
      logger.flush();
      process.exit(0);
    });
    // Keep-alive connections go as soon as their last answer is written, not when their idle timer runs out.
    server.closeIdleConnections();
    setInterval(() => server.closeIdleConnections(), 100).unref();
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((e) => {
  process.stderr.write(`docextract failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
