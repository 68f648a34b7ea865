// Who reads next: per-account FIFO queues served round-robin, a per-account cap below the slots, bounded queues.
import { FairScheduler, QueueFull } from '../../src/documents/sandbox/fair-scheduler.js';

/** A job that runs until it is released, recording when it started. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((r) => { release = r; });
  return { job: () => { log.push(name); return done.then(() => name); }, release };
}
const tick = () => new Promise((r) => setImmediate(r));

const options = { slots: 2, perAccount: 1, queuePerAccount: 8, queueTotal: 16, maxWaitMs: 60_000 };

describe('FairScheduler', () => {
  it('never gives one account more than its cap: another account starts at once beside a backlog', async () => {
    const s = new FairScheduler(options);
    const log: string[] = [];
    const a = Array.from({ length: 5 }, (_, i) => gate(log, `a${i}`));
    const runs = a.map((g) => s.run('A', g.job));
    await tick();
    expect(log).toEqual(['a0']);
    expect(s.state()).toMatchObject({ running: 1, waiting: 4 });
    const b = gate(log, 'b0');
    const bRun = s.run('B', b.job);
    await tick();
    // B did not wait behind A's four queued files.
    expect(log).toEqual(['a0', 'b0']);
    b.release();
    expect(await bRun).toBe('b0');
    a.forEach((g) => g.release());
    expect(await Promise.all(runs)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
    expect(s.state()).toEqual({ running: 0, waiting: 0, accounts: {} });
  });

  it('serves waiting accounts round-robin: one task of each in turn, each account in its own order', async () => {
    const s = new FairScheduler({ ...options, slots: 2, perAccount: 1 });
    const log: string[] = [];
    // Two long tasks of X and Y hold both slots; then A queues three files, B two, C one.
    const x = gate(log, 'x'), y = gate(log, 'y');
    const held = [s.run('X', x.job), s.run('Y', y.job)];
    const queued = [
      ...['a0', 'a1', 'a2'].map((n) => gate(log, n)).map((g) => ({ g, p: s.run('A', g.job) })),
      ...['b0', 'b1'].map((n) => gate(log, n)).map((g) => ({ g, p: s.run('B', g.job) })),
      ...['c0'].map((n) => gate(log, n)).map((g) => ({ g, p: s.run('C', g.job) })),
    ];
    await tick();
    expect(log).toEqual(['x', 'y']);
    // One slot at a time frees up; each started task is released at once.
    queued.forEach(({ g }) => g.release());
    x.release();
    await Promise.all(queued.map(({ p }) => p));
    y.release();
    await Promise.all(held);
    expect(log).toEqual(['x', 'y', 'a0', 'b0', 'c0', 'a1', 'b1', 'a2']);
  });

  it('refuses past the queue bounds (QueueFull, with a Retry-After), and drops a waiting job whose caller is gone', async () => {
    const s = new FairScheduler({ ...options, queuePerAccount: 2 });
    const log: string[] = [];
    const first = gate(log, 'a0');
    const running = s.run('A', first.job);
    const gone = new AbortController();
    const waiting = s.run('A', gate(log, 'a1').job, gone.signal);
    const second = gate(log, 'a2');
    const alsoWaiting = s.run('A', second.job);
    await expect(s.run('A', gate(log, 'a3').job)).rejects.toBeInstanceOf(QueueFull);
    const full = await s.run('A', gate(log, 'a3').job).catch((e: QueueFull) => e);
    expect((full as QueueFull).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    gone.abort(new Error('caller gone'));
    await expect(waiting).rejects.toThrow('caller gone');
    expect(s.state().accounts.A).toEqual({ running: 1, waiting: 1 });
    first.release();
    second.release();
    expect(await running).toBe('a0');
    expect(await alsoWaiting).toBe('a2');
    // The dropped job never ran.
    expect(log).toEqual(['a0', 'a2']);
  });

  it('refuses a job that waited longer than maxWaitMs', async () => {
    const s = new FairScheduler({ ...options, slots: 2, perAccount: 1, maxWaitMs: 50 });
    const log: string[] = [];
    const first = gate(log, 'a0');
    const running = s.run('A', first.job);
    await expect(s.run('A', gate(log, 'a1').job)).rejects.toBeInstanceOf(QueueFull);
    first.release();
    await running;
    expect(s.state().waiting).toBe(0);
  });

  it('does not let the per-account cap reach the slots', () => {
    expect(() => new FairScheduler({ ...options, slots: 2, perAccount: 3 })).toThrow();
  });
});
