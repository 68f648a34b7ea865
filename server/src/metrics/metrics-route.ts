import { createHash, timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import type { Metrics } from './metrics.js';

/**
 * GET /metrics in Prometheus' text format. With METRICS_TOKEN set it answers only `Authorization: Bearer <token>`
 * (else 401): the figures say how busy the service is, which is for its operators.
 */
export function metricsRoute(metrics: Metrics, required: string | undefined): Router {
  const router = Router();
  // Compared as SHA-256 digests, in constant time whatever the lengths.
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const expected = required === undefined ? null : digest(required);
  router.get('/metrics', async (req, res) => {
    if (expected) {
      const presented = /^Bearer\s+(\S+)$/i.exec(req.header('authorization') ?? '')?.[1] ?? '';
      if (!timingSafeEqual(digest(presented), expected)) {
        res.status(401).type('text/plain').send('A metrics token is required (Authorization: Bearer).\n');
        return;
      }
    }
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return router;
}
