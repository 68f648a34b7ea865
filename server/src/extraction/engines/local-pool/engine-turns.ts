import { AsyncLocalStorage } from 'node:async_hooks';

/** Whose extraction a task is: a synchronous request's (a caller waits on the connection) or a job's. */
export interface EngineCaller {
  lane: 'sync' | 'job';
  accountId: string;
}

const current = new AsyncLocalStorage<EngineCaller>();

/** Runs `work` as `caller`'s: the offline engine's tasks it submits wait their turn as that caller's (FairTaskQueue). */
export function asEngineCaller<T>(caller: EngineCaller, work: () => Promise<T>): Promise<T> {
  return current.run(caller, work);
}

/** The caller of the work running now; a task submitted outside any is a synchronous request's, of no account. */
export function engineCaller(): EngineCaller {
  return current.getStore() ?? { lane: 'sync', accountId: '' };
}
