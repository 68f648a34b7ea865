import type { Response } from 'express';
import { principalOf } from '../auth/authenticate.js';
import type { Documents, PreparedDocument } from '../documents/documents.js';
import type { Meter, RateState } from '../metering/meter.js';
import type { Clock } from '../time/clock.js';
import type { Caller } from './caller.js';
import type { SingleInput } from './single-input.js';

interface PrepareDeps {
  documents: Documents;
  meter: Meter;
  clock: Clock;
}

/**
 * Counts the request against the minute's rate now, before any work ahead of admission (opening a caller's file): a
 * caller over it is refused 429 with its file unopened, and a file refused once opened still counts. Admission then
 * does not count it again (`counted`).
 */
export async function countFor(deps: PrepareDeps, res: Response, caller?: Caller): Promise<RateState | undefined> {
  const principal = principalOf(res);
  const accountId = caller?.accountId ?? (principal.via === 'api_key' ? principal.accountId : undefined);
  return accountId === undefined ? undefined : deps.meter.countRequest(accountId, deps.clock.now());
}

/**
 * The document of a single-document route, checked before anything is reserved: a form's file as its bytes. A file is
 * opened (probed) before admission, to reserve by its pages, counted first (`countFor`); the probe stops when the
 * caller hangs up (`signal`), and the process that probed the file reads it too, right after admission (released by
 * `Documents.release` if the request stops before).
 */
export async function prepareInput(deps: PrepareDeps, res: Response, input: Pick<SingleInput, 'file' | 'document'>, signal: AbortSignal, caller?: Caller): Promise<{ prepared: PreparedDocument; counted: RateState | undefined }> {
  const counted = input.file || input.document.content !== undefined ? await countFor(deps, res, caller) : undefined;
  const reader = { accountId: caller?.accountId ?? principalOf(res).accountId, signal, keepForRead: true };
  const prepared = input.file ? await deps.documents.prepareFile(input.file.bytes, input.file.mediaType, reader) : await deps.documents.prepare(input.document, reader);
  return { prepared, counted };
}
