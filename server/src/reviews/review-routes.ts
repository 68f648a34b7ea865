import { Router, type Response } from 'express';
import type { components } from '../../../generated/openapi.js';
import { principalOf } from '../auth/authenticate.js';
import { ApiError } from '../http/api-error.js';
import type { Resolver, ReviewService } from './review-service.js';

type Schemas = components['schemas'];

/** The account behind an API key or a dashboard session (the calendar feed's token reads nothing here). */
function accountOf(res: Response): string {
  const p = principalOf(res);
  if (p.via === 'calendar_feed') throw new ApiError('unauthorized');
  return p.accountId;
}

/** Who resolves: the API key's id, or the dashboard session's subject. */
function resolverOf(res: Response): Resolver {
  const p = principalOf(res);
  return p.via === 'api_key' ? { kind: 'api_key', id: p.apiKeyId } : { kind: 'dashboard', id: p.accountId };
}

export function reviewRoutes(service: ReviewService): Router {
  const router = Router();

  router.get('/v1/reviews', async (req, res) => {
    const q = req.query as { status?: string; route?: string; limit?: string; cursor?: string };
    res.json(await service.list(accountOf(res), { status: q.status, route: q.route, limit: q.limit ? Number(q.limit) : 100, cursor: q.cursor }));
  });

  router.get('/v1/reviews/:id', async (req, res) => {
    res.json(await service.get(accountOf(res), req.params.id!));
  });

  router.get('/v1/reviews/:id/file', async (req, res) => {
    const { bytes, mediaType } = await service.file(accountOf(res), req.params.id!);
    res.status(200).type(mediaType).send(bytes);
  });

  router.post('/v1/reviews/:id/resolve', async (req, res) => {
    const body = req.body as Schemas['ResolveReviewRequest'];
    res.json(await service.resolve(accountOf(res), req.params.id!, body.data, resolverOf(res)));
  });

  router.delete('/v1/reviews/:id', async (req, res) => {
    res.json(await service.delete(accountOf(res), req.params.id!));
  });

  return router;
}
