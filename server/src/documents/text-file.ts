import { TEXT_LIMIT } from './limits.js';
import type { FileMediaType } from './media-types.js';
import type { FileFacts, FileText } from './read-file.js';
import type { ReaderOutcome } from './reader-task.js';
import { bytesMatch } from './sniff.js';

/**
 * What the service does itself with a text file, without a reader process: one linear pass over bytes it already
 * holds, no parser, as bounded as `document.text` sent in JSON. The same checks and answers as `probeFile` and
 * `readFile` (read-file.ts) for these kinds, without loading the readers (pdf.js, sharp, OCR) into the service.
 */
export function probeTextFile(bytes: Uint8Array, mediaType: FileMediaType): ReaderOutcome<FileFacts> {
  if (!bytesMatch(mediaType, bytes)) return { ok: false, problem: { code: 'document_type_mismatch', message: `The bytes of document.content are not ${mediaType}.` } };
  return { ok: true, value: { mediaType, byteSize: bytes.byteLength, pages: 1 } };
}

/** A plain-text file's text (a BOM dropped, line ends as `\n`). */
export function readPlainTextFile(bytes: Uint8Array): ReaderOutcome<FileText> {
  const text = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (text.trim() === '') return { ok: false, problem: { code: 'document_unreadable', message: 'No legible text was found in the file.' } };
  if (text.length > TEXT_LIMIT) {
    return { ok: false, problem: { code: 'payload_too_large', message: `The file holds ${text.length.toLocaleString('en-US')} characters of text; at most ${TEXT_LIMIT.toLocaleString('en-US')} are read.`, limit: TEXT_LIMIT } };
  }
  return { ok: true, value: { text, pages: 1, pageStarts: [0], pageReads: [{ method: 'text' }], method: 'text', textLayerPages: 0, ocrPages: 0, layout: { pages: [{ start: 0, end: text.length, runs: [] }] } } };
}
