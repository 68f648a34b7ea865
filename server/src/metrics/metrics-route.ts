import { timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import type { Metrics } from './metrics.js';

/**
 * GET /metrics in Prometheus' text format. With METRICS_TOKEN set it answers only `Authorization: Bearer <token>`
 * (else 401): the figures say how busy the service is, which is for its operators.
 */
export function metricsRoute(metrics: Metrics, token: string | undefined): Router {
  const router = Router();
  router.get('/metrics', async (req, res) => {
    if (token !== undefined) {
      const presented = /^Bearer\s+(\S+)$/i.exec(req.header('authorization') ?? '')?.[1] ?? '';
      const ok = presented.length === token.length && timingSafeEqual(Buffer.from(presented), Buffer.from(token));
      if (!ok) {
        res.status(401).type('text/plain').send('A metrics token is required (Authorization: Bearer).\n');
        return;
      }
    }
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return router;
}
