import { Router } from 'express';
import type pg from 'pg';
import type { components } from '../../../generated/openapi.js';
import { serveOpenapiJson, serveOpenapiYaml } from './published-contract.js';
import { noteAnsweredError } from '../http/logger.js';

type Schemas = components['schemas'];

/** Health probes and the published contract, byte for byte as in generated/ (gzipped when asked). */
export function metaRoutes(pool: pg.Pool, schema: { isReady(): boolean }): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' } satisfies Schemas['Liveness']);
  });
  router.get('/readyz', async (_req, res) => {
    let up = false;
    let cause: string | undefined;
    try {
      await pool.query('SELECT 1');
      up = true;
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      cause = typeof code === 'string' ? code : (e as Error).name;
    }
    // Up but not yet migrated (the service started while the database was down) is not ready either.
    const ready = up && schema.isReady();
    // A probe asks every few seconds while the database is away: each 503 is one warn line naming why, no stack.
    if (!ready) noteAnsweredError(res, { code: up ? 'schema_not_ready' : 'database_down', expected: true, ...(cause ? { cause } : {}) });
    res.status(ready ? 200 : 503).json({ ready, database: up ? 'up' : 'down' } satisfies Schemas['Readiness']);
  });
  // Cacheable (ETag, 304), gzipped when asked, and readable from any origin: published-contract.ts.
  router.get('/openapi.json', serveOpenapiJson);
  router.get('/openapi.yaml', serveOpenapiYaml);
  return router;
}
