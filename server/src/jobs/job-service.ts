import { createHash, timingSafeEqual } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import type { Database } from '../db/database.js';
import { utcTimestamp as ts, type Sql } from '../db/sql.js';
import { withTransaction } from '../db/transaction.js';
import type { AnyDocumentInput } from '../documents/documents.js';
import type { ExtractionEngine } from '../extraction/engines/engine.js';
import { itemEstimate, type ItemRoute } from '../extraction/item-request.js';
import { reservationForItem } from '../extraction/run-item.js';
import { jsonInput } from '../extraction/single-input.js';
import { ApiError } from '../http/api-error.js';
import { canonicalJson } from '../http/canonical-json.js';
import { newId } from '../ids/ids.js';
import { RESERVATION_TTL_MS, type Meter, type RateState } from '../metering/meter.js';
import type { Clock } from '../time/clock.js';
import { AccountGate } from './account-gate.js';
import { priorityOf } from './fair-queue.js';
import type { JobQueue } from './job-queue.js';
import { jobRepository as jobs, type JobRow, type NewJob } from './job-repository.js';

type Schemas = components['schemas'];

/** How long an `Idempotency-Key` is remembered. */
const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/**
 * How long a job's reservation may stay unsettled before the meter's sweeper gives it back. A queued job may wait
 * far longer than a request runs (RESERVATION_TTL_MS); a job is settled or released when it ends, so this is only
 * the net under a job that never ends.
 */
const JOB_RESERVATION_TTL_MS = 30 * 24 * 3_600_000;
const METADATA_MAX_MEMBERS = 20;
const METADATA_MAX_NAME = 40;

export interface JobServiceDeps {
  db: Database;
  engine: ExtractionEngine;
  meter: Meter;
  queue: JobQueue;
  clock: Clock;
  retentionMs: number;
  /** Told when jobs were queued by this process, so a worker here starts them without waiting for its next poll. */
  onQueued?: () => void;
  /** Of one account's requests, how many may be in the steps on its own rows at once (default 2; see AccountGate). */
  admissionsPerAccount?: number;
  /** How long a request waits for its turn there before it is answered 503 (default 5 s: the pool's connect timeout). */
  admissionWaitMs?: number;
}

export interface Caller {
  accountId: string;
  apiKeyId: string;
  requestId: string | undefined;
}

/** Jobs just accepted, or those an earlier call with the same `Idempotency-Key` accepted. */
export interface Accepted {
  jobs: JobRow[];
  replayed: boolean;
  /** The account's rate state once this request was counted (its `RateLimit` headers). */
  rate: RateState;
}

/**
 * Accepting, reading and cancelling jobs. A job is accepted only once its request has been checked as the synchronous
 * route checks it short of opening a file (item-request.ts itemEstimate) and its estimate reserved (one statement,
 * committed alone, so the account's bucket row is never held while anything else happens); then one transaction
 * stores it and queues it: a job exists and is queued together, or not at all, and then its reservation goes back. A
 * file is opened by the worker, which sets the reservation to what the synchronous route reserves (job-runner.ts).
 */
export class JobService {
  /** One account's requests in the steps that wait on its own rows (rate window, bucket): see AccountGate. */
  private readonly gate: AccountGate;

  constructor(private readonly deps: JobServiceDeps) {
    this.gate = new AccountGate(deps.admissionsPerAccount ?? 2, deps.admissionWaitMs ?? 5_000);
  }

  /** POST /v1/jobs. */
  async create(caller: Caller, body: Schemas['CreateJobRequest'], idempotencyKey: string | undefined): Promise<Accepted> {
    checkMetadata(body.metadata, '/body/metadata');
    return this.accept(caller, 'single', body, idempotencyKey, [{ request: body, metadata: body.metadata, path: '/body/document' }]);
  }

  /** POST /v1/jobs/batch: each item its own job, all admitted together. */
  async createBatch(caller: Caller, body: Schemas['CreateJobBatchRequest'], idempotencyKey: string | undefined): Promise<Accepted> {
    const { items, metadata, ...shared } = body;
    checkMetadata(metadata, '/body/metadata');
    items.forEach((item, i) => checkMetadata(item.metadata, `/body/items/${i}/metadata`));
    // Each job stores what the single-document route takes: the shared members and its own document.
    return this.accept(caller, 'batch', body, idempotencyKey, items.map((item, i) => ({
      request: { ...shared, document: item.document } as Schemas['CreateJobRequest'],
      metadata: item.metadata ?? metadata,
      path: `/body/items/${i}/document`,
    })));
  }

  private async accept(
    caller: Caller,
    kind: 'single' | 'batch',
    body: object,
    idempotencyKey: string | undefined,
    requests: Array<{ request: Schemas['CreateJobRequest']; metadata: Schemas['JobMetadata'] | undefined; path: string }>,
  ): Promise<Accepted> {
    const { db, clock } = this.deps;
    // The body's canonical JSON (members sorted): the same body sent with its members in another order is the same
    // request. `legacy`: the hash as written before, of the body as sent, still matched while such records live.
    const digest = (text: string) => createHash('sha256').update(`${kind}\n${text}`).digest('hex');
    const hashes = idempotencyKey === undefined ? { hash: '', legacy: '' } : { hash: digest(canonicalJson(body)), legacy: digest(JSON.stringify(body)) };
    const { hash } = hashes;
    if (idempotencyKey !== undefined) {
      // A replay is a request like any other: counted, and answered with the rate state.
      const replay = await this.replay(db.sql, caller.accountId, idempotencyKey, hashes, clock.now());
      if (replay) return { ...replay, rate: await this.gate.run(caller.accountId, () => this.deps.meter.countRequest(caller.accountId, clock.now())) };
    }
    // Counted once, as the synchronous routes count: a request holding a file before its documents are looked at (a
    // file refused from here on, over its size or 402, still counts, and a caller over its rate is refused first), one
    // of text once checked. Never inside the transaction, so a refusal there does not take the count back.
    const holdsFile = requests.some((r) => (r.request.document as AnyDocumentInput | undefined)?.content !== undefined);
    let counted = holdsFile ? await this.gate.run(caller.accountId, () => this.deps.meter.countRequest(caller.accountId, clock.now())) : undefined;
    // Everything the synchronous route refuses without opening a file is refused here, before anything is reserved.
    // Files are opened (probed) by the worker: one the reader refuses fails its job, uncharged.
    const checked: Array<(typeof requests)[number] & { heu: number }> = [];
    for (const r of requests) {
      const { engine, item } = await itemEstimate({ prisma: db.prisma, engine: this.deps.engine }, caller.accountId, r.request.route as ItemRoute, jsonInput(r.request as Schemas['CustomExtractRequest']), r.path);
      checked.push({ ...r, heu: reservationForItem(engine, item).wanted });
    }
    counted ??= await this.gate.run(caller.accountId, () => this.deps.meter.countRequest(caller.accountId, clock.now()));
    // Started before the transaction: on the embedded database, starting it inside would wait for the one connection
    // the transaction holds.
    await this.deps.queue.start();
    const now = clock.now();
    const made: NewJob[] = checked.map((c) => ({
      id: newId(), accountId: caller.accountId, apiKeyId: caller.apiKeyId, route: c.request.route,
      request: JSON.stringify(c.request), metadata: c.metadata === undefined ? null : JSON.stringify(c.metadata),
      usageRecordId: newId(), reservedHeu: c.heu, createdAt: now,
    }));
    const reservations = made.map((m) => ({ id: m.usageRecordId, heu: m.reservedHeu }));
    // Admission first, in one statement of its own (committed at once): the account's bucket row is locked only for
    // that statement, never while this request stores its documents or queues its jobs (a commit carrying megabytes of
    // request). Refused (402, 429): nothing was made (the request stays counted). Reserved for a request's lifetime
    // (RESERVATION_TTL_MS) until the transaction below makes it the job's: a process dying in between leaves nothing
    // held for longer.
    await this.gate.run(caller.accountId, () => this.deps.meter.admitJobs(caller.accountId, reservations, counted, `jobs:${requests[0]!.request.route}`, caller.requestId, now, new Date(now.getTime() + RESERVATION_TTL_MS)));
    try {
      const rows = await withTransaction(db.pool, async (tx) => {
        const tags = await jobs.insert(tx.sql, caller.accountId, made);
        if (idempotencyKey !== undefined) {
          const claimed = await tx.sql.execute('job_requests_insert', `
            INSERT INTO job_requests (account_id, key, request_hash, job_ids, created_at, expires_at)
            VALUES ($1, $2, $3, $4, $5::timestamp(3), $6::timestamp(3)) ON CONFLICT (account_id, key) DO NOTHING`,
          [caller.accountId, idempotencyKey, hash, JSON.stringify(made.map((m) => m.id)), ts(now), ts(new Date(now.getTime() + IDEMPOTENCY_TTL_MS))]);
          // A twin with the same key won the race: this one leaves nothing behind and answers as the twin did.
          if (claimed === 0) throw new RaceLost();
        }
        await this.deps.queue.enqueue(tx, made.map((m, i) => ({ id: m.id, priority: priorityOf(tags[i]!) })));
        // The reservations are the jobs' now: they live as long as a queued job may wait (rows of their own, no lock
        // shared with other requests).
        await this.deps.meter.holdUntil(reservations.map((r) => r.id), new Date(now.getTime() + JOB_RESERVATION_TTL_MS), tx.sql);
        return made.map(acceptedRow);
      });
      this.deps.onQueued?.();
      return { jobs: rows, replayed: false, rate: counted };
    } catch (e) {
      // No job was made: its HEU go back (now, or once the database answers again).
      await Promise.all(reservations.map((r) => this.deps.meter.releaseSoon(r)));
      if (e instanceof RaceLost) {
        const replay = await this.replay(db.sql, caller.accountId, idempotencyKey!, hashes, clock.now());
        if (replay) return { ...replay, rate: counted };
      }
      throw e;
    }
  }

  /** The jobs an earlier call with this key made (409 when its body differed); null when the key is new. */
  private async replay(sql: Sql, accountId: string, key: string, hashes: { hash: string; legacy: string }, now: Date): Promise<Omit<Accepted, 'rate'> | null> {
    const rows = await sql.rows<{ requestHash: string; jobIds: string }>('job_requests_find', `
      SELECT request_hash AS "requestHash", job_ids AS "jobIds" FROM job_requests
      WHERE account_id = $1 AND key = $2 AND expires_at > $3::timestamp(3)`, [accountId, key, ts(now)]);
    const found = rows[0];
    if (!found) {
      // An expired record of the key is forgotten, so the key can be used again.
      await sql.execute('job_requests_forget', 'DELETE FROM job_requests WHERE account_id = $1 AND key = $2 AND expires_at <= $3::timestamp(3)', [accountId, key, ts(now)]);
      return null;
    }
    if (!sameDigest(found.requestHash, hashes.hash) && !sameDigest(found.requestHash, hashes.legacy)) throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
    const made = await jobs.findMany(sql, accountId, JSON.parse(found.jobIds) as string[]);
    // Past its retention a job is answered as GET answers it (404, saying when it went), not as an empty success.
    const purged = made.find((j) => j.purgedAt);
    if (purged) throw gone(purged, this.deps.retentionMs);
    return { jobs: made, replayed: true };
  }

  /** GET /v1/jobs/{id}: 404 for another account's or an unknown job, and for one past its retention (saying so). */
  async get(accountId: string, id: string): Promise<JobRow> {
    const row = await jobs.find(this.deps.db.sql, accountId, id);
    if (!row) throw new ApiError('not_found', 'No job with this id.');
    if (row.purgedAt) throw gone(row, this.deps.retentionMs);
    return row;
  }

  async list(accountId: string, filter: Parameters<typeof jobs.list>[2]): Promise<{ rows: JobRow[]; nextCursor: string | null }> {
    const rows = await jobs.list(this.deps.db.sql, accountId, { ...filter, limit: filter.limit + 1 });
    const more = rows.length > filter.limit;
    const page = more ? rows.slice(0, filter.limit) : rows;
    return { rows: page, nextCursor: more ? page[page.length - 1]!.id : null };
  }

  /**
   * DELETE /v1/jobs/{id}: a queued or running job is cancelled and its reservation given back, in one transaction
   * (a worker finishing it at the same moment either finished first, and this is 409, or finds it cancelled and
   * charges nothing). A running job's worker stops at its next check. Cancelling twice answers the same job.
   */
  async cancel(accountId: string, id: string): Promise<JobRow> {
    const { db, clock } = this.deps;
    const row = await withTransaction(db.pool, async (tx) => {
      const locked = await jobs.lock(tx.sql, id);
      if (!locked || locked.accountId !== accountId) throw new ApiError('not_found', 'No job with this id.');
      if (locked.status === 'cancelled') return null;
      if (locked.status === 'succeeded' || locked.status === 'failed') {
        // Past its retention it is gone, as GET says (404), rather than there and finished (409).
        const found = await jobs.find(tx.sql, accountId, id);
        if (found?.purgedAt) throw gone(found, this.deps.retentionMs);
        throw new ApiError('job_not_cancellable', `The job already ${locked.status}: there is nothing left to cancel.`);
      }
      await this.deps.meter.release({ id: locked.usageRecordId, heu: locked.reservedHeu }, tx.sql);
      const now = clock.now();
      return jobs.finish(tx.sql, id, { status: 'cancelled', now, expiresAt: new Date(now.getTime() + this.deps.retentionMs) });
    });
    if (!row) return this.get(accountId, id);
    await this.deps.queue.cancel(id);
    return row;
  }
}

class RaceLost extends Error {}

/** Two hex digests compared in constant time (as every secret-like value here is). */
const sameDigest = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A job as it stands once accepted (the row just written). */
const acceptedRow = (m: NewJob): JobRow => ({
  id: m.id, accountId: m.accountId, apiKeyId: m.apiKeyId, route: m.route, status: 'queued', request: null, metadata: m.metadata,
  result: null, error: null, usageRecordId: m.usageRecordId, reservedHeu: m.reservedHeu, attempts: 0, storedDocuments: null,
  createdAt: m.createdAt, startedAt: null, finishedAt: null, expiresAt: null, purgedAt: null,
});

/** The 404 of a job whose retention has passed: when it was deleted, and why. */
function gone(row: JobRow, retentionMs: number): ApiError {
  const hours = retentionMs / 3_600_000;
  const kept = hours % 24 === 0 ? `${hours / 24} day${hours === 24 ? '' : 's'}` : `${hours} hours`;
  return new ApiError('not_found', `This job finished on ${row.finishedAt?.toISOString() ?? 'an earlier date'} and was deleted on ${row.purgedAt!.toISOString()}: jobs and their results are kept ${kept} after they finish.`);
}

const invalid = (path: string, message: string) => new ApiError('invalid_request', `${path} ${message}`, { errors: [{ path, message }] });

/**
 * Metadata within its limits (the contract states them too: `maxProperties`, `propertyNames`; checked again here so
 * the service holds them whatever validates its requests).
 */
function checkMetadata(metadata: Schemas['JobMetadata'] | undefined, path: string): void {
  if (metadata === undefined) return;
  const names = Object.keys(metadata);
  if (names.length > METADATA_MAX_MEMBERS) throw invalid(path, `must have at most ${METADATA_MAX_MEMBERS} members`);
  const bad = names.find((n) => n.length < 1 || n.length > METADATA_MAX_NAME);
  if (bad !== undefined) throw invalid(path, `member names must be 1 to ${METADATA_MAX_NAME} characters`);
}
