import type { components } from '../../../generated/openapi.js';
import { utcTimestamp as ts, type Sql } from '../db/sql.js';
import type { Clock } from '../time/clock.js';
import { applyMap, fitIsotonic, type MonotoneMap } from './isotonic.js';
import { reviewRepository } from './review-repository.js';

type Schemas = components['schemas'];

/** Reviewed values an engine and route need on an account before its confidences are fitted on them. */
export const MIN_CALIBRATION_VALUES = 200;

/**
 * Per-account recalibration: once an account has MIN_CALIBRATION_VALUES reviewed values of an engine and route, its
 * confidences there go through a monotone map fitted on them (isotonic regression of "right" on the engine's own
 * confidence), so `minConfidence` means what it says on that account's documents. Refitted at every resolution.
 */
export class AccountCalibrations {
  constructor(private readonly sql: Sql, private readonly clock: Clock) {}

  /** Fits the engine and route's map again on the account's labels, or drops it when too few remain. */
  async refit(accountId: string, engine: string, route: string): Promise<void> {
    const labels = await reviewRepository.labels(this.sql, accountId, engine, route);
    if (labels.length < MIN_CALIBRATION_VALUES) {
      await this.sql.execute('account_calibrations_drop', 'DELETE FROM account_calibrations WHERE account_id = $1 AND engine = $2 AND route = $3', [accountId, engine, route]);
      return;
    }
    const map = fitIsotonic(labels);
    await this.sql.execute('account_calibrations_upsert', `
      INSERT INTO account_calibrations (account_id, engine, route, map, value_count, fitted_at) VALUES ($1, $2, $3, $4, $5, $6::timestamp(3))
      ON CONFLICT (account_id, engine, route) DO UPDATE SET map = EXCLUDED.map, value_count = EXCLUDED.value_count, fitted_at = EXCLUDED.fitted_at`,
    [accountId, engine, route, JSON.stringify(map), labels.length, ts(this.clock.now())]);
  }

  /** The account's map for an engine and route, as a function, when it has one. */
  async mapFor(accountId: string, engine: string, route: string): Promise<((c: number) => number) | undefined> {
    const rows = await this.sql.rows<{ map: string }>('account_calibrations_find', 'SELECT map FROM account_calibrations WHERE account_id = $1 AND engine = $2 AND route = $3', [accountId, engine, route]);
    if (!rows[0]) return undefined;
    const map = JSON.parse(rows[0].map) as MonotoneMap;
    return (c) => applyMap(map, c);
  }

  /** `GET /v1/account`'s `calibratedRoutes`. */
  async list(accountId: string): Promise<Schemas['CalibratedRoute'][]> {
    const rows = await this.sql.rows<{ engine: string; route: string; values: number; fittedAt: Date }>('account_calibrations_list',
      `SELECT engine, route, value_count AS "values", fitted_at AT TIME ZONE 'UTC' AS "fittedAt" FROM account_calibrations WHERE account_id = $1 ORDER BY engine, route`, [accountId]);
    return rows.map((r) => ({ engine: r.engine, route: r.route, values: r.values, fittedAt: r.fittedAt.toISOString() }));
  }
}
