import { Router } from 'express';
import { principalOf } from '../auth/authenticate.js';
import type { PlanTable } from '../config/plans.js';
import type { Sql } from '../db/sql.js';
import { ApiError } from '../http/api-error.js';
import type { Clock } from '../time/clock.js';
import { readAccountSummary } from './accounts.js';

/** The routes an account's confidences are fitted on its own reviews for (reviews/account-calibration.ts). */
export type CalibratedRoutes = (accountId: string) => Promise<Array<{ engine: string; route: string; values: number; fittedAt: string }>>;

export function accountRoutes(sql: Sql, plans: PlanTable, clock: Clock, calibratedRoutes: CalibratedRoutes = async () => []): Router {
  const router = Router();
  router.get('/v1/account', async (_req, res) => {
    const summary = await readAccountSummary(sql, principalOf(res).accountId, plans, clock.now());
    if (!summary) throw new ApiError('not_found');
    res.json({ ...summary, calibratedRoutes: await calibratedRoutes(principalOf(res).accountId) });
  });
  return router;
}
