import type { components } from '../../../generated/openapi.js';
import { ApiError } from '../http/api-error.js';
import { readingHeuFor } from '../metering/heu.js';
import { documentError } from './document-errors.js';
import { CHARS_PER_PAGE, MAX_FILE_BYTES, TEXT_LIMIT } from './limits.js';
import { FILE_MEDIA_TYPES, fileMediaType, type FileMediaType } from './media-types.js';
import type { FileFacts, FileText } from './read-file.js';
import type { TextLayout } from './text-layout.js';
import { createDocumentReader, ReaderBusy, type DocumentReader, type ReadCaller, type ReaderOptions, type ReaderState, type ReadLease } from './reader.js';

export type { ReadCaller, ReaderOptions } from './reader.js';

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

/**
 * A document checked and ready: its text, or a file whose text is not read yet (with, when the caller asked to keep
 * it, the process that probed it, to read it: `Documents.release` when it will not be read).
 */
export type PreparedDocument =
  | { kind: 'text'; text: string; byteSize: number; source: DocumentSource }
  | { kind: 'file'; bytes: Uint8Array; facts: FileFacts; lease?: ReadLease }
  /** A document read already: a part found in a file (`/v1/extract/auto`), with what reading its pages cost. */
  | { kind: 'read'; text: string; byteSize: number; mediaType: string; source: DocumentSource; readingHeu: number; layout?: TextLayout };

/** The text of a document, how it was obtained, and the HEU reading it cost. */
export interface DocumentText {
  text: string;
  source: DocumentSource;
  readingHeu: number;
  /** For a file: where the text stands on its pages. */
  layout?: TextLayout;
  /** A file's whole read: its pages (`pageStarts`, `pageReads`) and an e-mail's parts. */
  file?: FileText;
}

const invalid = (path: string, message: string) => new ApiError('invalid_request', `${path} ${message}`, { errors: [{ path, message }] });

/**
 * The `document` member of a request, from what was sent to the text an engine reads: checked before anything is
 * reserved (so a bad file is refused and charged nothing), then read. A file's bytes are only ever parsed by the
 * reader's processes (reader.ts: one process per probe or read, under memory, CPU and time limits, accounts served
 * fairly); `caller` says whose file it is and carries the caller's connection, so a caller gone stops the work.
 */
export class Documents {
  private reader: DocumentReader | undefined;

  constructor(private readonly options: ReaderOptions = {}) {}

  /**
   * Exactly one of `text` and `content`; a file's media type is one we read, its size within the limit, and its
   * bytes what the media type says (a PDF opens and has at most 50 pages, an image has a readable size).
   * Throws ApiError (400, 413, 422).
   */
  async prepare(document: AnyDocumentInput, caller: ReadCaller & { keepForRead?: boolean }, path = '/body/document'): Promise<PreparedDocument> {
    const checked = Documents.check(document, path);
    return checked.kind === 'text' ? checked : this.prepareFile(checked.bytes, checked.mediaType, caller);
  }

  /**
   * What `prepare` checks without opening a file: exactly one of `text` and `content`, text that is not blank, a file's
   * media type one we read, its base64 well formed, its size within the limit and not empty. Job intake checks this
   * (files are probed by the worker). Throws ApiError (400, 413, 422).
   */
  static check(document: AnyDocumentInput, path = '/body/document'): Extract<PreparedDocument, { kind: 'text' }> | UnopenedFile {
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
    checkFileSize(bytes);
    return { kind: 'unopened', bytes, mediaType };
  }

  /**
   * A file received as bytes (multipart/form-data, or decoded from base64): checked as `prepare` checks. With
   * `keepForRead`, the process that probed the file is kept for its read (one process per file, not two), which the
   * caller does at once or releases (`release`): the single-document routes, not batches.
   */
  async prepareFile(bytes: Uint8Array, mediaType: FileMediaType, caller: ReadCaller & { keepForRead?: boolean }): Promise<PreparedDocument> {
    checkFileSize(bytes);
    const { outcome, lease } = await this.call(() => this.readerOf().probe(bytes, mediaType, caller, caller.keepForRead === true));
    if (!outcome.ok) throw documentError(outcome.problem);
    return { kind: 'file', bytes, facts: outcome.value, ...(lease ? { lease } : {}) };
  }

  /** Gives back the process kept for a prepared file's read, when it will not be read (a refusal, a native engine). */
  static release(prepared: PreparedDocument | undefined): void {
    if (prepared?.kind === 'file') prepared.lease?.release();
  }

  /** Reads the text of a prepared document (a file in a reader process). Throws ApiError. */
  async read(prepared: PreparedDocument, caller: ReadCaller & { signal: AbortSignal }): Promise<DocumentText> {
    if (prepared.kind === 'text') return { text: prepared.text, source: prepared.source, readingHeu: 0 };
    if (prepared.kind === 'read') return { text: prepared.text, source: prepared.source, readingHeu: prepared.readingHeu, ...(prepared.layout ? { layout: prepared.layout } : {}) };
    const { facts } = prepared;
    // A kept process reads its file once; a second read (none today) takes a fresh one.
    const { lease } = prepared;
    delete prepared.lease;
    const outcome = await this.call(() => (lease ? lease.read(facts.pages, caller) : this.readerOf().read(prepared.bytes, facts.mediaType, facts.pages, caller)));
    if (!outcome.ok) throw documentError(outcome.problem);
    const read = outcome.value;
    const source: DocumentSource = { mediaType: facts.mediaType, pages: read.pages, method: read.method };
    if (read.ocrConfidence !== undefined) source.ocrConfidence = read.ocrConfidence;
    return { text: read.text, source, readingHeu: readingHeuFor(read), file: read, ...(read.layout ? { layout: read.layout } : {}) };
  }

  /**
   * The most characters the text of a prepared document may have, for a reservation made before it is read: a
   * file's pages at CHARS_PER_PAGE each, never more than the text limit.
   */
  static charsBound(prepared: PreparedDocument): number {
    return prepared.kind !== 'file' ? prepared.text.length : Math.min(TEXT_LIMIT, prepared.facts.textChars ?? prepared.facts.pages * CHARS_PER_PAGE);
  }

  /** Starts the reader's spare processes now (the service at start), not on the first file. */
  warm(): void {
    this.readerOf().warm();
  }

  /** What the reader runs and queues, and its processes (tests, diagnostics). */
  readerState(): ReaderState | null {
    return this.reader?.state() ?? null;
  }

  async close(): Promise<void> {
    await this.reader?.close();
  }

  // Created on first use, so a process that never reads a file starts no reader process.
  private readerOf(): DocumentReader {
    this.reader ??= createDocumentReader(this.options);
    return this.reader;
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      if (e instanceof ReaderBusy) throw new ApiError('service_unavailable', 'The document reader is busy; try again shortly.', null, { 'Retry-After': String(e.retryAfterSeconds) });
      throw e;
    }
  }
}

/** A file decoded and within its size limits, not opened yet (its bytes not parsed). */
export interface UnopenedFile {
  kind: 'unopened';
  bytes: Uint8Array;
  mediaType: FileMediaType;
}

/** 413 for a file over MAX_FILE_BYTES, 422 for an empty one: checked before a file is opened. */
function checkFileSize(bytes: Uint8Array): void {
  if (bytes.byteLength > MAX_FILE_BYTES) {
    throw new ApiError('payload_too_large', `The file is ${bytes.byteLength.toLocaleString('en-US')} bytes; at most ${MAX_FILE_BYTES.toLocaleString('en-US')} are read.`, { limit: MAX_FILE_BYTES });
  }
  if (bytes.byteLength === 0) throw new ApiError('document_unreadable', 'The file is empty.');
}

/** Base64 (standard or URL-safe alphabet, padding optional, whitespace ignored) to bytes; 400 when it is not. */
function decodeBase64(content: string, path: string): Uint8Array {
  const compact = content.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact) || compact.length % 4 === 1) throw invalid(path, 'is not base64');
  return Buffer.from(compact, 'base64');
}
