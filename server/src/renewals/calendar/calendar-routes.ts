import { Router } from 'express';
import { principalOf } from '../../auth/authenticate.js';
import { readFeedState, resetFeedToken, revokeFeedToken } from '../../auth/feed-tokens.js';
import type { PrismaClient } from '../../db/database.js';
import type { Clock } from '../../time/clock.js';
import { allRenewals } from '../renewals.js';
import { buildCalendar } from './ics.js';

/** The calendar feed and its token. Registered before /v1/renewals/:id, whose pattern would match these paths. */
export function calendarRoutes(prisma: PrismaClient, clock: Clock, publicUrl: string): Router {
  const router = Router();
  router.get('/v1/renewals/calendar.ics', async (_req, res) => {
    const now = clock.now();
    const calendar = buildCalendar(await allRenewals(prisma, principalOf(res).accountId, now), now, publicUrl);
    res.type('text/calendar; charset=utf-8').setHeader('Content-Disposition', 'inline; filename="renewals.ics"');
    res.send(calendar.toString());
  });
  router.get('/v1/renewals/calendar-feed', async (_req, res) => {
    res.json(await readFeedState(prisma, principalOf(res).accountId));
  });
  router.post('/v1/renewals/calendar-feed', async (_req, res) => {
    const created = await resetFeedToken(prisma, principalOf(res).accountId, clock.now());
    const url = `${publicUrl}/v1/renewals/calendar.ics?token=${encodeURIComponent(created.token)}`;
    res.status(201).json({ ...created, url });
  });
  router.delete('/v1/renewals/calendar-feed', async (_req, res) => {
    res.json(await revokeFeedToken(prisma, principalOf(res).accountId));
  });
  return router;
}
