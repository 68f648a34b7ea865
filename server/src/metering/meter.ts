import type { PlanName, PlanTable } from '../config/plans.js';
import { utcTimestamp as ts, type Sql } from '../db/sql.js';
import { ApiError } from '../http/api-error.js';
import { newId } from '../ids/ids.js';
import { monthStart, nextMonthStart } from '../time/clock.js';

/** How long a reservation may stay unsettled before the sweeper gives its HEU back (a crashed request). */
export const RESERVATION_TTL_MS = 15 * 60 * 1000;
/** How often a reservation whose release failed (the database away) is tried again, at first and at most. */
export const RELEASE_RETRY_MS = { first: 500, max: 5_000 } as const;
/** How soon after a give-back went pending it is folded into its bucket (see `foldSoon`). */
export const FOLD_DELAY_MS = 50;
/** How often each process folds whatever give-backs are still pending. */
export const FOLD_INTERVAL_MS = 1_000;
/** Bounds of the `Retry-After` of a bucket held by requests in flight (see `refusal`). */
export const IN_FLIGHT_RETRY_S = { min: 1, max: 30 } as const;

export interface RateState {
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets. */
  resetSeconds: number;
}

export interface Reservation {
  id: string;
  heu: number;
  rate: RateState;
}

interface Attempt {
  planName: PlanName;
  plan: PlanTable[PlanName];
  used: number;
  rate: RateState;
  reservation: Reservation | null;
}

interface BucketNow {
  used: number;
  reserved: number;
  oldestAgeS: number;
}

interface AdmitRow {
  plan: PlanName | null;
  rate_count: number | null;
  reserved_total: number | null;
  used_before: number | null;
}

/**
 * The plan's limits, enforced in the database so every instance agrees: the request rate (per account per UTC
 * minute) and the monthly HEU bucket. `admit` counts the request and reserves its estimate in one statement; the
 * reservation is later settled to the real cost or released.
 */
export class Meter {
  /** Reservations to give back once the database answers again (`releaseSoon`), by id, with when they were given up. */
  private readonly unreleased = new Map<string, { reservation: Pick<Reservation, 'id' | 'heu'>; since: number }>();
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs: number = RELEASE_RETRY_MS.first;
  private foldTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly plans: PlanTable,
    private readonly upgradeUrl: string,
    /** Told of every charge (metrics). */
    private readonly onSettled?: (heu: number) => void,
  ) {}

  /**
   * Counts the request and reserves its HEU: `wanted` when the bucket has room for it, else what is left of the
   * bucket when that still covers `least` (the engine then sizes its output to it), else 402/429. A bare number
   * reserves exactly that. The common case is one statement; a short bucket costs a second one, which does not count
   * the request again. A refusal first looks at the bucket as it stands (`bucketNow`): requests in flight may have
   * settled since, and then the request is admitted after all (once, without counting it again). `counted`: the
   * request was counted already (`countRequest`, before its file was opened).
   */
  async admit(accountId: string, amount: number | { wanted: number; least: number }, route: string, requestId: string | undefined, now: Date, counted?: RateState): Promise<Reservation> {
    const { wanted, least } = typeof amount === 'number' ? { wanted: amount, least: amount } : amount;
    const first = await this.tryAdmit(accountId, wanted, counted === undefined, route, requestId, now, counted);
    if (first.reservation) return first.reservation;
    let last = first;
    const left = first.plan.heuPerMonth - first.used;
    if (first.rate && left < wanted && left >= least && left > 0) {
      last = await this.tryAdmit(accountId, left, false, route, requestId, now, first.rate);
      if (last.reservation) return last.reservation;
    }
    let bucket = await this.bucketNow(accountId, now);
    const leftNow = last.plan.heuPerMonth - bucket.used;
    if (leftNow >= least && leftNow > 0) {
      const again = await this.tryAdmit(accountId, Math.min(wanted, leftNow), false, route, requestId, now, last.rate);
      if (again.reservation) return again.reservation;
      bucket = await this.bucketNow(accountId, now);
    }
    throw this.refusal(last, bucket, least, now);
  }

  /**
   * Counts the request against this minute's rate before any work on it (opening a caller's file to learn its
   * pages), so a file refused once opened still counts and a throttled caller cannot make the service open files;
   * 429 (as `admit` would) when the minute's requests are used up. `admit` is then given the answer (`counted`) and
   * does not count the request again.
   */
  async countRequest(accountId: string, now: Date): Promise<RateState> {
    const window = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
    const windowEnd = new Date(window.getTime() + 60_000);
    const { free, starter } = this.plans;
    const rows = await this.sql.rows<{ plan: string | null; rate_count: number | null }>('meter_count_request', COUNT_REQUEST_SQL,
      [accountId, starter.requestsPerMinute, free.requestsPerMinute, ts(window)]);
    const row = rows[0];
    if (!row?.plan) throw new ApiError('invalid_api_key');
    const plan = this.plans[row.plan as keyof PlanTable];
    const resetSeconds = Math.max(1, Math.ceil((windowEnd.getTime() - now.getTime()) / 1000));
    if (row.rate_count === null) {
      throw rateRefusal(row.plan, plan.requestsPerMinute, windowEnd, resetSeconds);
    }
    return { limit: plan.requestsPerMinute, remaining: Math.max(0, plan.requestsPerMinute - row.rate_count), resetSeconds };
  }

  private async tryAdmit(accountId: string, heu: number, count: boolean, route: string, requestId: string | undefined, now: Date, counted?: RateState): Promise<Attempt> {
    const period = monthStart(now);
    const window = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
    const windowEnd = new Date(window.getTime() + 60_000);
    const id = newId();
    const { free, starter } = this.plans;
    const rows = await this.sql.rows<AdmitRow>('meter_admit', ADMIT_SQL, [
      accountId, starter.requestsPerMinute, free.requestsPerMinute, starter.heuPerMonth, free.heuPerMonth,
      ts(window), ts(period), heu, id, route, requestId ?? null, ts(now), ts(new Date(now.getTime() + RESERVATION_TTL_MS)), count,
    ]);
    const row = rows[0];
    // The account is gone (its keys went with it; this one was still cached): the key is no longer valid.
    if (!row?.plan) throw new ApiError('invalid_api_key');
    const plan = this.plans[row.plan];
    const resetSeconds = Math.max(1, Math.ceil((windowEnd.getTime() - now.getTime()) / 1000));
    if (row.rate_count === null && count) {
      throw rateRefusal(row.plan, plan.requestsPerMinute, windowEnd, resetSeconds);
    }
    const rate = counted ?? { limit: plan.requestsPerMinute, remaining: Math.max(0, plan.requestsPerMinute - (row.rate_count ?? 0)), resetSeconds };
    const used = Number(row.used_before ?? 0);
    if (row.reserved_total === null) return { planName: row.plan, plan, used, rate, reservation: null };
    return { planName: row.plan, plan, used, rate, reservation: { id, heu, rate } };
  }

  /** The month's bucket as it stands: HEU used (settled and reserved), those reserved by requests still running, and how long the oldest has run. */
  private async bucketNow(accountId: string, now: Date, via: Sql = this.sql): Promise<BucketNow> {
    const [row] = await via.rows<{ used: number | null; reserved: number; oldest_age_s: number }>('meter_bucket_now', BUCKET_NOW_SQL, [accountId, ts(monthStart(now)), ts(now)]);
    const age = Number(row?.oldest_age_s ?? 0);
    return { used: Number(row?.used ?? 0), reserved: Number(row?.reserved ?? 0), oldestAgeS: Number.isFinite(age) ? age : 0 };
  }

  /**
   * Why the bucket could not take the request, from the bucket as it stands. `used` counts settled HEU and the
   * reservations of requests still running; those settle at most to what they reserved, usually far less (a
   * reservation is the worst case). So:
   * - settled HEU alone reach the limit: the month is used up (429 `heu_bucket`, `Retry-After` to the next month);
   * - once the requests in flight settle, the bucket could hold the least this request needs: it is only reserved
   *   (429 `heu_in_flight`, `Retry-After` about as long as the oldest of them has run, 1 to 30 s: short work is
   *   retried at once, long work is not polled, and a reservation left by a crash never sends a caller away for long);
   * - else some HEU are left but not enough for this request: 402 `plan_limit_exceeded`.
   * Asked only when a request is refused: the admitted path stays one statement.
   */
  private refusal(attempt: Attempt, bucket: BucketNow, least: number, now: Date): ApiError {
    const { plan, planName, rate } = attempt;
    const limit = plan.heuPerMonth;
    const reserved = Math.min(bucket.used, bucket.reserved);
    const settled = bucket.used - reserved;
    if (settled >= limit) {
      const next = nextMonthStart(now);
      return new ApiError('too_many_requests', `This month's ${limit} HEU are used up.`,
        { reason: 'heu_bucket', limit, resetAt: next.toISOString() },
        { 'Retry-After': String(Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000))), ...rateHeaders(rate) });
    }
    if (limit - settled >= least) {
      const retry = Math.min(IN_FLIGHT_RETRY_S.max, Math.max(IN_FLIGHT_RETRY_S.min, Math.ceil(bucket.oldestAgeS)));
      return new ApiError('too_many_requests',
        `This month's HEU left are in use by requests in flight (${reserved} HEU reserved, ${settled} of ${limit} used); retry in ${retry} s, once they have settled.`,
        { reason: 'heu_in_flight', limit, resetAt: new Date(now.getTime() + retry * 1000).toISOString(), inFlightHeu: reserved },
        { 'Retry-After': String(retry), ...rateHeaders(rate) });
    }
    const left = Math.max(0, limit - bucket.used);
    return new ApiError('plan_limit_exceeded', `This request needs at least ${least} HEU; ${left} are left this month.`,
      { plan: planName, bucketHeu: left, requestedHeu: least, upgradeUrl: this.upgradeUrl },
      rateHeaders(rate));
  }

  /**
   * Admits a request that creates jobs (one, or a batch), counted already (`countRequest`, before its documents were
   * looked at): reserves each job's estimate as its own reservation, under the id given (each is resized once its file
   * is opened, then settled or released when its job ends), all of them or none: 402 or 429 as `admit` answers.
   * `via` runs it inside the caller's transaction. Job reservations are not swept after RESERVATION_TTL_MS: a queued
   * job may wait longer than a request runs; they expire at `expiresAt`.
   */
  async admitJobs(accountId: string, reservations: Array<{ id: string; heu: number }>, counted: RateState, route: string, requestId: string | undefined, now: Date, expiresAt: Date, via: Sql = this.sql): Promise<Reservation[]> {
    const period = monthStart(now);
    const ids = reservations.map((r) => r.id);
    const amounts = reservations.map((r) => r.heu);
    const total = amounts.reduce((a, b) => a + b, 0);
    const { free, starter } = this.plans;
    const rows = await via.rows<AdmitRow>('meter_admit_jobs', ADMIT_JOBS_SQL, [
      accountId, starter.requestsPerMinute, free.requestsPerMinute, starter.heuPerMonth, free.heuPerMonth,
      ts(period), total, ids, amounts, route, requestId ?? null, ts(now), ts(expiresAt),
    ]);
    const row = rows[0];
    if (!row?.plan) throw new ApiError('invalid_api_key');
    const plan = this.plans[row.plan];
    const rate = counted;
    if (row.reserved_total === null) {
      // Read in the caller's transaction: on the embedded database it holds the one connection.
      const bucket = await this.bucketNow(accountId, now, via);
      throw this.refusal({ planName: row.plan, plan, used: Number(row.used_before ?? 0), rate, reservation: null }, bucket, total, now);
    }
    return ids.map((id, i) => ({ id, heu: amounts[i]!, rate }));
  }

  /** Reservations (made by `admitJobs`) live until `expiresAt`: their jobs were stored. `via`: the caller's transaction. */
  async holdUntil(ids: string[], expiresAt: Date, via: Sql = this.sql): Promise<void> {
    await via.execute('meter_hold_until', `UPDATE usage_records SET expires_at = $2::timestamp(3) WHERE id = ANY($1::text[]) AND state = 'reserved'`, [ids, ts(expiresAt)]);
  }

  /**
   * Sets a job's reservation, made from an estimate, to `to` HEU once its file has been opened (`from` is what it
   * holds): less gives the difference back at once; more is taken only if the month's bucket has room for it (one
   * statement, so the bucket is never overdrawn), else 402 `plan_limit_exceeded` and the reservation is unchanged.
   * `via`: inside the caller's transaction.
   */
  async resize(accountId: string, reservation: { id: string; from: number; to: number }, now: Date, via: Sql = this.sql): Promise<void> {
    const delta = reservation.to - reservation.from;
    if (delta === 0) return;
    const { free, starter } = this.plans;
    const rows = await via.rows<{ plan: PlanName | null; resized: number | null; used: number | null }>('meter_resize', RESIZE_SQL, [
      accountId, starter.requestsPerMinute, free.requestsPerMinute, starter.heuPerMonth, free.heuPerMonth, reservation.id, delta,
    ]);
    const row = rows[0];
    if (!row?.plan) throw new ApiError('invalid_api_key');
    if (row.resized !== null) return;
    const plan = this.plans[row.plan];
    const left = Math.max(0, plan.heuPerMonth - Number(row.used ?? 0));
    throw new ApiError('plan_limit_exceeded',
      `Once opened, the file needs ${reservation.to} HEU, ${delta} more than was reserved from its size when the job was accepted; ${left} are left this month.`,
      { plan: row.plan, bucketHeu: left, requestedHeu: delta, upgradeUrl: this.upgradeUrl });
  }

  /**
   * Charges the real cost in place of the estimate, in the same statement that re-checks the API key: when the key
   * was revoked while the request ran, the reservation is released instead and `keyActive` is false. Never more than
   * was reserved (the engines are held to it; this is the last guard). `via` runs it inside the caller's transaction.
   */
  async settle(reservation: Pick<Reservation, 'id' | 'heu'>, usage: { heu: number; inputTokens: number; outputTokens: number }, apiKeyId: string, via: Sql = this.sql): Promise<{ keyActive: boolean }> {
    const heu = Math.min(usage.heu, reservation.heu);
    const rows = await via.rows<{ active: boolean | null; n: string; pending: string }>('meter_settle', SETTLE_SQL, [
      apiKeyId, heu, usage.inputTokens, usage.outputTokens, reservation.id, reservation.heu,
    ]);
    if (Number(rows[0]?.pending) > 0) this.foldSoon();
    const keyActive = rows[0]?.active === true;
    if (keyActive && Number(rows[0]?.n) > 0) this.onSettled?.(heu);
    return { keyActive };
  }

  /** Gives the whole reservation back (the request failed: nothing is charged). `via`: inside the caller's transaction. */
  async release(reservation: Pick<Reservation, 'id' | 'heu'>, via: Sql = this.sql): Promise<void> {
    const rows = await via.rows<{ pending: string }>('meter_release', RELEASE_SQL, [reservation.id, reservation.heu]);
    if (Number(rows[0]?.pending) > 0) this.foldSoon();
  }

  /** Folds the give-backs pending (see giveBackCtes) into their buckets; answers how many buckets took some. */
  async fold(): Promise<number> {
    return this.sql.execute('meter_fold', FOLD_SQL, []);
  }

  /**
   * A fold shortly (coalesced): after the give-back's transaction has committed, as a rule. Whatever it misses (a
   * bucket busy then, a transaction slower to commit) the next one folds, or the periodic one (`foldEvery`).
   */
  foldSoon(): void {
    if (this.foldTimer) return;
    this.foldTimer = setTimeout(() => {
      this.foldTimer = undefined;
      this.fold().catch(() => {});
    }, FOLD_DELAY_MS);
    this.foldTimer.unref();
  }

  /** Folds every `ms` (each process that settles runs one); answers the function that stops it. */
  foldEvery(ms: number): () => void {
    const timer = setInterval(() => void this.fold().catch(() => {}), ms);
    timer.unref();
    return () => {
      clearInterval(timer);
      if (this.foldTimer) clearTimeout(this.foldTimer);
      this.foldTimer = undefined;
    };
  }

  /**
   * Gives the whole reservation back now, or, when the database cannot take it (it went away while the request ran),
   * as soon as it answers again: tried every 0.5 s doubling to 5 s, in the background, for as long as the reservation
   * would have lived (RESERVATION_TTL_MS; then the expiry sweep has it). A request cut off by a database outage so
   * holds its HEU only for the outage, not for the reservation's 15 minutes. Never throws.
   */
  async releaseSoon(reservation: Pick<Reservation, 'id' | 'heu'>): Promise<void> {
    try {
      await this.release(reservation);
    } catch {
      this.unreleased.set(reservation.id, { reservation, since: Date.now() });
      this.scheduleRetry();
    }
  }

  /** Reservations waiting for the database to be given back (see releaseSoon). */
  get pendingReleases(): number {
    return this.unreleased.size;
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => void this.retryReleases(), this.retryDelayMs);
    // A process stopping does not wait for it: what is left expires and is swept.
    this.retryTimer.unref();
  }

  private async retryReleases(): Promise<void> {
    this.retryTimer = undefined;
    let failed = false;
    for (const [id, { reservation, since }] of this.unreleased) {
      if (Date.now() - since > RESERVATION_TTL_MS) {
        this.unreleased.delete(id);
        continue;
      }
      try {
        await this.release(reservation);
        this.unreleased.delete(id);
      } catch {
        failed = true;
        break; // still away: the others wait for the next try
      }
    }
    this.retryDelayMs = failed ? Math.min(RELEASE_RETRY_MS.max, this.retryDelayMs * 2) : RELEASE_RETRY_MS.first;
    if (this.unreleased.size > 0) this.scheduleRetry();
  }

  /** Releases reservations older than their expiry (their request crashed). Safe to run on every instance. */
  async releaseExpired(now: Date): Promise<number> {
    return this.sql.execute('meter_release_expired', RELEASE_EXPIRED_SQL, [ts(now)]);
  }
}

/** The one policy the rate headers describe: the plan's requests in a one-minute window. */
const RATE_POLICY = '"minute"';
const RATE_WINDOW_SECONDS = 60;

/**
 * The rate-limit headers of an extraction answer: the current IETF draft's `RateLimit-Policy` and `RateLimit`
 * (https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/10/: Structured Field lists of a policy
 * name with `q` quota and `w` window in seconds, and of its state with `r` remaining and `t` seconds to reset), and
 * beside them the `RateLimit-Limit/-Remaining/-Reset` fields of its earlier revisions, which many clients read.
 */
export function rateHeaders(rate: RateState): Record<string, string> {
  return {
    'RateLimit-Limit': String(rate.limit),
    'RateLimit-Remaining': String(rate.remaining),
    'RateLimit-Reset': String(rate.resetSeconds),
    'RateLimit-Policy': `${RATE_POLICY};q=${rate.limit};w=${RATE_WINDOW_SECONDS}`,
    RateLimit: `${RATE_POLICY};r=${rate.remaining};t=${rate.resetSeconds}`,
  };
}

// The account's plan and its limits: $1 account, $2/$3 requests a minute (starter/free), $4/$5 HEU a month.
const ACCOUNT_LIMITS_CTE = `acct AS (
    SELECT a.plan,
           CASE a.plan WHEN 'starter' THEN $2::int ELSE $3::int END AS rpm,
           CASE a.plan WHEN 'starter' THEN $4::int ELSE $5::int END AS heu_limit
    FROM accounts a WHERE a.id = $1
  )`;

/** Counts the request in the minute starting at `window` if it has room (`count` is returned only then). */
const rateCte = (window: string, also = '') => `rate AS (
    INSERT INTO rate_windows AS r (account_id, window_start, count)
    SELECT $1, ${window}::timestamp(3), 1 FROM acct WHERE acct.rpm >= 1${also ? ` ${also}` : ''}
    ON CONFLICT (account_id, window_start) DO UPDATE SET count = r.count + 1
      WHERE r.count < (SELECT rpm FROM acct)
    RETURNING count
  )`;

// One statement: count the request if the minute has room, then (only then) reserve the HEU if the month has room,
// then record the reservation. Row locks taken by ON CONFLICT make concurrent requests queue on the account's rows,
// so neither limit can be passed; the snapshot values explain a refusal.
// $1 account, $2/$3 rpm (starter/free), $4/$5 HEU a month (starter/free), $6 minute window, $7 period, $8 estimate,
// $9 record id, $10 route, $11 request id, $12 now, $13 expiry, $14 whether to count the request (false on the second
// try with a smaller amount: the first already counted it).
const ADMIT_SQL = `
  WITH ${ACCOUNT_LIMITS_CTE},
  ${rateCte('$6', 'AND $14::boolean')},
  bucket AS (
    INSERT INTO usage_buckets AS b (account_id, period_start, heu_used)
    SELECT $1, $7::timestamp(3), $8::int FROM acct
    WHERE (EXISTS (SELECT 1 FROM rate) OR NOT $14::boolean) AND $8::int <= acct.heu_limit
    ON CONFLICT (account_id, period_start) DO UPDATE SET heu_used = b.heu_used + EXCLUDED.heu_used
      WHERE b.heu_used + EXCLUDED.heu_used <= (SELECT heu_limit FROM acct)
    RETURNING heu_used
  ),
  record AS (
    INSERT INTO usage_records (id, account_id, period_start, route, state, heu, request_id, created_at, expires_at)
    SELECT $9, $1, $7::timestamp(3), $10, 'reserved', $8::int, $11, $12::timestamp(3), $13::timestamp(3)
    WHERE EXISTS (SELECT 1 FROM bucket)
    RETURNING id
  )
  SELECT (SELECT plan::text FROM acct) AS plan,
         (SELECT count FROM rate) AS rate_count,
         (SELECT heu_used FROM bucket) AS reserved_total,
         (SELECT heu_used FROM usage_buckets WHERE account_id = $1 AND period_start = $7::timestamp(3)) AS used_before`;

// $1 account, $2/$3 rpm (starter/free), $4 minute window: counts the request if the minute has room (as ADMIT_SQL's
// rate step does); rate_count is null when it has none.
const COUNT_REQUEST_SQL = `
  WITH acct AS (
    SELECT a.plan, CASE a.plan WHEN 'starter' THEN $2::int ELSE $3::int END AS rpm FROM accounts a WHERE a.id = $1
  ),
  ${rateCte('$4')}
  SELECT (SELECT plan::text FROM acct) AS plan, (SELECT count FROM rate) AS rate_count`;

/** A bucket's give-backs still pending (zero or less), for reads that state the bucket (`$1` account, `$2` period). */
export const PENDING_GIVE_BACKS_SQL = (account: string, period: string) =>
  `COALESCE((SELECT SUM(heu)::int FROM usage_bucket_deltas WHERE account_id = ${account} AND period_start = ${period}), 0)`;

// $1 account, $2 period, $3 now: in one snapshot, the bucket's HEU used, those reserved by requests still running,
// and how long the oldest of them has run (a settle changes the record and the bucket in one statement, so the two
// sums agree).
const BUCKET_NOW_SQL = `
  SELECT (SELECT heu_used FROM usage_buckets WHERE account_id = $1 AND period_start = $2::timestamp(3)) + ${PENDING_GIVE_BACKS_SQL('$1', '$2::timestamp(3)')} AS used,
         COALESCE(SUM(heu), 0)::int AS reserved,
         COALESCE(EXTRACT(EPOCH FROM ($3::timestamp(3) - MIN(created_at))), 0)::float8 AS oldest_age_s
  FROM usage_records WHERE account_id = $1 AND period_start = $2::timestamp(3) AND state = 'reserved'`;

// As ADMIT_SQL, for the jobs of one request: the request counted once, the sum reserved, one record per job.
// $8 the sum, $9 the records' ids, $10 their HEU, $11 route, $12 request id, $13 now, $14 expiry.
const ADMIT_JOBS_SQL = `
  WITH ${ACCOUNT_LIMITS_CTE},
  bucket AS (
    INSERT INTO usage_buckets AS b (account_id, period_start, heu_used)
    SELECT $1, $6::timestamp(3), $7::int FROM acct
    WHERE $7::int <= acct.heu_limit
    ON CONFLICT (account_id, period_start) DO UPDATE SET heu_used = b.heu_used + EXCLUDED.heu_used
      WHERE b.heu_used + EXCLUDED.heu_used <= (SELECT heu_limit FROM acct)
    RETURNING heu_used
  ),
  record AS (
    INSERT INTO usage_records (id, account_id, period_start, route, state, heu, request_id, created_at, expires_at)
    SELECT j.id, $1, $6::timestamp(3), $10, 'reserved', j.heu, $11, $12::timestamp(3), $13::timestamp(3)
    FROM unnest($8::text[], $9::int[]) AS j(id, heu)
    WHERE EXISTS (SELECT 1 FROM bucket)
    RETURNING id
  )
  SELECT (SELECT plan::text FROM acct) AS plan,
         NULL::int AS rate_count,
         (SELECT heu_used FROM bucket) AS reserved_total,
         (SELECT count(*) FROM record) AS n,
         (SELECT heu_used FROM usage_buckets WHERE account_id = $1 AND period_start = $6::timestamp(3)) AS used_before`;

// A job's reservation resized by $7 HEU (of either sign): the bucket first, within the plan's limit when it grows, then
// the record, only if the bucket took it. $1 account, $2-$5 as ACCOUNT_LIMITS_CTE, $6 the reservation's id.
const RESIZE_SQL = `
  WITH ${ACCOUNT_LIMITS_CTE},
  rec AS (SELECT account_id, period_start FROM usage_records WHERE id = $6 AND account_id = $1 AND state = 'reserved'),
  bucket AS (
    UPDATE usage_buckets b SET heu_used = b.heu_used + $7::int
    FROM rec WHERE b.account_id = rec.account_id AND b.period_start = rec.period_start
      AND ($7::int <= 0 OR b.heu_used + $7::int <= (SELECT heu_limit FROM acct))
    RETURNING b.heu_used
  ),
  resized AS (
    UPDATE usage_records SET heu = heu + $7::int WHERE id = $6 AND state = 'reserved' AND EXISTS (SELECT 1 FROM bucket)
    RETURNING heu
  )
  SELECT (SELECT plan::text FROM acct) AS plan, (SELECT heu FROM resized) AS resized,
         (SELECT b.heu_used FROM usage_buckets b, rec WHERE b.account_id = rec.account_id AND b.period_start = rec.period_start) AS used`;

// Settling and releasing give HEU back to the bucket (never take): the bucket row is updated when it is free, and
// when another transaction holds it (jobs of the same account ending together), the give-back goes to a row of its
// own in usage_bucket_deltas instead, folded in soon after (FOLD_SQL). So job ends never queue on the account's one
// bucket row, and a bucket with give-backs pending reads fuller than it is, never emptier: admission, which does
// wait for the row, can only be stricter meanwhile, never overdraw it.
const giveBackCtes = (heu: string) => `free AS (
    SELECT b.account_id, b.period_start FROM usage_buckets b JOIN rec ON b.account_id = rec.account_id AND b.period_start = rec.period_start
    FOR UPDATE OF b SKIP LOCKED
  ),
  bucket AS (
    UPDATE usage_buckets b SET heu_used = b.heu_used + ${heu}
    FROM rec, free WHERE b.account_id = free.account_id AND b.period_start = free.period_start
    RETURNING 1
  ),
  pending AS (
    INSERT INTO usage_bucket_deltas (id, account_id, period_start, heu)
    SELECT rec.id, rec.account_id, rec.period_start, ${heu} FROM rec WHERE NOT EXISTS (SELECT 1 FROM bucket) AND ${heu} <> 0
    RETURNING 1
  )`;

// $1 key id, $2 real HEU, $3/$4 tokens, $5 reservation id, $6 reserved HEU.
const SETTLE_SQL = `
  WITH k AS (SELECT (revoked_at IS NULL) AS active FROM api_keys WHERE id = $1),
  rec AS (
    UPDATE usage_records
    SET state = CASE WHEN COALESCE((SELECT active FROM k), false) THEN 'settled' ELSE 'released' END::"UsageState",
        heu = CASE WHEN COALESCE((SELECT active FROM k), false) THEN $2::int ELSE 0 END,
        input_tokens = $3::int, output_tokens = $4::int
    WHERE id = $5 AND state = 'reserved'
    RETURNING id, account_id, period_start, heu
  ),
  ${giveBackCtes('(rec.heu - $6::int)')}
  SELECT COALESCE((SELECT active FROM k), false) AS active, (SELECT count(*) FROM rec) AS n, (SELECT count(*) FROM pending) AS pending`;

// $1 reservation id, $2 reserved HEU.
const RELEASE_SQL = `
  WITH rec AS (
    UPDATE usage_records SET state = 'released', heu = 0 WHERE id = $1 AND state = 'reserved'
    RETURNING id, account_id, period_start
  ),
  ${giveBackCtes('(-$2::int)')}
  SELECT (SELECT count(*) FROM pending) AS pending`;

// Give-backs pending (see giveBackCtes) folded into their buckets: each bucket row free now, with all its deltas
// visible, in one statement (a bucket busy now is left for the next fold; a delta is deleted by exactly one fold).
const FOLD_SQL = `
  WITH due AS (SELECT DISTINCT account_id, period_start FROM usage_bucket_deltas),
  free AS (
    SELECT b.account_id, b.period_start FROM usage_buckets b JOIN due ON b.account_id = due.account_id AND b.period_start = due.period_start
    FOR UPDATE OF b SKIP LOCKED
  ),
  gone AS (
    DELETE FROM usage_bucket_deltas d USING free WHERE d.account_id = free.account_id AND d.period_start = free.period_start
    RETURNING d.account_id, d.period_start, d.heu
  ),
  sums AS (SELECT account_id, period_start, SUM(heu)::int AS heu FROM gone GROUP BY account_id, period_start)
  UPDATE usage_buckets b SET heu_used = b.heu_used + sums.heu
  FROM sums WHERE b.account_id = sums.account_id AND b.period_start = sums.period_start`;

// $1 now.
const RELEASE_EXPIRED_SQL = `
  WITH rec AS (
    UPDATE usage_records r SET state = 'released', heu = 0
    FROM (SELECT id, heu FROM usage_records WHERE state = 'reserved' AND expires_at < $1::timestamp(3) FOR UPDATE SKIP LOCKED) old
    WHERE r.id = old.id
    RETURNING r.account_id, r.period_start, old.heu
  ),
  sums AS (SELECT account_id, period_start, SUM(heu)::int AS heu FROM rec GROUP BY account_id, period_start)
  UPDATE usage_buckets b SET heu_used = b.heu_used - sums.heu
  FROM sums WHERE b.account_id = sums.account_id AND b.period_start = sums.period_start`;

/** 429 for a minute's requests used up: when the window ends, and the rate headers saying so. */
function rateRefusal(planName: string, perMinute: number, windowEnd: Date, resetSeconds: number): ApiError {
  return new ApiError('too_many_requests', `The ${planName} plan allows ${perMinute} requests a minute.`,
    { reason: 'rate_limit', limit: perMinute, resetAt: windowEnd.toISOString() },
    { 'Retry-After': String(resetSeconds), ...rateHeaders({ limit: perMinute, remaining: 0, resetSeconds }) });
}
