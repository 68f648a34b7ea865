import type { RequestHandler } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ContractRoute } from '../contract/routes.js';
import type { Sql } from '../db/sql.js';
import { jobRepository } from '../jobs/job-repository.js';

/** Where the job gauges come from (the database, at each scrape). */
export interface JobCounts {
  byStatus(): Promise<{ queued: number; running: number }>;
  /** The autoscaler's figure (UNFINISHED_JOBS_SQL). */
  autoscaled(): Promise<number>;
}

/** The job gauges of a database. */
export const jobCountsOf = (sql: Sql): JobCounts => ({
  byStatus: () => jobRepository.countUnfinished(sql),
  autoscaled: () => jobRepository.countForAutoscaler(sql),
});

/**
 * prom-client's default metrics that break Prometheus' naming rules (`promtool check metrics`: a gauge named `_total`):
 * each is the sum of the gauge of the same name without `_total` (by type), so `sum(docextract_nodejs_active_handles)`
 * says the same.
 */
const MISNAMED_DEFAULTS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/**
 * The service's Prometheus metrics (prom-client: https://github.com/siimon/prom-client), in registries of their own per
 * app (tests run several in one process).
 * - `registry` (GET /metrics, every process): what this process did and holds; summing it over processes is right.
 * - `queueRegistry` (GET /metrics/queue, the API only): the job gauges, read from the database at each scrape
 *   (prom-client calls a gauge's `collect`, which may be async, before it answers). They describe the whole queue,
 *   the same figure from any process: kept out of the per-process registry so that `sum()` over a fleet of API pods
 *   and workers does not count the queue once per process; scrape it from one target.
 */
export class Metrics {
  readonly registry = new Registry();
  /** The database-wide job gauges, when this process reports them (the API); null in a worker. */
  readonly queueRegistry: Registry | null;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly jobsFinished: Counter<'status' | 'route'>;
  readonly heuSettled: Counter;
  readonly readerKills: Counter;
  readonly webhookAttempts: Counter<'outcome'>;

  constructor(jobs?: JobCounts) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'docextract_' });
    for (const name of MISNAMED_DEFAULTS) this.registry.removeSingleMetric(`docextract_${name}`);
    this.httpDuration = new Histogram({
      name: 'docextract_http_request_duration_seconds', help: 'Time to answer an HTTP request, by the contract route it matched.',
      labelNames: ['method', 'route', 'status'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60], registers,
    });
    this.jobsFinished = new Counter({ name: 'docextract_jobs_finished_total', help: 'Jobs that ended in this process, by status and route.', labelNames: ['status', 'route'], registers });
    this.heuSettled = new Counter({ name: 'docextract_heu_settled_total', help: 'HEU charged (reservations settled) in this process.', registers });
    this.readerKills = new Counter({ name: 'docextract_reader_kills_total', help: 'File reads stopped because they ran over their time budget.', registers });
    this.webhookAttempts = new Counter({ name: 'docextract_webhook_attempts_total', help: 'Webhook delivery attempts made in this process, by outcome.', labelNames: ['outcome'], registers });
    this.queueRegistry = jobs ? new Registry() : null;
    if (jobs) {
      const queueRegisters = [this.queueRegistry!];
      new Gauge({
        name: 'docextract_jobs', help: 'Jobs not finished yet, by status (queued: waiting for a worker), in the whole database.', labelNames: ['status'], registers: queueRegisters,
        async collect() {
          const { queued, running } = await jobs.byStatus();
          this.set({ status: 'queued' }, queued);
          this.set({ status: 'running' }, running);
        },
      });
      new Gauge({
        name: 'docextract_job_queue_depth', help: 'Jobs waiting for a worker or being run, in the whole database: the figure the workers\' autoscaler (KEDA) scales on.', registers: queueRegisters,
        async collect() {
          this.set(await jobs.autoscaled());
        },
      });
    }
  }

  /** Times every request, labelled by the contract's route template (never the raw path: ids would explode labels). */
  httpTimer(): RequestHandler {
    return (req, res, next) => {
      const end = this.httpDuration.startTimer({ method: req.method });
      res.on('finish', () => {
        const route = (res.locals.route as ContractRoute | undefined)?.template ?? (req.path.startsWith('/dashboard') ? '/dashboard' : 'other');
        end({ route, status: String(res.statusCode) });
      });
      next();
    };
  }
}
