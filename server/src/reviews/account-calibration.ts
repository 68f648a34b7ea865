import type { components } from '../../../generated/openapi.js';
import { utcTimestamp as ts, type Sql } from '../db/sql.js';
import type { Clock } from '../time/clock.js';
import { applyPlatt, fitPlatt, type PlattMap } from './platt.js';
import { reviewRepository } from './review-repository.js';

type Schemas = components['schemas'];

/** Reviewed values an engine and route need on an account before its confidences are fitted on them. */
export const MIN_CALIBRATION_VALUES = 200;

/**
 * Per-account recalibration: once an account has MIN_CALIBRATION_VALUES reviewed values of an engine and route, its
 * confidences there go through a monotone map fitted on them (Platt scaling of "right" on the engine's own
 * confidence: it keeps the values' order, where an isotonic fit lost some of it; scripts/measure-review.ts compares
 * both), so `minConfidence` means what it says on that account's documents. Refitted at every resolution.
 */
export class AccountCalibrations {
  /**
   * Maps read recently, by account, engine and route (null: none), so an extraction does not pay a database round
   * trip for them: refitted here, an entry is replaced at once; refitted by another instance, it is seen within
   * CACHE_MS. Bounded: cleared whole past CACHE_ENTRIES (they are cheap to read again).
   */
  private readonly cache = new Map<string, { map: PlattMap | null; until: number }>();

  constructor(private readonly sql: Sql, private readonly clock: Clock) {}

  /** Fits the engine and route's map again on the account's labels, or drops it when too few remain. */
  async refit(accountId: string, engine: string, route: string): Promise<void> {
    const labels = await reviewRepository.labels(this.sql, accountId, engine, route);
    if (labels.length < MIN_CALIBRATION_VALUES) {
      await this.sql.execute('account_calibrations_drop', 'DELETE FROM account_calibrations WHERE account_id = $1 AND engine = $2 AND route = $3', [accountId, engine, route]);
      this.remember(accountId, engine, route, null);
      return;
    }
    const map = fitPlatt(labels);
    await this.sql.execute('account_calibrations_upsert', `
      INSERT INTO account_calibrations (account_id, engine, route, map, value_count, fitted_at) VALUES ($1, $2, $3, $4, $5, $6::timestamp(3))
      ON CONFLICT (account_id, engine, route) DO UPDATE SET map = EXCLUDED.map, value_count = EXCLUDED.value_count, fitted_at = EXCLUDED.fitted_at`,
    [accountId, engine, route, JSON.stringify(map), labels.length, ts(this.clock.now())]);
    this.remember(accountId, engine, route, map);
  }

  /** The account's map for an engine and route, as a function, when it has one. */
  async mapFor(accountId: string, engine: string, route: string): Promise<((c: number) => number) | undefined> {
    const cached = this.cache.get(cacheKey(accountId, engine, route));
    let map: PlattMap | null;
    if (cached && cached.until > Date.now()) map = cached.map;
    else {
      const rows = await this.sql.rows<{ map: string }>('account_calibrations_find', 'SELECT map FROM account_calibrations WHERE account_id = $1 AND engine = $2 AND route = $3', [accountId, engine, route]);
      map = rows[0] ? JSON.parse(rows[0].map) as PlattMap : null;
      this.remember(accountId, engine, route, map);
    }
    if (!map) return undefined;
    const fitted = map;
    return (c) => applyPlatt(fitted, c);
  }

  private remember(accountId: string, engine: string, route: string, map: PlattMap | null): void {
    if (this.cache.size >= CACHE_ENTRIES) this.cache.clear();
    this.cache.set(cacheKey(accountId, engine, route), { map, until: Date.now() + CACHE_MS });
  }

  /** `GET /v1/account`'s `calibratedRoutes`. */
  async list(accountId: string): Promise<Schemas['CalibratedRoute'][]> {
    const rows = await this.sql.rows<{ engine: string; route: string; values: number; fittedAt: Date }>('account_calibrations_list',
      `SELECT engine, route, value_count AS "values", fitted_at AT TIME ZONE 'UTC' AS "fittedAt" FROM account_calibrations WHERE account_id = $1 ORDER BY engine, route`, [accountId]);
    return rows.map((r) => ({ engine: r.engine, route: r.route, values: r.values, fittedAt: r.fittedAt.toISOString() }));
  }
}

const CACHE_MS = 30_000;
const CACHE_ENTRIES = 10_000;
const cacheKey = (accountId: string, engine: string, route: string) => `${accountId}\u0000${engine}\u0000${route}`;
