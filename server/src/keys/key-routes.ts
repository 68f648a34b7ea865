import { Router } from 'express';
import type { operations } from '../../../generated/openapi.js';
import { principalOf } from '../auth/authenticate.js';
import type { PrismaClient } from '../db/database.js';
import { cursorParam } from '../http/cursor.js';
import type { Clock } from '../time/clock.js';
import { createApiKey, listApiKeys, revokeApiKey } from './keys.js';
import type { RevocationWatcher } from '../extraction/request-guard.js';
import type { KeyCache } from '../auth/key-cache.js';

type CreateBody = NonNullable<operations['createKey']['requestBody']>['content']['application/json'];

export function keyRoutes(prisma: PrismaClient, clock: Clock, keyCache: KeyCache, revocations: RevocationWatcher): Router {
  const router = Router();
  router.post('/v1/keys', async (req, res) => {
    const { accountId } = principalOf(res);
    const idempotencyKey = req.header('x-idempotency-key');
    const result = await createApiKey(prisma, accountId, req.body as CreateBody, idempotencyKey, clock.now());
    res.status(result.status).json(result.body);
  });
  router.get('/v1/keys', async (req, res) => {
    const { accountId } = principalOf(res);
    const limit = req.query.limit === undefined ? 100 : Number(req.query.limit);
    const cursor = cursorParam(req.query.cursor, 'id');
    res.json(await listApiKeys(prisma, accountId, limit, cursor));
  });
  router.delete('/v1/keys/:id', async (req, res) => {
    const { accountId } = principalOf(res);
    const record = await revokeApiKey(prisma, accountId, req.params.id, clock.now());
    keyCache.forgetKey(record.id);
    revocations.revoked(record.id);
    res.json(record);
  });
  return router;
}
