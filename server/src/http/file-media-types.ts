import { fileMediaType } from '../documents/media-types.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A file's `mediaType` in its bare lower-case form (`Application/PDF; x=y` is `application/pdf`), before the contract
 * checks it against the media types read: media types are case-insensitive (RFC 9110 §8.3.1), and the service read
 * them so before the contract listed them, so a request that was answered then is answered now. Only files
 * (`document.content`, the single document or a batch's items) are touched; a text's `mediaType` is kept as sent.
 */
export function normaliseFileMediaTypes(body: unknown): void {
  if (!isObject(body)) return;
  const documents = [body.document, ...(Array.isArray(body.items) ? body.items.map((item) => (isObject(item) ? item.document : undefined)) : [])];
  for (const doc of documents) {
    if (!isObject(doc) || !('content' in doc) || typeof doc.mediaType !== 'string') continue;
    const bare = fileMediaType(doc.mediaType);
    if (bare) doc.mediaType = bare;
  }
}
