import type { components } from './contract.js';

type Schemas = components['schemas'];
type DocumentMeta = Pick<Schemas['DocumentText'], 'filename' | 'vendorRenewalId'>;
/** The media types the service reads a file as (the contract's `FileMediaType`). */
export type FileMediaType = Schemas['FileMediaType'];

/** A file's bytes with their media type (`application/pdf`, `image/png`, ...). */
export interface FileBytes {
  bytes: Uint8Array | ArrayBuffer;
  mediaType: string;
  filename?: string;
}

/**
 * A file to extract from: a path (Node only), a `Blob` or `File` (its `type` is the media type; a `File`'s name is
 * kept), or bytes with their media type.
 */
export type FileInput = string | Blob | FileBytes;

/** The document of an extraction: its text, the file itself in base64, or a file the SDK reads and encodes. */
export type DocumentInput =
  | (DocumentMeta & { text: string; mediaType?: string; content?: never; file?: never })
  | (DocumentMeta & { content: string; mediaType: FileMediaType; text?: never; file?: never })
  | (DocumentMeta & { file: FileInput; mediaType?: FileMediaType; text?: never; content?: never });

/** The media types the service reads, by file extension. */
const BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', tif: 'image/tiff',
  tiff: 'image/tiff', txt: 'text/plain', text: 'text/plain', md: 'text/markdown', markdown: 'text/markdown', html: 'text/html', htm: 'text/html',
  csv: 'text/csv', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', eml: 'message/rfc822', msg: 'application/vnd.ms-outlook',
};

/** The media type of a file name from its extension, or undefined. */
export function mediaTypeOf(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? undefined : BY_EXTENSION[name.slice(dot + 1).toLowerCase()];
}

const baseName = (path: string) => path.split(/[\\/]/).pop() ?? path;

function toBase64(bytes: Uint8Array): string {
  const B = (globalThis as { Buffer?: { from(b: Uint8Array): { toString(enc: string): string } } }).Buffer;
  if (B) return B.from(bytes).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Reads a file input to its bytes, media type and name. */
async function load(file: FileInput, mediaType: string | undefined): Promise<{ bytes: Uint8Array; mediaType: string | undefined; filename: string | undefined }> {
  if (typeof file === 'string') {
    // Node only: imported when a path is given, so a browser bundle never needs node:fs.
    const fs = (await import('node:fs/promises' as string)) as { readFile(path: string): Promise<Uint8Array> };
    return { bytes: new Uint8Array(await fs.readFile(file)), mediaType: mediaType ?? mediaTypeOf(file), filename: baseName(file) };
  }
  if (typeof Blob !== 'undefined' && file instanceof Blob) {
    const name = (file as { name?: unknown }).name;
    return {
      bytes: new Uint8Array(await file.arrayBuffer()),
      mediaType: mediaType ?? (file.type ? file.type : typeof name === 'string' ? mediaTypeOf(name) : undefined),
      filename: typeof name === 'string' && name ? name : undefined,
    };
  }
  const f = file as FileBytes;
  return { bytes: f.bytes instanceof Uint8Array ? f.bytes : new Uint8Array(f.bytes), mediaType: mediaType ?? f.mediaType, filename: f.filename };
}

/** The document as the contract has it: a `file` read and sent as `content` (base64) with its media type. */
export async function toContractDocument(document: string | DocumentInput): Promise<Schemas['DocumentInput']> {
  if (typeof document === 'string') return { text: document };
  if (!('file' in document) || document.file === undefined) return document as Schemas['DocumentInput'];
  const { file, mediaType, ...rest } = document;
  const loaded = await load(file, mediaType);
  if (!loaded.mediaType) throw new TypeError('docextract: the media type of the file is unknown; pass mediaType (application/pdf, image/png, ...).');
  // The service refuses a media type it does not read (400, naming those it reads).
  return { ...rest, ...(rest.filename === undefined && loaded.filename ? { filename: loaded.filename } : {}), content: toBase64(loaded.bytes), mediaType: loaded.mediaType as FileMediaType };
}
