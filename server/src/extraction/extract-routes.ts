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
import type { ExtractionEngine } from './engines/engine.js';
import { ModelChoice } from './engines/model-choice.js';
import { ClientGone, KeyRevoked, type RevocationWatcher } from './request-guard.js';
import { discardRenewalDocuments, type StoredRenewal } from './renewal/renewal-store.js';
import { answerFor, itemFor, type ItemRoute } from './item-request.js';
import { reservationForItem, runItem } from './run-item.js';
import { FIXED_KINDS } from './schemas/contract-schemas.js';
import { singleInput } from './single-input.js';

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
): Promise<void> {
  const principal = principalOf(res);
  if (principal.via !== 'api_key') throw new ApiError('unauthorized');
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

  // A file is opened (probed) before admission, to reserve by its pages: a caller over its request rate is refused
  // first, so it cannot make the service open files.
  const rateRoomFor = async (res: Response) => {
    const principal = principalOf(res);
    if (principal.via === 'api_key') await deps.meter.assertRateRoom(principal.accountId, deps.clock.now());
  };

  // The single-document routes: the item checked before anything is reserved (item-request.ts, shared with jobs),
  // then metered and run.
  for (const route of [...FIXED_KINDS, 'custom'] as ItemRoute[]) {
    router.post(`/v1/extract/${route}`, async (req, res) => {
      const input = singleInput(req);
      const { engine, item } = await itemFor({ prisma: deps.prisma, documents: deps.documents, engine: deps.engine, beforeOpeningFile: () => rateRoomFor(res) }, principalOf(res).accountId, route, input);
      await metered(deps, req, res, route, reservationForItem(engine, item), async (signal, heu, stored) => {
        const result = await runItem(itemDeps(req, res, engine, stored), item, signal, heu);
        return { body: answerFor(result), usage: result.usage };
      });
    });
  }

  router.post('/v1/extract/batch', async (req, res) => {
    const body = req.body as Schemas['BatchRequest'];
    const engine = engineOf('batch', body);
    if (body.items.some((item) => item.document.content !== undefined)) await rateRoomFor(res);
    const batch = await runBatch.prepare(deps.prisma, deps.documents, engine, principalOf(res).accountId, body);
    // The whole batch's worst case must fit (product decision): no smaller reservation for a batch.
    await metered(deps, req, res, 'batch', { wanted: batch.estimate, least: batch.estimate }, async (signal, _heu, stored) => {
      const answer = await runBatch.run(batch, itemDeps(req, res, engine, stored), deps.config.batchConcurrency, deps.config.batchTimeoutMs, signal);
      return { body: answer, usage: answer.usage };
    });
  });

  return router;
}
