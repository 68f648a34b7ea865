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
} as const satisfies Record<components['schemas']['FileMediaType'], string>;

export type FileMediaType = keyof typeof FILE_MEDIA_TYPES;
export type FileKind = (typeof FILE_MEDIA_TYPES)[FileMediaType];

/** The media type without parameters, lower case (`Text/HTML; charset=utf-8` is `text/html`). */
export function fileMediaType(declared: string | undefined): FileMediaType | null {
  const bare = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  return Object.hasOwn(FILE_MEDIA_TYPES, bare) ? (bare as FileMediaType) : null;
}

export const kindOf = (mediaType: FileMediaType): FileKind => FILE_MEDIA_TYPES[mediaType];

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
};

export function mediaTypeOfFilename(filename: string | undefined): FileMediaType | null {
  const match = /\.([A-Za-z0-9]+)$/.exec(filename ?? '');
  return (match && EXTENSION_MEDIA_TYPES[match[1]!.toLowerCase()]) ?? null;
}
