// A worker that cannot get a database connection (PostgreSQL's max_connections reached: "too many clients", SQLSTATE
// 53300; a pool that gave none in time) does not fail the job back to the queue, where it would count as one of the
// job's attempts and, after JOB_MAX_ATTEMPTS, dead-letter it as if its workers had died: it runs the job again
// itself once the database answers, and completes it once. Any other failure still goes back to the queue.
import pino from 'pino';
import type { ClaimedJob, JobQueue } from '../../src/jobs/job-queue.js';
import { QueueWorker } from '../../src/jobs/queue-worker.js';

/** pg's error for a connection the server refused with "too many clients" (as node-postgres reports it). */
const tooManyClients = () => Object.assign(new Error('sorry, too many clients already'), { code: '53300', severity: 'FATAL' });

function fakeQueue(jobs: Array<ClaimedJob<{ n: number }>>) {
  const calls = { complete: [] as string[], fail: [] as string[] };
  const queue = {
    fetch: async (_name: string, batch: number) => jobs.splice(0, batch),
    complete: async (_name: string, job: ClaimedJob<unknown>) => { calls.complete.push(job.id); },
    fail: async (_name: string, job: ClaimedJob<unknown>) => { calls.fail.push(job.id); },
    touch: async () => {},
  } as unknown as JobQueue;
  return { queue, calls };
}

async function runUntil(worker: QueueWorker<{ n: number }>, done: () => boolean): Promise<void> {
  worker.start();
  while (!done()) await new Promise((r) => setTimeout(r, 10));
  await worker.stop(1_000);
}

describe('a worker without a database connection', () => {
  it('runs the job again once the database answers, never failing it to the queue (no attempt counted)', async () => {
    const { queue, calls } = fakeQueue([{ id: 'job-1', data: { n: 1 }, retryCount: 0 }]);
    let tries = 0;
    const worker = new QueueWorker<{ n: number }>({
      queue, name: 'extraction-jobs', concurrency: 2, pollIntervalMs: 20, heartbeatSeconds: 60, logger: pino({ level: 'silent' }),
      handle: async () => {
        if (++tries <= 2) throw tooManyClients();
      },
    });
    await runUntil(worker, () => calls.complete.length + calls.fail.length > 0);
    expect(tries).toBe(3);
    expect(calls.fail).toEqual([]);
    expect(calls.complete).toEqual(['job-1']);
  });

  it('still fails a job back to the queue for any other failure', async () => {
    const { queue, calls } = fakeQueue([{ id: 'job-2', data: { n: 2 }, retryCount: 0 }]);
    const worker = new QueueWorker<{ n: number }>({
      queue, name: 'extraction-jobs', concurrency: 1, pollIntervalMs: 20, heartbeatSeconds: 60, logger: pino({ level: 'silent' }),
      handle: async () => { throw new Error('the engine broke'); },
    });
    await runUntil(worker, () => calls.fail.length > 0);
    expect(calls.fail).toEqual(['job-2']);
    expect(calls.complete).toEqual([]);
  });
});
