import type { Logger } from 'pino';
import type { JobRow } from './job-repository.js';

/**
 * A job's life in the logs, one line at each step, each naming the job, its account and route: accepted (the API,
 * with the HEU reserved for it), started (a worker, with its attempt and how long it waited), and ended (succeeded
 * with the HEU charged, failed with its error code, or cancelled, with how long the run took). Never the document,
 * the request or the result: those stay in the database.
 */
export const jobLog = {
  accepted(log: Logger, rows: JobRow[]): void {
    for (const row of rows) log.info({ jobId: row.id, accountId: row.accountId, route: row.route, reservedHeu: row.reservedHeu }, 'job accepted');
  },

  started(log: Logger, row: JobRow, now: Date): void {
    log.info({ jobId: row.id, accountId: row.accountId, route: row.route, attempt: row.attempts, waitedMs: Math.max(0, now.getTime() - row.createdAt.getTime()) }, 'job started');
  },

  ended(log: Logger, row: Pick<JobRow, 'id' | 'accountId' | 'route' | 'attempts'>, end: { status: 'succeeded' | 'failed' | 'cancelled'; heu: number; ms?: number; error?: string }): void {
    const fields = { jobId: row.id, accountId: row.accountId, route: row.route, attempt: row.attempts, status: end.status, heu: end.heu, ...(end.ms === undefined ? {} : { ms: Math.round(end.ms) }), ...(end.error ? { error: { code: end.error } } : {}) };
    log.info(fields, `job ${end.status}`);
  },
};
