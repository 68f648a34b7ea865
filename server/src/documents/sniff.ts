import type { FileMediaType } from './media-types.js';

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) => signature.every((b, i) => bytes[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The binary format the bytes are in, from their signature (magic numbers), or null when they have none we know. */
export function sniffBinary(bytes: Uint8Array): FileMediaType | null {
  // A PDF may have a few bytes of junk before its header (readers allow 1024).
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.includes('%PDF-')) return 'application/pdf';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  return null;
}

/**
 * Whether the bytes can be text: valid UTF-8 (a BOM allowed) without the control characters binary formats are full
 * of (NUL and the C0 controls other than tab, line feed, form feed and carriage return).
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (sniffBinary(bytes) !== null) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  for (const b of bytes) if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d) return false;
  return true;
}

/** Whether the bytes are of the declared media type: a binary type by its signature, a text type by being text. */
export function bytesMatch(declared: FileMediaType, bytes: Uint8Array): boolean {
  if (declared.startsWith('text/')) return looksLikeText(bytes);
  return sniffBinary(bytes) === declared;
}
