import { Router } from 'express';
import { principalOf } from '../auth/authenticate.js';
import type { PlanTable } from '../config/plans.js';
import type { PrismaClient } from '../db/database.js';
import { ApiError } from '../http/api-error.js';
import type { Clock } from '../time/clock.js';
import { readAccountSummary } from './accounts.js';

export function accountRoutes(prisma: PrismaClient, plans: PlanTable, clock: Clock): Router {
  const router = Router();
  router.get('/v1/account', async (_req, res) => {
    const summary = await readAccountSummary(prisma, principalOf(res).accountId, plans, clock.now());
    if (!summary) throw new ApiError('not_found');
    res.json(summary);
  });
  return router;
}
