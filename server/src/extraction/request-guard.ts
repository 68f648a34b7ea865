import type { Response } from 'express';
import type { PrismaClient } from '../db/database.js';

/** Why an extraction stopped before its answer. */
export class KeyRevoked extends Error {}
export class ClientGone extends Error {}

const POLL_MS = 250;

export interface RequestGuard {
  signal: AbortSignal;
  stop(): void;
}

/**
 * Aborts the model call when the caller disconnects or its API key is revoked. The key is polled only while the
 * engine runs longer than a poll interval, so fast extractions cost no extra database round trip.
 */
export function guardRequest(res: Response, prisma: PrismaClient, apiKeyId: string): RequestGuard {
  const controller = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) controller.abort(new ClientGone('the client disconnected'));
  };
  res.on('close', onClose);
  let timer: NodeJS.Timeout | undefined;
  const poll = () => {
    timer = setTimeout(async () => {
      try {
        const key = await prisma.apiKey.findUnique({ where: { id: apiKeyId }, select: { revokedAt: true } });
        if (!key || key.revokedAt) {
          controller.abort(new KeyRevoked('the API key was revoked'));
          return;
        }
      } catch {
        // A failed poll is not a revocation; the settle step checks the key again.
      }
      if (!controller.signal.aborted) poll();
    }, POLL_MS);
    timer.unref();
  };
  poll();
  return {
    signal: controller.signal,
    stop() {
      clearTimeout(timer);
      res.off('close', onClose);
    },
  };
}
