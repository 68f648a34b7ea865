import { Router } from 'express';
import { principalOf } from '../auth/authenticate.js';
import type { PrismaClient } from '../db/database.js';
import { cursorParam } from '../http/cursor.js';
import type { Clock } from '../time/clock.js';
import type { DeadlineStatus } from './deadline.js';
import { getDocument, getRenewal, listRenewals, updateRenewal } from './renewals.js';

const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** Vendor renewals and stored documents (the contract has checked parameters and body before these run). */
export function renewalRoutes(prisma: PrismaClient, clock: Clock): Router {
  const router = Router();
  router.get('/v1/renewals', async (req, res) => {
    const { accountId } = principalOf(res);
    res.json(await listRenewals(prisma, accountId, {
      status: text(req.query.status) as DeadlineStatus | undefined,
      deadlineFrom: text(req.query.deadlineFrom),
      deadlineTo: text(req.query.deadlineTo),
      limit: req.query.limit === undefined ? 100 : Number(req.query.limit),
      cursor: cursorParam(req.query.cursor, 'renewal'),
    }, clock.now()));
  });
  router.get('/v1/renewals/:id', async (req, res) => {
    res.json(await getRenewal(prisma, principalOf(res).accountId, req.params.id, clock.now()));
  });
  router.patch('/v1/renewals/:id', async (req, res) => {
    res.json(await updateRenewal(prisma, principalOf(res).accountId, req.params.id, req.body, clock.now()));
  });
  router.get('/v1/documents/:id', async (req, res) => {
    res.json(await getDocument(prisma, principalOf(res).accountId, req.params.id));
  });
  return router;
}
