import { Router, type Request, type Response } from 'express';
import type { components } from '../../../generated/openapi.js';
import { principalOf } from '../auth/authenticate.js';
import type { Config } from '../config/config.js';
import type { PrismaClient } from '../db/database.js';
import { Documents } from '../documents/documents.js';
import { ApiError } from '../http/api-error.js';
import type { Meter } from '../metering/meter.js';
import type { Clock } from '../time/clock.js';
import { runBatch } from './batch.js';
import type { ExtractionEngine, FixedKind } from './engines/engine.js';
import { ModelChoice } from './engines/model-choice.js';
import { connectionSignal, type RevocationWatcher } from './request-guard.js';
import { metered } from './metered.js';
import { countFor, prepareInput } from './prepare-input.js';
import { assertVendorRenewal, type StoredRenewal } from './renewal/renewal-store.js';
import { reservationForItem, routeAnswer, runItem, type ItemInput } from './run-item.js';
import { dataSchemaFor, FIXED_KINDS } from './schemas/contract-schemas.js';
import { optionsOf, singleInput, type SingleInput } from './single-input.js';
import { findActiveKey, LAST_USED_RESOLUTION_MS, touchKey } from '../auth/key-lookup.js';
import type { Sql } from '../db/sql.js';
import type { Caller } from './caller.js';
import { prepareCustomSchema } from './schemas/custom-schema.js';
import type { ReviewService } from '../reviews/review-service.js';

type Schemas = components['schemas'];

export interface ExtractDeps {
  prisma: PrismaClient;
  sql: Sql;
  revocations: RevocationWatcher;
  engine: ExtractionEngine;
  documents: Documents;
  meter: Meter;
  clock: Clock;
  config: Config['extraction'];
  /** Reviews and the accounts' own calibrations (reviews/). */
  reviews?: ReviewService;
}

export function extractRoutes(deps: ExtractDeps): Router {
  const router = Router();
  // The engine of the model this request asked for (`model`), else of its route's default: refused before admission.
  const engineOf = (route: string, body: { model?: string }) => ModelChoice.resolve(deps.engine, route, body.model);
  const itemDeps = (req: Request, res: Response, engine: ExtractionEngine, stored: StoredRenewal[]) => ({ engine, documents: deps.documents, prisma: deps.prisma, accountId: principalOf(res).accountId, now: () => deps.clock.now(), log: req.log, stored, ...(deps.reviews ? { reviews: deps.reviews } : {}) });

  const prepare = (res: Response, input: SingleInput, signal: AbortSignal) => prepareInput(deps, res, input, signal);

  for (const kind of FIXED_KINDS) {
    router.post(`/v1/extract/${kind}`, (req, res) => whileConnected(res, async (connection) => {
      const input = singleInput(req);
      const engine = engineOf(kind, input);
      if (kind === 'renewal') await assertVendorRenewal(deps.prisma, principalOf(res).accountId, input.document.vendorRenewalId);
      const { prepared, counted } = await prepare(res, input, connection);
      const item: ItemInput = { task: { kind: kind as FixedKind }, schema: dataSchemaFor(kind), document: input.document, prepared, options: input.options };
      try {
        await metered(deps, req, res, kind, reservationForItem(engine, item), async (signal, heu, stored) => {
          const result = await runItem(itemDeps(req, res, engine, stored), item, signal, heu);
          return { body: routeAnswer(result), usage: result.usage };
        }, counted);
      } finally {
        Documents.release(prepared);
      }
    }));
  }

  router.post('/v1/extract/custom', (req, res) => whileConnected(res, async (connection) => {
    const input = singleInput(req);
    const engine = engineOf('custom', input);
    const schema = prepareCustomSchema(input.schema);
    const { prepared, counted } = await prepare(res, input, connection);
    const item: ItemInput = { task: { kind: 'custom', schema: input.schema as Record<string, unknown> }, schema, document: input.document, prepared, options: input.options };
    try {
      await metered(deps, req, res, 'custom', reservationForItem(engine, item), async (signal, heu, stored) => {
        const result = await runItem(itemDeps(req, res, engine, stored), item, signal, heu);
        return { body: routeAnswer(result), usage: result.usage };
      }, counted);
    } finally {
      Documents.release(prepared);
    }
  }));

  router.post('/v1/extract/batch', (req, res) => whileConnected(res, async (connection) => {
    const body = req.body as Schemas['BatchRequest'];
    const engine = engineOf('batch', body);
    const counted = body.items.some((item) => 'content' in item.document) ? await countFor(deps, res) : undefined;
    const batch = await runBatch.prepare(deps.prisma, deps.documents, engine, principalOf(res).accountId, body, connection);
    // The whole batch's worst case must fit (product decision): no smaller reservation for a batch.
    await metered(deps, req, res, 'batch', { wanted: batch.estimate, least: batch.estimate }, async (signal, _heu, stored) => {
      const answer = await runBatch.run(batch, itemDeps(req, res, engine, stored), deps.config.batchConcurrency, deps.config.batchTimeoutMs, signal);
      return { body: answer, usage: answer.usage };
    }, counted);
  }));

  // The dashboard's "Try a document": a session runs one extraction as one of its account's active keys, through the
  // same path and metering as `/v1/extract/*` with that key (rate, reservation, charge, the key's lastUsedAt). A key
  // revoked meanwhile stops it: 404 (the session is fine; its 401 would sign the dashboard out), nothing charged.
  router.post('/v1/keys/:id/extract', (req, res) => whileConnected(res, async (connection) => {
    const principal = principalOf(res);
    const key = await findActiveKey(deps.sql, principal.accountId, req.params.id!);
    if (!key) throw new ApiError('not_found', 'No active key of yours has this id.');
    const caller: Caller = { accountId: principal.accountId, apiKeyId: key.id, revoked: () => new ApiError('not_found', 'The key was revoked while the extraction ran; nothing was charged.') };
    await touchKey(deps.sql, key.id, deps.clock.now(), LAST_USED_RESOLUTION_MS);
    const body = req.body as Schemas['KeyExtractRequest'];
    const route = 'schema' in body ? 'custom' : body.kind;
    const engine = engineOf(route, body);
    const options = optionsOf(body);
    if (!('schema' in body) && body.kind === 'renewal') await assertVendorRenewal(deps.prisma, caller.accountId, body.document.vendorRenewalId);
    const schema = 'schema' in body ? prepareCustomSchema(body.schema) : dataSchemaFor(body.kind);
    const { prepared, counted } = await prepareInput(deps, res, body, connection, caller);
    const item: ItemInput = 'schema' in body
      ? { task: { kind: 'custom', schema: body.schema as Record<string, unknown> }, schema, document: body.document, prepared, options }
      : { task: { kind: body.kind }, schema, document: body.document, prepared, options };
    try {
      await metered(deps, req, res, route, reservationForItem(engine, item), async (signal, heu, stored) => {
        const result = await runItem(itemDeps(req, res, engine, stored), item, signal, heu);
        return { body: { kind: route, ...routeAnswer(result) }, usage: result.usage };
      }, counted, caller);
    } finally {
      Documents.release(prepared);
    }
  }));

  return router;
}

/**
 * Runs a route's work with a signal that aborts when the caller hangs up (its file's probe stops with it); a caller
 * gone gets no answer, and nothing is logged as a failure for it.
 */
export async function whileConnected(res: Response, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const connection = connectionSignal(res);
  try {
    await work(connection.signal);
  } catch (e) {
    if (connection.signal.aborted && e === connection.signal.reason) return;
    throw e;
  } finally {
    connection.stop();
  }
}
