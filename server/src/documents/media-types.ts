/** The media types a file (`document.content`) may have, and how each is read. */
export const FILE_MEDIA_TYPES = {
  'application/pdf': 'pdf',
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/webp': 'image',
  'image/tiff': 'image',
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/html': 'html',
} as const;

export type FileMediaType = keyof typeof FILE_MEDIA_TYPES;
export type FileKind = (typeof FILE_MEDIA_TYPES)[FileMediaType];

/** The media type without parameters, lower case (`Text/HTML; charset=utf-8` is `text/html`). */
export function fileMediaType(declared: string | undefined): FileMediaType | null {
  const bare = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  return Object.hasOwn(FILE_MEDIA_TYPES, bare) ? (bare as FileMediaType) : null;
}

export const kindOf = (mediaType: FileMediaType): FileKind => FILE_MEDIA_TYPES[mediaType];
