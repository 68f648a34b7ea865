import type { Request, Response } from 'express';
import type { components } from '../../../generated/openapi.js';
import type { PrismaClient } from '../db/database.js';
import { rateHeaders, type Meter, type RateState, type Reservation } from '../metering/meter.js';
import type { Clock } from '../time/clock.js';
import { apiKeyCaller, type Caller } from './caller.js';
import { ClientGone, KeyRevoked, type RevocationWatcher } from './request-guard.js';
import { discardRenewalDocuments, type StoredRenewal } from './renewal/renewal-store.js';

type Schemas = components['schemas'];

/** What a metered call needs: the database (renewal records), the key watcher, the meter and the clock. */
export interface MeteredDeps {
  prisma: PrismaClient;
  revocations: RevocationWatcher;
  meter: Meter;
  clock: Clock;
}

/**
 * Runs a metered extraction: admit (rate limit and HEU reservation), run with an abort signal tied to the caller
 * and its key, then settle (re-checking the key) or release. Nothing is charged for a failure. `counted`: the request
 * was counted against the minute's rate already, before its file was opened (prepare-input.ts). `caller`: the account
 * and key it runs as (by default the API key that called).
 */
export async function metered(
  deps: MeteredDeps,
  req: Request,
  res: Response,
  route: string,
  estimate: { wanted: number; least: number },
  work: (signal: AbortSignal, reservedHeu: number, stored: StoredRenewal[]) => Promise<{ body: unknown; usage: Schemas['Usage'] }>,
  counted?: RateState,
  caller: Caller = apiKeyCaller(res),
): Promise<void> {
  const principal = caller;
  const reservation: Reservation = await deps.meter.admit(principal.accountId, estimate, route, String(req.id ?? ''), deps.clock.now(), counted);
  const guard = deps.revocations.guard(res, principal.apiKeyId);
  let outcome: { body: unknown; usage: Schemas['Usage'] };
  // Renewal documents this request stored: a refused request (its key revoked, its caller gone) leaves none.
  const stored: StoredRenewal[] = [];
  const discard = () => discardRenewalDocuments(deps.prisma, principal.accountId, stored).catch((err) => req.log?.warn({ err }, 'could not take back the documents of a refused request'));
  try {
    outcome = await work(guard.signal, reservation.heu, stored);
  } catch (e) {
    // Nothing is charged for a failure; with the database away, the HEU are given back as soon as it returns.
    await deps.meter.releaseSoon(reservation);
    await discard();
    const reason = guard.signal.aborted ? guard.signal.reason : e;
    if (reason instanceof KeyRevoked) throw caller.revoked();
    if (reason instanceof ClientGone) return;
    throw e;
  } finally {
    guard.stop();
  }
  let keyActive: boolean;
  try {
    ({ keyActive } = await deps.meter.settle(reservation, outcome.usage, principal.apiKeyId));
  } catch (e) {
    // The charge could not be written (the database went away while the work ran): the caller is answered the error
    // (503) and not charged, and the reservation is given back once the database answers, not held until it expires.
    await deps.meter.releaseSoon(reservation);
    await discard();
    throw e;
  }
  if (!keyActive) {
    await discard();
    throw caller.revoked();
  }
  for (const [name, value] of Object.entries(rateHeaders(reservation.rate))) res.setHeader(name, value);
  res.status(200).json(outcome.body);
}

