// The offline engine's turns: a job flood does not stand before another tenant's synchronous request. Synchronous
// requests' tasks go before jobs' (a job still goes after a few of them in a row), and accounts take turns within each;
// checked on the queue itself and on a real one-thread pool, by the order tasks finish in (no timing).
import { asEngineCaller } from '../../src/extraction/engines/local-pool/engine-turns.js';
import { FairTaskQueue, SYNC_BEFORE_JOB, type QueuedTask } from '../../src/extraction/engines/local-pool/fair-task-queue.js';
import { createLocalRunner } from '../../src/extraction/engines/local-pool/local-pool.js';

const task = (lane: 'sync' | 'job', accountId: string, name: string): QueuedTask & { name: string } => ({ name, caller: { lane, accountId } });

describe('FairTaskQueue', () => {
  it('serves synchronous tasks first, accounts in turns, and a job after a few synchronous tasks in a row', () => {
    const q = new FairTaskQueue<ReturnType<typeof task>>();
    for (let i = 0; i < 5; i++) q.push(task('job', 'flood', `flood-${i}`));
    q.push(task('job', 'quiet', 'quiet-job'));
    q.push(task('sync', 'other', 'other-sync'));
    for (let i = 0; i < 6; i++) q.push(task('sync', 'busy', `busy-sync-${i}`));
    q.push(task('sync', 'other', 'other-sync-2'));
    expect(q.size).toBe(14);
    const order: string[] = [];
    for (let t = q.shift(); t; t = q.shift()) order.push(t.name);
    expect(SYNC_BEFORE_JOB).toBe(4);
    expect(order).toEqual([
      // Synchronous first, the two accounts in turns; after four in a row, the first job's account goes once.
      'other-sync', 'busy-sync-0', 'other-sync-2', 'busy-sync-1', 'flood-0',
      'busy-sync-2', 'busy-sync-3', 'busy-sync-4', 'busy-sync-5',
      // Then jobs, the quiet account's one before the flood's remaining four.
      'quiet-job', 'flood-1', 'flood-2', 'flood-3', 'flood-4',
    ]);
    expect(q.size).toBe(0);
  });

  it('removes a task (its caller went away) from wherever it waits', () => {
    const q = new FairTaskQueue<ReturnType<typeof task>>();
    const a = task('job', 'x', 'a');
    const b = task('sync', 'y', 'b');
    q.push(a);
    q.push(b);
    q.remove(a);
    expect(q.size).toBe(1);
    expect(q.shift()?.name).toBe('b');
    expect(q.shift()).toBeNull();
  });
});

describe('the offline engine pool with one thread', () => {
  it("runs another account's synchronous request before the job flood queued ahead of it", async () => {
    const runner = createLocalRunner({ threads: 1, taskBudgetMs: 60_000 });
    const text = `ACME LLC\nInvoice No: INV-7\n${'Item line 1 .... $10.00\n'.repeat(50)}Total due: $4,500.00`;
    const input = { task: { kind: 'invoice' as const }, text, schema: {} as never };
    const finished: string[] = [];
    const signal = new AbortController().signal;
    try {
      const flood = Array.from({ length: 8 }, (_, i) => asEngineCaller({ lane: 'job', accountId: 'flood' }, () => runner.run(input, signal)).then(() => { finished.push(`job-${i}`); }));
      const sync = asEngineCaller({ lane: 'sync', accountId: 'victim' }, () => runner.run({ ...input, text: 'ACME LLC\nTotal due: $1.00' }, signal)).then(() => { finished.push('sync'); });
      await Promise.all([...flood, sync]);
      // Before: first in, first out, the synchronous request finished ninth. Now at most the job already running
      // when it arrived finishes before it.
      expect(finished.indexOf('sync')).toBeLessThanOrEqual(1);
    } finally {
      await runner.close();
    }
  }, 120_000);
});
