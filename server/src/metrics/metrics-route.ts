import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { Registry } from 'prom-client';
import type { Metrics } from './metrics.js';

/**
 * GET /metrics (this process's figures) and, where the process reports them, GET /metrics/queue (the database-wide
 * job gauges: see Metrics) in Prometheus' text format. With METRICS_TOKEN set they answer only
 * `Authorization: Bearer <token>` (else 401): the figures say how busy the service is, which is for its operators.
 */
export function metricsRoute(metrics: Metrics, required: string | undefined): Router {
  const router = Router();
  // Compared as SHA-256 digests, in constant time whatever the lengths.
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const expected = required === undefined ? null : digest(required);
  const serve = (registry: Registry) => async (req: Request, res: Response) => {
    if (expected) {
      const presented = /^Bearer\s+(\S+)$/i.exec(req.header('authorization') ?? '')?.[1] ?? '';
      if (!timingSafeEqual(digest(presented), expected)) {
        res.status(401).type('text/plain').send('A metrics token is required (Authorization: Bearer).\n');
        return;
      }
    }
    res.type(registry.contentType).send(await registry.metrics());
  };
  router.get('/metrics', serve(metrics.registry));
  if (metrics.queueRegistry) router.get('/metrics/queue', serve(metrics.queueRegistry));
  return router;
}
