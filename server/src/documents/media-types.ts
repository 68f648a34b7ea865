import type { components } from '../../../generated/openapi.js';

/**
 * The media types a file (`document.content`) may have, and how each is read: exactly the contract's
 * `FileMediaType` enum (spec/models/common.tsp), which is the one list; `satisfies` fails the build when the two
 * differ, and every message naming the accepted types is built from this table.
 */
export const FILE_MEDIA_TYPES = {
  'application/pdf': 'pdf',
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/webp': 'image',
  'image/tiff': 'image',
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/html': 'html',
  'text/csv': 'csv',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'message/rfc822': 'eml',
  'application/vnd.ms-outlook': 'msg',
} as const satisfies Record<components['schemas']['FileMediaType'], string>;

export type FileMediaType = keyof typeof FILE_MEDIA_TYPES;
export type FileKind = (typeof FILE_MEDIA_TYPES)[FileMediaType];

/** The media type without parameters, lower case (`Text/HTML; charset=utf-8` is `text/html`). */
export function fileMediaType(declared: string | undefined): FileMediaType | null {
  const bare = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  return Object.hasOwn(FILE_MEDIA_TYPES, bare) ? (bare as FileMediaType) : null;
}

export const kindOf = (mediaType: FileMediaType): FileKind => FILE_MEDIA_TYPES[mediaType];

/** Kinds whose text is read from the file's own structure (no OCR, no pages of their own to render). */
export const MESSAGE_KINDS: ReadonlySet<FileKind> = new Set(['eml', 'msg']);

/**
 * Media types an e-mail attachment may be declared with that stand for one read here (what mail programs send for
 * `.msg` files, CSV exported by spreadsheets, ...), mapped to the one it is read as.
 */
const ALIASES: Readonly<Record<string, FileMediaType>> = {
  'application/x-msg': 'application/vnd.ms-outlook',
  'application/vnd.ms-excel.csv': 'text/csv',
  'application/csv': 'text/csv',
  'text/comma-separated-values': 'text/csv',
  'image/jpg': 'image/jpeg',
  'text/x-markdown': 'text/markdown',
};

/** An attachment's media type as read here: its declared type (or an alias of one), else its name's extension. */
export function attachmentMediaType(declared: string | undefined, filename: string | undefined): FileMediaType | null {
  const bare = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  const byType = fileMediaType(bare) ?? ALIASES[bare] ?? null;
  // Mail programs often label any file application/octet-stream: its name says what it is.
  return byType && bare !== 'text/plain' ? byType : mediaTypeOfFilename(filename) ?? byType;
}

/** The media type a file name's extension stands for, among those read (`.PDF` is `application/pdf`). */
export const EXTENSION_MEDIA_TYPES: Readonly<Record<string, FileMediaType>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  txt: 'text/plain',
  text: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  csv: 'text/csv',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  eml: 'message/rfc822',
  msg: 'application/vnd.ms-outlook',
};

export function mediaTypeOfFilename(filename: string | undefined): FileMediaType | null {
  const match = /\.([A-Za-z0-9]+)$/.exec(filename ?? '');
  return (match && EXTENSION_MEDIA_TYPES[match[1]!.toLowerCase()]) ?? null;
}
