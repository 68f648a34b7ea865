import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { Documents } from '../documents/documents.js';
import type { ExtractionEngine } from '../extraction/engines/engine.js';
import type { Meter } from '../metering/meter.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Clock } from '../time/clock.js';
import { DeliveryRunner } from '../webhooks/delivery-runner.js';
import { endpointRepository } from '../webhooks/endpoint-repository.js';
import { JobQueue, QUEUES } from './job-queue.js';
import { jobRepository } from './job-repository.js';
import { JobCancelled, JobKeyRevoked, JobRunner } from './job-runner.js';
import { JobService } from './job-service.js';
import { QueueWorker } from './queue-worker.js';
import { ReviewService } from '../reviews/review-service.js';

export interface JobSystemDeps {
  config: Config;
  db: Database;
  engine: ExtractionEngine;
  documents: Documents;
  meter: Meter;
  clock: Clock;
  logger: Logger;
  metrics?: Metrics;
}

/** What stopping a process's workers did: extraction jobs running then, and those handed back to run elsewhere. */
export interface WorkersStopped {
  running: number;
  handedBack: number;
}

/** How long a purged job is remembered, so that a read can still say it was deleted (then it is a plain 404). */
const TOMBSTONE_MS = 30 * 24 * 3_600_000;
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Jobs and webhooks as one part of a process: the queue (every process that accepts jobs), and, in a process that
 * runs a worker, the workers of extraction jobs, of dead-lettered jobs and of webhook deliveries, and the sweeper
 * that deletes what is past its retention.
 */
export class JobSystem {
  readonly queue: JobQueue;
  readonly service: JobService;
  readonly runner: JobRunner;
  readonly deliveries: DeliveryRunner;
  /** Reviews (`review: true`): made by jobs and the extraction routes, purged by this system's sweep. */
  readonly reviews: ReviewService;
  private readonly workers: Array<QueueWorker<object>> = [];
  private jobWorker: QueueWorker<{ jobId: string }> | undefined;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly deps: JobSystemDeps) {
    const { config, db, engine, documents, meter, clock, logger, metrics } = deps;
    this.queue = new JobQueue({ pool: db.pool, databaseUrl: config.databaseUrl, heartbeatSeconds: config.jobs.heartbeatSeconds, maxAttempts: config.jobs.maxAttempts, logger });
    const retentionMs = config.jobs.retentionMs;
    this.reviews = new ReviewService({ db, queue: this.queue, clock, retentionMs: config.jobs.reviewRetentionMs });
    this.service = new JobService({ db, engine, meter, queue: this.queue, clock, retentionMs, onQueued: () => this.jobWorker?.wake() });
    this.runner = new JobRunner({
      db, documents, engine, meter, queue: this.queue, clock, retentionMs, logger, reviews: this.reviews,
      onFinished: ({ status, route }) => metrics?.jobsFinished.inc({ status, route }),
    });
    this.deliveries = new DeliveryRunner({
      db, queue: this.queue, clock, logger, retryScheduleSeconds: config.webhooks.retryScheduleSeconds, timeoutMs: config.webhooks.timeoutMs,
      allowPrivateUrls: config.webhooks.allowPrivateUrls,
      onAttempt: (o) => metrics?.webhookAttempts.inc({ outcome: o.error === null ? 'succeeded' : 'failed' }),
    });
  }

  /** Starts the queue, and with `worker` the workers and the sweeper. */
  async start({ worker }: { worker: boolean }): Promise<void> {
    await this.queue.start();
    if (!worker || this.jobWorker) return;
    const { config, db, logger } = this.deps;
    const common = { queue: this.queue, heartbeatSeconds: config.jobs.heartbeatSeconds, logger };
    this.jobWorker = new QueueWorker<{ jobId: string }>({
      ...common, name: QUEUES.jobs, concurrency: config.jobs.concurrency, pollIntervalMs: config.jobs.pollIntervalMs,
      handle: (job, signal, release) => this.runner.run(job.data.jobId, signal, job, release),
      // Cancelled jobs and revoked keys stop their runs: one statement for every job running here.
      watch: async (running) => {
        const stop = new Map((await jobRepository.toStop(db.sql, running.map((j) => j.data.jobId))).map((s) => [s.id, s.cancelled]));
        return running.filter((j) => stop.has(j.data.jobId)).map((j) => ({
          id: j.id, reason: stop.get(j.data.jobId) ? new JobCancelled('the job was cancelled') : new JobKeyRevoked('the API key was revoked'),
        }));
      },
    });
    this.workers.push(this.jobWorker as QueueWorker<object>);
    this.workers.push(new QueueWorker<{ jobId: string }>({
      ...common, name: QUEUES.deadJobs, concurrency: 1, pollIntervalMs: 5_000,
      handle: (job) => this.runner.abandon(job.data.jobId),
    }) as QueueWorker<object>);
    this.workers.push(new QueueWorker<{ deliveryId: string }>({
      ...common, name: QUEUES.deliveries, concurrency: config.jobs.concurrency, pollIntervalMs: config.jobs.pollIntervalMs,
      handle: (job) => this.deliveries.run(job.data.deliveryId, job),
    }) as QueueWorker<object>);
    for (const w of this.workers) w.start();
    this.sweeper = setInterval(() => void this.sweep(this.deps.clock.now()).catch((err) => logger.warn({ err }, 'job retention sweep failed')), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  /**
   * Deletes what is past its retention: job results (the job stays a while as a tombstone, so a read says when and
   * why it went), webhook deliveries as old as that, reviews past `REVIEW_RETENTION_DAYS`, and idempotency records
   * past their 24 hours.
   */
  async sweep(now: Date): Promise<void> {
    const { db, config } = this.deps;
    while (await jobRepository.purgeExpired(db.sql, now) === 1000);
    await jobRepository.deleteTombstones(db.sql, new Date(now.getTime() - TOMBSTONE_MS));
    await endpointRepository.purgeDeliveries(db.sql, new Date(now.getTime() - config.jobs.retentionMs));
    await this.reviews.purgeExpired(now);
    await db.sql.execute('job_requests_expire', 'DELETE FROM job_requests WHERE expires_at < $1::timestamp(3)', [now.toISOString().replace('Z', '')]);
  }

  /** Jobs running in this process. */
  get busy(): number {
    return this.jobWorker?.busy ?? 0;
  }

  /**
   * Stops this process's workers: running jobs get up to `graceMs`, the rest run again elsewhere. The queue stays.
   * Answers the extraction jobs running when asked, and those of them handed back to the queue unfinished.
   */
  async stopWorkers(graceMs: number): Promise<WorkersStopped> {
    clearInterval(this.sweeper);
    const jobWorker = this.jobWorker;
    const workers = this.workers.splice(0);
    this.jobWorker = undefined;
    const stopped = await Promise.all(workers.map(async (w) => ({ jobs: w === jobWorker, ...(await w.stop(graceMs)) })));
    const jobs = stopped.find((s) => s.jobs);
    return { running: jobs?.running ?? 0, handedBack: jobs?.handedBack ?? 0 };
  }

  /** Stops the workers (see stopWorkers), then the queue. */
  async stop(graceMs: number): Promise<WorkersStopped> {
    const stopped = await this.stopWorkers(graceMs);
    await this.queue.stop();
    return stopped;
  }
}
