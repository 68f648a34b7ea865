import { Router, type Request, type Response } from 'express';
import type { components } from '../../../generated/openapi.js';
import { principalOf } from '../auth/authenticate.js';
import type { Config } from '../config/config.js';
import type { PrismaClient } from '../db/database.js';
import { Documents } from '../documents/documents.js';
import { ApiError } from '../http/api-error.js';
import { rateHeaders, type Meter, type RateState, type Reservation } from '../metering/meter.js';
import type { Clock } from '../time/clock.js';
import { runBatch } from './batch.js';
import type { ExtractionEngine, FixedKind } from './engines/engine.js';
import { ModelChoice } from './engines/model-choice.js';
import { ClientGone, connectionSignal, KeyRevoked, type RevocationWatcher } from './request-guard.js';
import { assertVendorRenewal, discardRenewalDocuments, type StoredRenewal } from './renewal/renewal-store.js';
import { reservationForItem, runItem, type ItemInput } from './run-item.js';
import { dataSchemaFor, FIXED_KINDS } from './schemas/contract-schemas.js';
import { singleInput, type SingleInput } from './single-input.js';
import { prepareCustomSchema } from './schemas/custom-schema.js';

type Schemas = components['schemas'];

export interface ExtractDeps {
  prisma: PrismaClient;
  revocations: RevocationWatcher;
  engine: ExtractionEngine;
  documents: Documents;
  meter: Meter;
  clock: Clock;
  config: Config['extraction'];
}

/**
 * Runs a metered extraction: admit (rate limit and HEU reservation), run with an abort signal tied to the caller
 * and its key, then settle (re-checking the key) or release. Nothing is charged for a failure.
 */
async function metered(
  deps: ExtractDeps,
  req: Request,
  res: Response,
  route: string,
  estimate: { wanted: number; least: number },
  work: (signal: AbortSignal, reservedHeu: number, stored: StoredRenewal[]) => Promise<{ body: unknown; usage: Schemas['Usage'] }>,
  counted?: RateState,
): Promise<void> {
  const principal = principalOf(res);
  if (principal.via !== 'api_key') throw new ApiError('unauthorized');
  const reservation: Reservation = await deps.meter.admit(principal.accountId, estimate, route, String(req.id ?? ''), deps.clock.now(), counted);
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
    if (reason instanceof KeyRevoked) throw new ApiError('invalid_api_key');
    if (reason instanceof ClientGone) return;
    throw e;
  } finally {
    guard.stop();
  }
  const { keyActive } = await deps.meter.settle(reservation, outcome.usage, principal.apiKeyId);
  if (!keyActive) {
    await discard();
    throw new ApiError('invalid_api_key');
  }
  for (const [name, value] of Object.entries(rateHeaders(reservation.rate))) res.setHeader(name, value);
  res.status(200).json(outcome.body);
}

export function extractRoutes(deps: ExtractDeps): Router {
  const router = Router();
  // The engine of the model this request asked for (`model`), else of its route's default: refused before admission.
  const engineOf = (route: string, body: { model?: string }) => ModelChoice.resolve(deps.engine, route, body.model);
  const itemDeps = (req: Request, res: Response, engine: ExtractionEngine, stored: StoredRenewal[]) => ({ engine, documents: deps.documents, prisma: deps.prisma, accountId: principalOf(res).accountId, now: () => deps.clock.now(), log: req.log, stored });

  // The document of a single-document route, checked before anything is reserved: a form's file as its bytes.
  // A file is opened (probed) before admission, to reserve by its pages. The request is counted against the minute's
  // rate first: a caller over it is refused 429, its file unopened, and a file refused once opened still counts. The
  // probe stops when the caller hangs up (`signal`), as the read does.
  const countFor = async (res: Response): Promise<RateState | undefined> => {
    const principal = principalOf(res);
    return principal.via === 'api_key' ? deps.meter.countRequest(principal.accountId, deps.clock.now()) : undefined;
  };
  const prepare = async (res: Response, input: SingleInput, signal: AbortSignal) => {
    const counted = input.file || input.document.content !== undefined ? await countFor(res) : undefined;
    // The process that probes the file reads it too, right after admission (released if the request stops before).
    const caller = { accountId: principalOf(res).accountId, signal, keepForRead: true };
    const prepared = input.file ? await deps.documents.prepareFile(input.file.bytes, input.file.mediaType, caller) : await deps.documents.prepare(input.document, caller);
    return { prepared, counted };
  };

  for (const kind of FIXED_KINDS) {
    router.post(`/v1/extract/${kind}`, (req, res) => whileConnected(res, async (connection) => {
      const input = singleInput(req);
      const engine = engineOf(kind, input);
      if (kind === 'renewal') await assertVendorRenewal(deps.prisma, principalOf(res).accountId, input.document.vendorRenewalId);
      const { prepared, counted } = await prepare(res, input, connection);
      const item: ItemInput = { task: { kind: kind as FixedKind }, schema: dataSchemaFor(kind), document: input.document, prepared, options: input.options };
      try {
        await metered(deps, req, res, kind, reservationForItem(engine, item), async (signal, heu, stored) => {
          const { data, model, usage, source, evidence, withheld, document } = await runItem(itemDeps(req, res, engine, stored), item, signal, heu);
          const body = document
            ? { document_id: document.id, vendor_renewal_id: document.vendorRenewalId, overall_status: document.overallStatus, data, model, usage, source, evidence, withheld, document }
            : { data, model, usage, source, evidence, withheld };
          return { body, usage };
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
        const { data, model, usage, source, evidence, withheld } = await runItem(itemDeps(req, res, engine, stored), item, signal, heu);
        return { body: { data, model, usage, source, evidence, withheld }, usage };
      }, counted);
    } finally {
      Documents.release(prepared);
    }
  }));

  router.post('/v1/extract/batch', (req, res) => whileConnected(res, async (connection) => {
    const body = req.body as Schemas['BatchRequest'];
    const engine = engineOf('batch', body);
    const counted = body.items.some((item) => item.document.content !== undefined) ? await countFor(res) : undefined;
    const batch = await runBatch.prepare(deps.prisma, deps.documents, engine, principalOf(res).accountId, body, connection);
    // The whole batch's worst case must fit (product decision): no smaller reservation for a batch.
    await metered(deps, req, res, 'batch', { wanted: batch.estimate, least: batch.estimate }, async (signal, _heu, stored) => {
      const answer = await runBatch.run(batch, itemDeps(req, res, engine, stored), deps.config.batchConcurrency, deps.config.batchTimeoutMs, signal);
      return { body: answer, usage: answer.usage };
    }, counted);
  }));

  return router;
}

/**
 * Runs a route's work with a signal that aborts when the caller hangs up (its file's probe stops with it); a caller
 * gone gets no answer, and nothing is logged as a failure for it.
 */
async function whileConnected(res: Response, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
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
