import type { UnopenedFile } from './documents.js';
import { MAX_PAGES, TEXT_LIMIT } from './limits.js';
import { kindOf } from './media-types.js';
import type { FileFacts } from './read-file.js';

/**
 * Bytes a PDF or e-mail page is taken to weigh when its pages are estimated before the file is opened: a page of text
 * is 3-50 KB, a scanned page 100 KB to 1 MB, so a file counts one page per started 100 KB, at most MAX_PAGES.
 */
export const ESTIMATE_BYTES_PER_PAGE = 100 * 1024;
/** Characters of text an Office file or CSV is taken to hold per byte before it is opened (ZIP inflates XML). */
const ESTIMATE_CHARS_PER_BYTE = 4;

/**
 * What a file is taken to be before it is opened, from its media type and size alone, so a job can be admitted
 * without parsing it in the service (jobs/job-service.ts): the reservation is then made by the same rules as for a
 * probed file (run-item.ts reservationForItem). Exact for plain text, Markdown and HTML (their probe always gives one
 * page and no character count), and for images read offline (one page; Claude's choice to read one itself depends on
 * its pixels); an estimate for the rest, which the worker corrects once it has opened the file (job-runner.ts: the
 * reservation is set to what the synchronous route reserves).
 */
export function estimatedFacts(file: UnopenedFile): FileFacts {
  const byteSize = file.bytes.byteLength;
  const kind = kindOf(file.mediaType);
  const pagesBySize = Math.min(MAX_PAGES, Math.max(1, Math.ceil(byteSize / ESTIMATE_BYTES_PER_PAGE)));
  const facts: FileFacts = { mediaType: file.mediaType, byteSize, pages: 1 };
  if (kind === 'pdf') facts.pages = pagesBySize;
  else if (kind === 'csv' || kind === 'docx' || kind === 'xlsx') facts.textChars = Math.min(TEXT_LIMIT, byteSize * ESTIMATE_CHARS_PER_BYTE);
  else if (kind === 'eml' || kind === 'msg') {
    facts.pages = pagesBySize;
    facts.textChars = Math.min(TEXT_LIMIT, byteSize);
  }
  return facts;
}
