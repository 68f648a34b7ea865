import type { Documents } from '../documents/documents.js';
import { ApiError } from '../http/api-error.js';
import type { Metrics } from './metrics.js';

const COUNTED = Symbol('reader kills counted');

/**
 * Counts reads the document reader stopped over their time budget (its thread was killed): Documents answers them
 * `document_unreadable`, "The file took too long to read." (documents.ts). Observed from outside, as `documents/` is
 * the reader's own room; when the reader reports its kills itself, count them there instead.
 */
export function countReaderKills(documents: Documents, metrics: Metrics): void {
  const marked = documents as Documents & { [COUNTED]?: true };
  if (marked[COUNTED]) return;
  marked[COUNTED] = true;
  const read = documents.read.bind(documents);
  documents.read = async (...args: Parameters<Documents['read']>) => {
    try {
      return await read(...args);
    } catch (e) {
      if (e instanceof ApiError && e.code === 'document_unreadable' && /too long/.test(e.message)) metrics.readerKills.inc();
      throw e;
    }
  };
}
