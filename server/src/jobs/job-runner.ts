import type { Logger } from 'pino';
import type { components } from '../../../generated/openapi.js';
import type { Database } from '../db/database.js';
import { withTransaction, type Transaction } from '../db/transaction.js';
import { Documents } from '../documents/documents.js';
import type { ExtractionEngine } from '../extraction/engines/engine.js';
import { itemFor, type ItemRoute } from '../extraction/item-request.js';
import { discardRenewalDocuments, type StoredRenewal } from '../extraction/renewal/renewal-store.js';
import { reservationForItem, routeAnswer, runItem } from '../extraction/run-item.js';
import type { ReviewService } from '../reviews/review-service.js';
import { jsonInput } from '../extraction/single-input.js';
import { ApiError } from '../http/api-error.js';
import { toApiError } from '../http/error-mapper.js';
import type { Meter } from '../metering/meter.js';
import type { Clock } from '../time/clock.js';
import { recordJobEvent } from '../webhooks/job-events.js';
import { QUEUES, type ClaimedJob, type JobQueue } from './job-queue.js';
import { jobLog } from './job-log.js';
import { jobRepository as jobs, type JobRow } from './job-repository.js';
import { jobView } from './job-view.js';

type Schemas = components['schemas'];

/** Why a running job was stopped before its answer (the signal's reason). */
export class JobCancelled extends Error {}
export class JobKeyRevoked extends Error {}
/** The worker is stopping: the job is left to run again elsewhere. */
export class WorkerStopping extends Error {}
/** The settle statement found the job's key revoked: the transaction is rolled back and the job fails instead. */
class KeyRevokedAtSettlement extends Error {}

type Extracted = { answer: Record<string, unknown>; usage: Schemas['Usage'] };
type Outcome = Extracted | { error: ApiError };

export interface JobRunnerDeps {
  db: Database;
  documents: Documents;
  /** Reviews (`review: true`) and the accounts' own calibrations. */
  reviews?: ReviewService;
  engine: ExtractionEngine;
  meter: Meter;
  queue: JobQueue;
  clock: Clock;
  retentionMs: number;
  logger: Logger;
  /** Told of each job that ended here (metrics). */
  onFinished?: (outcome: { status: 'succeeded' | 'failed'; route: string; heu: number }) => void;
}

/**
 * Runs one job: its stored request read back as the synchronous route reads a body (single-input.ts), its item built
 * and run by the same functions (item-request.ts, run-item.ts) within the HEU reserved when it was accepted, and its
 * end written in one transaction with the charge and its webhook events.
 *
 * Charged exactly once: the charge (settling the reservation) commits together with the job's end, and only the run
 * that holds the job's latest attempt may end it. A worker killed mid-job commits nothing; pg-boss gives the job to
 * another worker once its heartbeat lapses, whose run (attempt n+1) does all of it. A worker that was thought dead but
 * finishes anyway finds its attempt outdated, and its run ends without a charge.
 */
export class JobRunner {
  constructor(private readonly deps: JobRunnerDeps) {}

  /**
   * Resolves when the job ended (or was not this run's to end); throws only when it must run again. With `claimed`
   * (the queue's job of this run), its completion in the queue commits with the job's end, and it answers
   * `'completed'`; `release` is called once the extraction is done, so the worker's slot takes another job while this
   * one's end is written.
   */
  async run(jobId: string, signal: AbortSignal, claimed?: ClaimedJob<unknown>, release?: () => void): Promise<void | 'completed'> {
    const { db, clock, queue } = this.deps;
    await queue.start(); // before any transaction: see JobService.accept
    const row = await jobs.claim(db.sql, jobId, clock.now());
    if (!row) return;
    const began = performance.now();
    jobLog.started(this.deps.logger, row, clock.now());
    // What a run that died stored (renewal documents) is taken back before this run stores its own.
    if (row.storedDocuments) {
      await discardRenewalDocuments(db.prisma, row.accountId, JSON.parse(row.storedDocuments) as StoredRenewal[]);
      await jobs.recordStored(db.sql, row.id, null);
    }
    const stored: StoredRenewal[] = [];
    let outcome: Outcome;
    try {
      outcome = await this.extract(row, signal, stored);
    } catch (e) {
      const reason = signal.aborted ? signal.reason : e;
      if (reason instanceof WorkerStopping) {
        await this.discard(row, stored);
        throw reason;
      }
      if (reason instanceof JobCancelled) {
        await this.discard(row, stored);
        jobLog.ended(this.deps.logger, row, { status: 'cancelled', heu: 0, ms: performance.now() - began });
        return;
      }
      const error = reason instanceof JobKeyRevoked ? new ApiError('invalid_api_key') : toApiError(reason);
      // The database failing under us is not the job's fault: it runs again (pg-boss retries it).
      if (error.code === 'service_unavailable' && !(reason instanceof ApiError)) {
        await this.discard(row, stored).catch(() => {});
        throw reason;
      }
      if (error.code === 'internal_error') this.deps.logger.error({ err: reason, jobId: row.id }, 'job failed unexpectedly');
      outcome = { error };
    } finally {
      release?.();
    }
    return (await this.end(row, stored, outcome, claimed, began)) ? 'completed' : undefined;
  }

  /** The synchronous route's answer for the job's request. */
  private async extract(row: JobRow, signal: AbortSignal, stored: StoredRenewal[]): Promise<{ answer: Record<string, unknown>; usage: Schemas['Usage'] }> {
    const { db, documents, engine, clock, logger } = this.deps;
    const request = JSON.parse(row.request!) as Schemas['CreateJobRequest'];
    // The file is opened (probed) here, not when the job was accepted: one the reader refuses fails the job with the
    // reader's error, and nothing is charged. The process that probed it reads it too, as on the synchronous route.
    const built = await itemFor({ prisma: db.prisma, documents, engine, reader: { signal, keepForRead: true } }, row.accountId, row.route as ItemRoute, jsonInput(request as Schemas['CustomExtractRequest']));
    try {
      await this.reserveAsRoute(row, reservationForItem(built.engine, built.item).wanted);
    } catch (e) {
      Documents.release(built.item.prepared);
      throw e;
    }
    const result = await runItem({ engine: built.engine, documents, prisma: db.prisma, accountId: row.accountId, now: () => clock.now(), log: logger, stored, ...(this.deps.reviews ? { reviews: this.deps.reviews } : {}), jobId: row.id }, built.item, signal, row.reservedHeu);
    // Written down at once, so that if this worker dies now the next run takes the documents back.
    if (stored.length) await jobs.recordStored(db.sql, row.id, JSON.stringify(stored));
    if (signal.aborted) throw signal.reason;
    return { answer: routeAnswer(result), usage: result.usage };
  }

  /**
   * Sets the job's reservation, made from its file's size when it was accepted, to what the synchronous route reserves
   * for the file now opened (`wanted`), so the run is the route's run, within the same budget: the difference given back,
   * or taken if the bucket has room (else the job fails, 402, uncharged). `row.reservedHeu` follows.
   */
  private async reserveAsRoute(row: JobRow, wanted: number): Promise<void> {
    if (wanted === row.reservedHeu) return;
    const { db, meter, clock } = this.deps;
    const held = await withTransaction(db.pool, async (tx) => {
      if (!(await jobs.setReservedHeld(tx.sql, row.id, row.attempts, wanted))) return false;
      await meter.resize(row.accountId, { id: row.usageRecordId, from: row.reservedHeu, to: wanted }, clock.now(), tx.sql);
      return true;
    });
    // Cancelled (or run again elsewhere) meanwhile: this run ends without a charge.
    if (!held) throw new JobCancelled('the job is no longer this run\'s');
    row.reservedHeu = wanted;
  }

  /**
   * Ends the job, if this run still holds it: succeeded (charged: the reservation settled to the real cost, the key
   * re-checked in the same statement) or failed (the reservation released), with its webhook events and (with
   * `claimed`) the queue's completion, in one transaction. A run that no longer holds it (cancelled meanwhile, or run
   * again elsewhere) charges nothing. Answers whether it completed the queue's job.
   */
  private async end(row: JobRow, stored: StoredRenewal[], outcome: Outcome, claimed: ClaimedJob<unknown> | undefined, began: number): Promise<boolean> {
    const { db, meter, queue, clock, retentionMs } = this.deps;
    let ended: { finished: JobRow; heu: number } | null;
    try {
      ended = await withTransaction(db.pool, async (tx: Transaction) => {
        const error = 'error' in outcome ? outcome.error : undefined;
        const now = clock.now();
        const expiresAt = new Date(now.getTime() + retentionMs);
        // Only the run holding the job's latest attempt ends it (one statement: the row is locked by the update).
        const finished = error
          ? await jobs.finishHeld(tx.sql, row.id, row.attempts, { status: 'failed', error: JSON.stringify({ code: error.code, message: error.message, details: error.details ?? null }), now, expiresAt })
          : await jobs.finishHeld(tx.sql, row.id, row.attempts, { status: 'succeeded', result: JSON.stringify((outcome as Extracted).answer), now, expiresAt });
        if (!finished) return null;
        await recordJobEvent(tx, queue, jobView(finished), row.accountId, error ? 'job.failed' : 'job.succeeded', now);
        if (claimed) await queue.complete(QUEUES.jobs, claimed, tx);
        // The charge last, just before the commit: it locks the account's bucket row, which every job of the account
        // ending at the same moment needs, so it is held for one statement rather than the whole transaction.
        const reservation = { id: row.usageRecordId, heu: row.reservedHeu };
        if (error) {
          await meter.release(reservation, tx.sql);
          return { finished, heu: 0 };
        }
        const { usage } = outcome as Extracted;
        const { keyActive } = await meter.settle(reservation, usage, row.apiKeyId, tx.sql);
        // Revoked while it ran: nothing of this is kept (the rollback takes the settlement back too); it fails below.
        if (!keyActive) throw new KeyRevokedAtSettlement();
        return { finished, heu: usage.heu };
      });
    } catch (e) {
      if (!(e instanceof KeyRevokedAtSettlement)) throw e;
      return this.end(row, stored, { error: new ApiError('invalid_api_key') }, claimed, began);
    }
    if (!ended || ended.finished.status === 'failed') await this.discard(row, stored);
    if (ended) {
      const status = ended.finished.status as 'succeeded' | 'failed';
      this.deps.onFinished?.({ status, route: row.route, heu: ended.heu });
      jobLog.ended(this.deps.logger, row, { status, heu: ended.heu, ms: performance.now() - began, ...('error' in outcome ? { error: outcome.error.code } : {}) });
    }
    return ended !== null && claimed !== undefined;
  }

  /** Takes back the renewal documents a run stored (it was cancelled, failed, or is not the job's run any more). */
  private async discard(row: JobRow, stored: StoredRenewal[]): Promise<void> {
    if (stored.length === 0) return;
    await discardRenewalDocuments(this.deps.db.prisma, row.accountId, stored);
  }

  /**
   * A job whose workers died on it `maxAttempts` times (pg-boss moved it to the dead-letter queue): it fails, its
   * reservation is given back and its `job.failed` event sent.
   */
  async abandon(jobId: string): Promise<void> {
    const { db, meter, queue, clock, retentionMs } = this.deps;
    await queue.start();
    const ended = await withTransaction(db.pool, async (tx) => {
      const locked = await jobs.lock(tx.sql, jobId);
      if (!locked || (locked.status !== 'running' && locked.status !== 'queued')) return null;
      await meter.release({ id: locked.usageRecordId, heu: locked.reservedHeu }, tx.sql);
      const now = clock.now();
      const error = { code: 'internal_error', message: `The job could not be run: its worker stopped ${locked.attempts} times while running it. Nothing was charged.`, details: null };
      const finished = await jobs.finish(tx.sql, jobId, { status: 'failed', error: JSON.stringify(error), now, expiresAt: new Date(now.getTime() + retentionMs) });
      await recordJobEvent(tx, queue, jobView(finished), locked.accountId, 'job.failed', now);
      return { accountId: locked.accountId, stored: locked.storedDocuments, route: finished.route, attempts: locked.attempts };
    });
    if (ended?.stored) await discardRenewalDocuments(db.prisma, ended.accountId, JSON.parse(ended.stored) as StoredRenewal[]);
    if (ended) {
      this.deps.onFinished?.({ status: 'failed', route: ended.route, heu: 0 });
      jobLog.ended(this.deps.logger, { id: jobId, accountId: ended.accountId, route: ended.route, attempts: ended.attempts }, { status: 'failed', heu: 0, error: 'internal_error' });
    }
  }
}
