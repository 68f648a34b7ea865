import type { Response } from 'express';
import { principalOf } from '../auth/authenticate.js';
import type { Documents, PreparedDocument } from '../documents/documents.js';
import type { Meter } from '../metering/meter.js';
import type { Clock } from '../time/clock.js';
import type { SingleInput } from './single-input.js';

interface PrepareDeps {
  documents: Documents;
  meter: Meter;
  clock: Clock;
}

/** A caller already over this minute's requests is refused (429) before any work ahead of admission. */
export async function assertRateRoom(deps: PrepareDeps, res: Response): Promise<void> {
  const principal = principalOf(res);
  if (principal.via === 'api_key') await deps.meter.assertRateRoom(principal.accountId, deps.clock.now());
}

/**
 * The document of a single-document route, checked before anything is reserved: a form's file as its bytes. A file is
 * opened (probed) before admission, to reserve by its pages: a caller over its request rate is refused first, so it
 * cannot make the service open files.
 */
export async function prepareInput(deps: PrepareDeps, res: Response, input: SingleInput): Promise<PreparedDocument> {
  if (input.file || input.document.content !== undefined) await assertRateRoom(deps, res);
  return input.file ? deps.documents.prepareFile(input.file.bytes, input.file.mediaType) : deps.documents.prepare(input.document);
}
