import type { PlanName, PlanTable } from '../config/plans.js';
import { utcTimestamp as ts, type Sql } from '../db/sql.js';
import { ApiError } from '../http/api-error.js';
import { newId } from '../ids/ids.js';
import { monthStart, nextMonthStart } from '../time/clock.js';

/** How long a reservation may stay unsettled before the sweeper gives its HEU back (a crashed request). */
export const RESERVATION_TTL_MS = 15 * 60 * 1000;

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
   * the request again.
   */
  async admit(accountId: string, amount: number | { wanted: number; least: number }, route: string, requestId: string | undefined, now: Date): Promise<Reservation> {
    const { wanted, least } = typeof amount === 'number' ? { wanted: amount, least: amount } : amount;
    const first = await this.tryAdmit(accountId, wanted, true, route, requestId, now);
    if (first.reservation) return first.reservation;
    const left = first.plan.heuPerMonth - first.used;
    if (first.rate && left < wanted && left >= least && left > 0) {
      const second = await this.tryAdmit(accountId, left, false, route, requestId, now, first.rate);
      if (second.reservation) return second.reservation;
      throw this.refusal(second, least, now);
    }
    throw this.refusal(first, least, now);
  }

  /**
   * Refuses (429, as `admit` would) a request whose account has used this minute's requests already, without
   * counting it: asked before work that comes ahead of admission (opening a caller's file to learn its pages), so a
   * throttled caller cannot make the service do it. `admit` still counts and decides.
   */
  async assertRateRoom(accountId: string, now: Date): Promise<void> {
    const window = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
    const rows = await this.sql.rows<{ plan: string; count: number | null }>('meter_rate_room', RATE_ROOM_SQL, [accountId, ts(window)]);
    const row = rows[0];
    if (!row?.plan) throw new ApiError('invalid_api_key');
    const plan = this.plans[row.plan as keyof PlanTable];
    if ((row.count ?? 0) < plan.requestsPerMinute) return;
    const windowEnd = new Date(window.getTime() + 60_000);
    const resetSeconds = Math.max(1, Math.ceil((windowEnd.getTime() - now.getTime()) / 1000));
    throw new ApiError('too_many_requests', `The ${row.plan} plan allows ${plan.requestsPerMinute} requests a minute.`,
      { reason: 'rate_limit', limit: plan.requestsPerMinute, resetAt: windowEnd.toISOString() },
      { 'Retry-After': String(resetSeconds), ...rateHeaders({ limit: plan.requestsPerMinute, remaining: 0, resetSeconds }) });
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
      throw new ApiError('too_many_requests', `The ${row.plan} plan allows ${plan.requestsPerMinute} requests a minute.`,
        { reason: 'rate_limit', limit: plan.requestsPerMinute, resetAt: windowEnd.toISOString() },
        { 'Retry-After': String(resetSeconds), ...rateHeaders({ limit: plan.requestsPerMinute, remaining: 0, resetSeconds }) });
    }
    const rate = counted ?? { limit: plan.requestsPerMinute, remaining: Math.max(0, plan.requestsPerMinute - (row.rate_count ?? 0)), resetSeconds };
    const used = Number(row.used_before ?? 0);
    if (row.reserved_total === null) return { planName: row.plan, plan, used, rate, reservation: null };
    return { planName: row.plan, plan, used, rate, reservation: { id, heu, rate } };
  }

  private refusal(attempt: Attempt, least: number, now: Date): ApiError {
    const { plan, planName, used, rate } = attempt;
    if (used >= plan.heuPerMonth) {
      const next = nextMonthStart(now);
      return new ApiError('too_many_requests', `This month's ${plan.heuPerMonth} HEU are used up.`,
        { reason: 'heu_bucket', limit: plan.heuPerMonth, resetAt: next.toISOString() },
        { 'Retry-After': String(Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000))), ...rateHeaders(rate) });
    }
    return new ApiError('plan_limit_exceeded', `This request needs at least ${least} HEU; ${plan.heuPerMonth - used} are left this month.`,
      { plan: planName, bucketHeu: plan.heuPerMonth - used, requestedHeu: least, upgradeUrl: this.upgradeUrl },
      rateHeaders(rate));
  }

  /**
   * Admits a request that creates jobs (one, or a batch): counts it once in the minute's window and reserves each
   * job's worst case as its own reservation, under the id given (each is settled or released when its job ends), all
   * of them or none:
   * 429 or 402 as `admit` answers. `via` runs it inside the caller's transaction. Job reservations are not swept after
   * RESERVATION_TTL_MS: a queued job may wait longer than a request runs; they expire at `expiresAt`.
   */
  async admitJobs(accountId: string, reservations: Array<{ id: string; heu: number }>, route: string, requestId: string | undefined, now: Date, expiresAt: Date, via: Sql = this.sql): Promise<Reservation[]> {
    const period = monthStart(now);
    const window = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
    const windowEnd = new Date(window.getTime() + 60_000);
    const ids = reservations.map((r) => r.id);
    const amounts = reservations.map((r) => r.heu);
    const total = amounts.reduce((a, b) => a + b, 0);
    const { free, starter } = this.plans;
    const rows = await via.rows<AdmitRow>('meter_admit_jobs', ADMIT_JOBS_SQL, [
      accountId, starter.requestsPerMinute, free.requestsPerMinute, starter.heuPerMonth, free.heuPerMonth,
      ts(window), ts(period), total, ids, amounts, route, requestId ?? null, ts(now), ts(expiresAt),
    ]);
    const row = rows[0];
    if (!row?.plan) throw new ApiError('invalid_api_key');
    const plan = this.plans[row.plan];
    const resetSeconds = Math.max(1, Math.ceil((windowEnd.getTime() - now.getTime()) / 1000));
    if (row.rate_count === null) {
      throw new ApiError('too_many_requests', `The ${row.plan} plan allows ${plan.requestsPerMinute} requests a minute.`,
        { reason: 'rate_limit', limit: plan.requestsPerMinute, resetAt: windowEnd.toISOString() },
        { 'Retry-After': String(resetSeconds), ...rateHeaders({ limit: plan.requestsPerMinute, remaining: 0, resetSeconds }) });
    }
    const rate = { limit: plan.requestsPerMinute, remaining: Math.max(0, plan.requestsPerMinute - row.rate_count), resetSeconds };
    if (row.reserved_total === null) throw this.refusal({ planName: row.plan, plan, used: Number(row.used_before ?? 0), rate, reservation: null }, total, now);
    return ids.map((id, i) => ({ id, heu: amounts[i]!, rate }));
  }

  /**
   * Charges the real cost in place of the estimate, in the same statement that re-checks the API key: when the key
   * was revoked while the request ran, the reservation is released instead and `keyActive` is false. Never more than
   * was reserved (the engines are held to it; this is the last guard). `via` runs it inside the caller's transaction.
   */
  async settle(reservation: Pick<Reservation, 'id' | 'heu'>, usage: { heu: number; inputTokens: number; outputTokens: number }, apiKeyId: string, via: Sql = this.sql): Promise<{ keyActive: boolean }> {
    const heu = Math.min(usage.heu, reservation.heu);
    const rows = await via.rows<{ active: boolean | null; n: string }>('meter_settle', SETTLE_SQL, [
      apiKeyId, heu, usage.inputTokens, usage.outputTokens, reservation.id, reservation.heu,
    ]);
    const keyActive = rows[0]?.active === true;
    if (keyActive && Number(rows[0]?.n) > 0) this.onSettled?.(heu);
    return { keyActive };
  }

  /** Gives the whole reservation back (the request failed: nothing is charged). `via`: inside the caller's transaction. */
  async release(reservation: Pick<Reservation, 'id' | 'heu'>, via: Sql = this.sql): Promise<void> {
    await via.execute('meter_release', RELEASE_SQL, [reservation.id, reservation.heu]);
  }

  /** Releases reservations older than their expiry (their request crashed). Safe to run on every instance. */
  async releaseExpired(now: Date): Promise<number> {
    return this.sql.execute('meter_release_expired', RELEASE_EXPIRED_SQL, [ts(now)]);
  }
}

export function rateHeaders(rate: RateState): Record<string, string> {
  return { 'RateLimit-Limit': String(rate.limit), 'RateLimit-Remaining': String(rate.remaining), 'RateLimit-Reset': String(rate.resetSeconds) };
}

// One statement: count the request if the minute has room, then (only then) reserve the HEU if the month has room,
// then record the reservation. Row locks taken by ON CONFLICT make concurrent requests queue on the account's rows,
// so neither limit can be passed; the snapshot values explain a refusal.
// $1 account, $2/$3 rpm (starter/free), $4/$5 HEU a month (starter/free), $6 minute window, $7 period, $8 estimate,
// $9 record id, $10 route, $11 request id, $12 now, $13 expiry, $14 whether to count the request (false on the second
// try with a smaller amount: the first already counted it).
const ADMIT_SQL = `
  WITH acct AS (
    SELECT a.plan,
           CASE a.plan WHEN 'starter' THEN $2::int ELSE $3::int END AS rpm,
           CASE a.plan WHEN 'starter' THEN $4::int ELSE $5::int END AS heu_limit
    FROM accounts a WHERE a.id = $1
  ),
  rate AS (
    INSERT INTO rate_windows AS r (account_id, window_start, count)
    SELECT $1, $6::timestamp(3), 1 FROM acct WHERE acct.rpm >= 1 AND $14::boolean
    ON CONFLICT (account_id, window_start) DO UPDATE SET count = r.count + 1
      WHERE r.count < (SELECT rpm FROM acct)
    RETURNING count
  ),
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

// As ADMIT_SQL, for the jobs of one request: the request counted once, the sum reserved, one record per job.
// $8 the sum, $9 the records' ids, $10 their HEU, $11 route, $12 request id, $13 now, $14 expiry.
const ADMIT_JOBS_SQL = `
  WITH acct AS (
    SELECT a.plan,
           CASE a.plan WHEN 'starter' THEN $2::int ELSE $3::int END AS rpm,
           CASE a.plan WHEN 'starter' THEN $4::int ELSE $5::int END AS heu_limit
    FROM accounts a WHERE a.id = $1
  ),
  rate AS (
    INSERT INTO rate_windows AS r (account_id, window_start, count)
    SELECT $1, $6::timestamp(3), 1 FROM acct WHERE acct.rpm >= 1
    ON CONFLICT (account_id, window_start) DO UPDATE SET count = r.count + 1
      WHERE r.count < (SELECT rpm FROM acct)
    RETURNING count
  ),
  bucket AS (
    INSERT INTO usage_buckets AS b (account_id, period_start, heu_used)
    SELECT $1, $7::timestamp(3), $8::int FROM acct
    WHERE EXISTS (SELECT 1 FROM rate) AND $8::int <= acct.heu_limit
    ON CONFLICT (account_id, period_start) DO UPDATE SET heu_used = b.heu_used + EXCLUDED.heu_used
      WHERE b.heu_used + EXCLUDED.heu_used <= (SELECT heu_limit FROM acct)
    RETURNING heu_used
  ),
  record AS (
    INSERT INTO usage_records (id, account_id, period_start, route, state, heu, request_id, created_at, expires_at)
    SELECT j.id, $1, $7::timestamp(3), $11, 'reserved', j.heu, $12, $13::timestamp(3), $14::timestamp(3)
    FROM unnest($9::text[], $10::int[]) AS j(id, heu)
    WHERE EXISTS (SELECT 1 FROM bucket)
    RETURNING id
  )
  SELECT (SELECT plan::text FROM acct) AS plan,
         (SELECT count FROM rate) AS rate_count,
         (SELECT heu_used FROM bucket) AS reserved_total,
         (SELECT count(*) FROM record) AS n,
         (SELECT heu_used FROM usage_buckets WHERE account_id = $1 AND period_start = $7::timestamp(3)) AS used_before`;

// $1 account, $2 minute window: the account's plan and the requests counted in this minute so far (read only).
const RATE_ROOM_SQL = `
  SELECT a.plan::text AS plan, (SELECT r.count FROM rate_windows r WHERE r.account_id = $1 AND r.window_start = $2::timestamp(3)) AS count
  FROM accounts a WHERE a.id = $1`;

// $1 key id, $2 real HEU, $3/$4 tokens, $5 reservation id, $6 reserved HEU.
const SETTLE_SQL = `
  WITH k AS (SELECT (revoked_at IS NULL) AS active FROM api_keys WHERE id = $1),
  rec AS (
    UPDATE usage_records
    SET state = CASE WHEN COALESCE((SELECT active FROM k), false) THEN 'settled' ELSE 'released' END::"UsageState",
        heu = CASE WHEN COALESCE((SELECT active FROM k), false) THEN $2::int ELSE 0 END,
        input_tokens = $3::int, output_tokens = $4::int
    WHERE id = $5 AND state = 'reserved'
    RETURNING account_id, period_start, heu
  ),
  bucket AS (
    UPDATE usage_buckets b SET heu_used = b.heu_used - $6::int + rec.heu
    FROM rec WHERE b.account_id = rec.account_id AND b.period_start = rec.period_start
    RETURNING 1
  )
  SELECT COALESCE((SELECT active FROM k), false) AS active, (SELECT count(*) FROM bucket) AS n`;

// $1 reservation id, $2 reserved HEU.
const RELEASE_SQL = `
  WITH rec AS (
    UPDATE usage_records SET state = 'released', heu = 0 WHERE id = $1 AND state = 'reserved'
    RETURNING account_id, period_start
  )
  UPDATE usage_buckets b SET heu_used = b.heu_used - $2::int
  FROM rec WHERE b.account_id = rec.account_id AND b.period_start = rec.period_start`;

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
