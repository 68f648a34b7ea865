import { Router, type Request, type Response } from 'express';
import type { components } from '../../../generated/openapi.js';
import { principalOf } from '../auth/authenticate.js';
import type { Config } from '../config/config.js';
import type { PrismaClient } from '../db/database.js';
import type { Documents } from '../documents/documents.js';
import { ApiError } from '../http/api-error.js';
import { rateHeaders, type Meter, type Reservation } from '../metering/meter.js';
import type { Clock } from '../time/clock.js';
import { runBatch } from './batch.js';
import type { ExtractionEngine, FixedKind } from './engines/engine.js';
import { ModelChoice } from './engines/model-choice.js';
import { ClientGone, KeyRevoked, type RevocationWatcher } from './request-guard.js';
import { assertVendorRenewal, discardRenewalDocuments, type StoredRenewal } from './renewal/renewal-store.js';
import { reservationForItem, runItem, type ItemInput } from './run-item.js';
import { dataSchemaFor, FIXED_KINDS } from './schemas/contract-schemas.js';
import { optionsOf, singleInput, type SingleInput } from './single-input.js';
import { findActiveKey, LAST_USED_RESOLUTION_MS, touchKey } from '../auth/key-lookup.js';
import type { Sql } from '../db/sql.js';
import { prepareCustomSchema } from './schemas/custom-schema.js';

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
}

/** Who an extraction runs as: an account and one of its keys (the key that called, or the one the dashboard chose). */
interface Caller {
  accountId: string;
  apiKeyId: string;
  /** What a key revoked before the answer leaves is answered with. */
  revoked: () => ApiError;
}

/** The caller of `/v1/extract/*`: the API key it authenticated with; a revoked key is `401 invalid_api_key`. */
function apiKeyCaller(res: Response): Caller {
  const principal = principalOf(res);
  if (principal.via !== 'api_key') throw new ApiError('unauthorized');
  return { accountId: principal.accountId, apiKeyId: principal.apiKeyId, revoked: () => new ApiError('invalid_api_key') };
}

/**
 * Runs a metered extraction: admit (rate limit and HEU reservation), run with an abort signal tied to the caller
 * and its key, then settle (re-checking the key) or release. Nothing is charged for a failure.
 */
async function metered(
  deps: ExtractDeps,
  req: Request,
  res: Response,
  caller: Caller,
  route: string,
  estimate: { wanted: number; least: number },
  work: (signal: AbortSignal, reservedHeu: number, stored: StoredRenewal[]) => Promise<{ body: unknown; usage: Schemas['Usage'] }>,
): Promise<void> {
  const principal = caller;
  const reservation: Reservation = await deps.meter.admit(principal.accountId, estimate, route, String(req.id ?? ''), deps.clock.now());
  const guard = deps.revocations.guard(res, principal.apiKeyId);
  let outcome: { body: unknown; usage: Schemas['Usage'] };
  // Renewal documents this request stored: a refused request (its key revoked, its caller gone) leaves none.
  const stored: StoredRenewal[] = [];
  const discard = () => discardRenewalDocuments(deps.prisma, principal.accountId, stored).catch((err) => req.log?.warn({ err }, 'could not take back the documents of a refused request'));
  try {
    outcome = await work(guard.signal, reservation.heu, stored);
  } catch (e) {
    await deps.meter.release(reservation).catch(() => {});
    await discard();
    const reason = guard.signal.aborted ? guard.signal.reason : e;
    if (reason instanceof KeyRevoked) throw caller.revoked();
    if (reason instanceof ClientGone) return;
    throw e;
  } finally {
    guard.stop();
  }
  const { keyActive } = await deps.meter.settle(reservation, outcome.usage, principal.apiKeyId);
  if (!keyActive) {
    await discard();
    throw caller.revoked();
  }
  for (const [name, value] of Object.entries(rateHeaders(reservation.rate))) res.setHeader(name, value);
  res.status(200).json(outcome.body);
}

export function extractRoutes(deps: ExtractDeps): Router {
  const router = Router();
  // The engine of the model this request asked for (`model`), else of its route's default: refused before admission.
  const engineOf = (route: string, body: { model?: string }) => ModelChoice.resolve(deps.engine, route, body.model);
  const itemDeps = (req: Request, caller: Caller, engine: ExtractionEngine, stored: StoredRenewal[]) => ({ engine, documents: deps.documents, prisma: deps.prisma, accountId: caller.accountId, now: () => deps.clock.now(), log: req.log, stored });

  // The document of a single-document route, checked before anything is reserved: a form's file as its bytes.
  // A file is opened (probed) before admission, to reserve by its pages: a caller over its request rate is refused
  // first, so it cannot make the service open files.
  const rateRoomFor = (caller: Caller) => deps.meter.assertRateRoom(caller.accountId, deps.clock.now());
  const prepare = async (caller: Caller, input: Pick<SingleInput, 'file' | 'document'>) => {
    if (input.file || input.document.content !== undefined) await rateRoomFor(caller);
    return input.file ? deps.documents.prepareFile(input.file.bytes, input.file.mediaType) : deps.documents.prepare(input.document);
  };

  for (const kind of FIXED_KINDS) {
    router.post(`/v1/extract/${kind}`, async (req, res) => {
      const caller = apiKeyCaller(res);
      const input = singleInput(req);
      const engine = engineOf(kind, input);
      if (kind === 'renewal') await assertVendorRenewal(deps.prisma, caller.accountId, input.document.vendorRenewalId);
      const prepared = await prepare(caller, input);
      const item: ItemInput = { task: { kind: kind as FixedKind }, schema: dataSchemaFor(kind), document: input.document, prepared, options: input.options };
      await metered(deps, req, res, caller, kind, reservationForItem(engine, item), async (signal, heu, stored) => {
        const { data, model, usage, source, evidence, withheld, document } = await runItem(itemDeps(req, caller, engine, stored), item, signal, heu);
        const body = document
          ? { document_id: document.id, vendor_renewal_id: document.vendorRenewalId, overall_status: document.overallStatus, data, model, usage, source, evidence, withheld, document }
          : { data, model, usage, source, evidence, withheld };
        return { body, usage };
      });
    });
  }

  router.post('/v1/extract/custom', async (req, res) => {
    const caller = apiKeyCaller(res);
    const input = singleInput(req);
    const engine = engineOf('custom', input);
    const schema = prepareCustomSchema(input.schema);
    const prepared = await prepare(caller, input);
    const item: ItemInput = { task: { kind: 'custom', schema: input.schema as Record<string, unknown> }, schema, document: input.document, prepared, options: input.options };
    await metered(deps, req, res, caller, 'custom', reservationForItem(engine, item), async (signal, heu, stored) => {
      const { data, model, usage, source, evidence, withheld } = await runItem(itemDeps(req, caller, engine, stored), item, signal, heu);
      return { body: { data, model, usage, source, evidence, withheld }, usage };
    });
  });

  router.post('/v1/extract/batch', async (req, res) => {
    const caller = apiKeyCaller(res);
    const body = req.body as Schemas['BatchRequest'];
    const engine = engineOf('batch', body);
    if (body.items.some((item) => item.document.content !== undefined)) await rateRoomFor(caller);
    const batch = await runBatch.prepare(deps.prisma, deps.documents, engine, caller.accountId, body);
    // The whole batch's worst case must fit (product decision): no smaller reservation for a batch.
    await metered(deps, req, res, caller, 'batch', { wanted: batch.estimate, least: batch.estimate }, async (signal, _heu, stored) => {
      const answer = await runBatch.run(batch, itemDeps(req, caller, engine, stored), deps.config.batchConcurrency, deps.config.batchTimeoutMs, signal);
      return { body: answer, usage: answer.usage };
    });
  });

  // The dashboard's "Try a document": a session runs one extraction as one of its account's active keys, through the
  // same path and metering as `/v1/extract/*` with that key (rate, reservation, charge, the key's lastUsedAt). A key
  // revoked meanwhile stops it: 404 (the session is fine; its 401 would sign the dashboard out), nothing charged.
  router.post('/v1/keys/:id/extract', async (req, res) => {
    const principal = principalOf(res);
    const key = await findActiveKey(deps.sql, principal.accountId, req.params.id!);
    if (!key) throw new ApiError('not_found', 'No active key of yours has this id.');
    const caller: Caller = { accountId: principal.accountId, apiKeyId: key.id, revoked: () => new ApiError('not_found', 'The key was revoked while the extraction ran; nothing was charged.') };
    await touchKey(deps.sql, key.id, deps.clock.now(), LAST_USED_RESOLUTION_MS);
    const body = req.body as Schemas['KeyExtractRequest'];
    const route = 'schema' in body ? 'custom' : body.kind;
    const engine = engineOf(route, body);
    const options = optionsOf(body);
    let item: ItemInput;
    if ('schema' in body) {
      const schema = prepareCustomSchema(body.schema);
      item = { task: { kind: 'custom', schema: body.schema as Record<string, unknown> }, schema, document: body.document, prepared: await prepare(caller, body), options };
    } else {
      if (body.kind === 'renewal') await assertVendorRenewal(deps.prisma, caller.accountId, body.document.vendorRenewalId);
      item = { task: { kind: body.kind }, schema: dataSchemaFor(body.kind), document: body.document, prepared: await prepare(caller, body), options };
    }
    await metered(deps, req, res, caller, route, reservationForItem(engine, item), async (signal, heu, stored) => {
      const { data, model, usage, source, evidence, withheld, document } = await runItem(itemDeps(req, caller, engine, stored), item, signal, heu);
      const renewal = document ? { overall_status: document.overallStatus, document_id: document.id, vendor_renewal_id: document.vendorRenewalId, document } : {};
      return { body: { kind: route, data, model, usage, source, evidence, withheld, ...renewal }, usage };
    });
  });

  return router;
}
