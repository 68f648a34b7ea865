/**
 * Who reads next: a bounded number of reader slots shared by accounts, each account's files in its own FIFO queue,
 * the queues served round-robin, and no account holding more than its cap of slots. So with `slots` > `perAccount`,
 * one account's files can never take every slot, and a file of another account waits for at most one task of each
 * other account that has work queued (never behind a whole backlog), each bounded by its budget.
 *
 * Plain bookkeeping, no processes: `run` is called with a job once a slot is granted and gives the slot back when the
 * promise it returns settles.
 */
export interface FairSchedulerOptions {
  /** Jobs that may run at once, all accounts together. */
  slots: number;
  /** Jobs one account may run at once (probes and reads together). */
  perAccount: number;
  /** Jobs one account may have waiting; past it, `QueueFull`. */
  queuePerAccount: number;
  /** Jobs all accounts together may have waiting; past it, `QueueFull`. */
  queueTotal: number;
  /** The longest a job waits for a slot before it is refused with `QueueFull` (the reader is saturated). */
  maxWaitMs: number;
}

/** The queue is full, or a job waited too long for a slot: the caller is told to come back (503, Retry-After). */
export class QueueFull extends Error {
  constructor(readonly retryAfterSeconds: number, message = 'The document reader is busy') {
    super(message);
  }
}

interface Waiting {
  start: () => void;
  fail: (e: unknown) => void;
}

interface AccountState {
  running: number;
  queue: Waiting[];
}

export interface SchedulerState {
  running: number;
  waiting: number;
  /** Per account with work: running and waiting. */
  accounts: Record<string, { running: number; waiting: number }>;
}

export class FairScheduler {
  private readonly accounts = new Map<string, AccountState>();
  /** Accounts with a job waiting, in round-robin order: the head is served next. */
  private readonly rotation: string[] = [];
  private running = 0;
  private waiting = 0;

  constructor(private readonly options: FairSchedulerOptions) {
    if (options.perAccount < 1 || options.slots < options.perAccount) throw new Error('per-account slots must be between 1 and the slots');
  }

  /**
   * Runs `job` once the account is granted a slot: at once when one is free and the account is under its cap, else
   * in turn. A job still waiting when `signal` aborts is dropped (rejected with the signal's reason); a job that has
   * started is the job's to stop.
   */
  run<T>(accountId: string, job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const account = this.accountOf(accountId);
    if (this.canStart(account) && !this.rotation.includes(accountId)) return this.start(accountId, account, job);
    if (account.queue.length >= this.options.queuePerAccount || this.waiting >= this.options.queueTotal) {
      this.forget(accountId, account);
      return Promise.reject(new QueueFull(this.retryAfterSeconds()));
    }
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => leave(new QueueFull(this.retryAfterSeconds(), 'The document reader is busy: the file waited too long to be read')), this.options.maxWaitMs);
      timer.unref();
      const onAbort = () => leave(signal!.reason);
      const entry: Waiting = {
        start: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          this.start(accountId, account, job).then(resolve, reject);
        },
        fail: reject,
      };
      const leave = (reason: unknown) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = account.queue.indexOf(entry);
        if (at < 0) return;
        account.queue.splice(at, 1);
        this.waiting--;
        if (account.queue.length === 0) this.dropFromRotation(accountId);
        this.forget(accountId, account);
        reject(reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      account.queue.push(entry);
      this.waiting++;
      if (!this.rotation.includes(accountId)) this.rotation.push(accountId);
      this.dispatch();
    });
  }

  state(): SchedulerState {
    const accounts: SchedulerState['accounts'] = {};
    for (const [id, a] of this.accounts) accounts[id] = { running: a.running, waiting: a.queue.length };
    return { running: this.running, waiting: this.waiting, accounts };
  }

  /** Refuses every waiting job (the reader is closing). */
  drain(reason: unknown): void {
    for (const [id, account] of this.accounts) {
      for (const w of account.queue.splice(0)) w.fail(reason);
      this.forget(id, account);
    }
    this.rotation.length = 0;
    this.waiting = 0;
  }

  private start<T>(accountId: string, account: AccountState, job: () => Promise<T>): Promise<T> {
    account.running++;
    this.running++;
    const done = () => {
      account.running--;
      this.running--;
      this.forget(accountId, account);
      this.dispatch();
    };
    let started: Promise<T>;
    try {
      started = job();
    } catch (e) {
      started = Promise.reject(e);
    }
    return started.finally(done);
  }

  /** Grants free slots to waiting jobs: the next account in rotation that is under its cap, one job each turn. */
  private dispatch(): void {
    while (this.running < this.options.slots && this.rotation.length > 0) {
      const turn = this.rotation.findIndex((id) => this.canStart(this.accounts.get(id)!));
      if (turn < 0) return;
      const [accountId] = this.rotation.splice(turn, 1) as [string];
      const account = this.accounts.get(accountId)!;
      const next = account.queue.shift()!;
      this.waiting--;
      // Back to the end of the rotation while it has more waiting: every other account goes first.
      if (account.queue.length > 0) this.rotation.push(accountId);
      next.start();
    }
  }

  private canStart(account: AccountState): boolean {
    return this.running < this.options.slots && account.running < this.options.perAccount;
  }

  private accountOf(accountId: string): AccountState {
    let account = this.accounts.get(accountId);
    if (!account) this.accounts.set(accountId, (account = { running: 0, queue: [] }));
    return account;
  }

  private forget(accountId: string, account: AccountState): void {
    if (account.running === 0 && account.queue.length === 0) this.accounts.delete(accountId);
  }

  private dropFromRotation(accountId: string): void {
    const at = this.rotation.indexOf(accountId);
    if (at >= 0) this.rotation.splice(at, 1);
  }

  /** A few seconds, more when much is waiting: a rough time for the queue to move. */
  private retryAfterSeconds(): number {
    return Math.min(30, 2 + Math.ceil(this.waiting / Math.max(1, this.options.slots)));
  }
}
