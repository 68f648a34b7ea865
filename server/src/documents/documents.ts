import type { components } from '../../../generated/openapi.js';
import { ApiError } from '../http/api-error.js';
import { readingHeuFor } from '../metering/heu.js';
import { documentError } from './document-errors.js';
import { CHARS_PER_PAGE, MAX_FILE_BYTES, TEXT_LIMIT } from './limits.js';
import { FILE_MEDIA_TYPES, fileMediaType, type FileMediaType } from './media-types.js';
import type { FileFacts } from './read-file.js';
import { createDocumentReader, ReaderBusy, ReadOverBudget, type DocumentReader } from './reader-pool.js';

type Schemas = components['schemas'];
export type DocumentSource = Schemas['DocumentSource'];

/**
 * The members of `document` as sent, either variant (`DocumentText` or `DocumentFile`) or neither: the contract's
 * `oneOf` refuses both and neither before a handler runs, and `prepare` checks it again.
 */
export interface AnyDocumentInput {
  text?: string;
  content?: string;
  mediaType?: string;
  filename?: string;
  vendorRenewalId?: string;
}

/** What a text document sent without a `mediaType` is. */
const DEFAULT_MEDIA_TYPE = 'text/plain';

/** A document checked and ready: its text, or a file whose text is not read yet. */
export type PreparedDocument =
  | { kind: 'text'; text: string; byteSize: number; source: DocumentSource }
  | { kind: 'file'; bytes: Uint8Array; facts: FileFacts };

/** The text of a document, how it was obtained, and the HEU reading it cost. */
export interface DocumentText {
  text: string;
  source: DocumentSource;
  readingHeu: number;
}

const invalid = (path: string, message: string) => new ApiError('invalid_request', `${path} ${message}`, { errors: [{ path, message }] });

/**
 * The `document` member of a request, from what was sent to the text an engine reads: checked before anything is
 * reserved (so a bad file is refused and charged nothing), then read in the reader's threads.
 */
export class Documents {
  private reader: DocumentReader | undefined;

  constructor(private readonly options: { threads?: number } = {}) {}

  /**
   * Exactly one of `text` and `content`; a file's media type is one we read, its size within the limit, and its
   * bytes what the media type says (a PDF opens and has at most 50 pages, an image has a readable size).
   * Throws ApiError (400, 413, 422).
   */
  async prepare(document: AnyDocumentInput, path = '/body/document', signal?: AbortSignal): Promise<PreparedDocument> {
    const { text, content } = document;
    if ((text === undefined) === (content === undefined)) throw invalid(path, 'must have exactly one of text and content');
    if (text !== undefined) {
      // Nothing to read: refused before anything is reserved, rather than answered with every field null and charged.
      if (!/\S/.test(text)) throw invalid(`${path}/text`, 'holds only white space: there is nothing to extract from');
      const mediaType = document.mediaType ?? DEFAULT_MEDIA_TYPE;
      return { kind: 'text', text, byteSize: Buffer.byteLength(text, 'utf8'), source: { mediaType, pages: 1, method: 'text' } };
    }
    const mediaType = fileMediaType(document.mediaType);
    if (!mediaType) {
      throw invalid(`${path}/mediaType`, document.mediaType === undefined
        ? 'is required with content'
        : `must be one of ${Object.keys(FILE_MEDIA_TYPES).join(', ')} with content`);
    }
    const bytes = decodeBase64(content!, `${path}/content`);
    return this.prepareFile(bytes, mediaType, signal);
  }

  /** A file received as bytes (multipart/form-data, or decoded from base64): checked as `prepare` checks. */
  async prepareFile(bytes: Uint8Array, mediaType: FileMediaType, signal?: AbortSignal): Promise<PreparedDocument> {
    if (bytes.byteLength > MAX_FILE_BYTES) {
      throw new ApiError('payload_too_large', `The file is ${bytes.byteLength.toLocaleString('en-US')} bytes; at most ${MAX_FILE_BYTES.toLocaleString('en-US')} are read.`, { limit: MAX_FILE_BYTES });
    }
    if (bytes.byteLength === 0) throw new ApiError('document_unreadable', 'The file is empty.');
    const outcome = await this.call(() => this.readerOf().probe(bytes, mediaType, signal));
    if (!outcome.ok) throw documentError(outcome.problem);
    return { kind: 'file', bytes, facts: outcome.value };
  }

  /** Reads the text of a prepared document (a file in the reader's threads). Throws ApiError. */
  async read(prepared: PreparedDocument, signal: AbortSignal): Promise<DocumentText> {
    if (prepared.kind === 'text') return { text: prepared.text, source: prepared.source, readingHeu: 0 };
    const { facts } = prepared;
    const outcome = await this.call(() => this.readerOf().read(prepared.bytes, facts.mediaType, facts.pages, signal));
    if (!outcome.ok) throw documentError(outcome.problem);
    const read = outcome.value;
    const source: DocumentSource = { mediaType: facts.mediaType, pages: read.pages, method: read.method };
    if (read.ocrConfidence !== undefined) source.ocrConfidence = read.ocrConfidence;
    return { text: read.text, source, readingHeu: readingHeuFor(read) };
  }

  /**
   * The most characters the text of a prepared document may have, for a reservation made before it is read: a
   * file's pages at CHARS_PER_PAGE each, never more than the text limit.
   */
  static charsBound(prepared: PreparedDocument): number {
    return prepared.kind === 'text' ? prepared.text.length : Math.min(TEXT_LIMIT, prepared.facts.pages * CHARS_PER_PAGE);
  }

  async close(): Promise<void> {
    await this.reader?.close();
  }

  // Created on first use, so a process that never reads a file starts no thread.
  private readerOf(): DocumentReader {
    this.reader ??= createDocumentReader(this.options);
    return this.reader;
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      if (e instanceof ReaderBusy) throw new ApiError('service_unavailable', 'The document reader is busy; try again shortly.', null, { 'Retry-After': '2' });
      if (e instanceof ReadOverBudget) throw new ApiError('document_unreadable', 'The file took too long to read.');
      throw e;
    }
  }
}

/** Base64 (standard or URL-safe alphabet, padding optional, whitespace ignored) to bytes; 400 when it is not. */
function decodeBase64(content: string, path: string): Uint8Array {
  const compact = content.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact) || compact.length % 4 === 1) throw invalid(path, 'is not base64');
  return Buffer.from(compact, 'base64');
}
