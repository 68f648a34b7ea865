import { kindOf, type FileMediaType } from './media-types.js';

/**
 * Whether the bytes are a PDF: its header in the first 1024 bytes (readers allow a few bytes of junk before it).
 * Images are identified by their decoder (image-decode.ts), not by a signature read here.
 */
export function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 1024)).toString('latin1').includes('%PDF-');
}

/**
 * Whether the bytes can be text: not a PDF, valid UTF-8 (a BOM allowed) without the control characters binary
 * formats are full of (NUL and the C0 controls other than tab, line feed, form feed and carriage return: every image
 * format read has some in its first bytes, or is not UTF-8).
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (isPdf(bytes)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  for (const b of bytes) if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d) return false;
  return true;
}

/** Whether the bytes of a PDF or a text file are of the declared media type (an image's are checked by decoding it). */
export function bytesMatch(declared: FileMediaType, bytes: Uint8Array): boolean {
  if (kindOf(declared) === 'pdf') return isPdf(bytes);
  return looksLikeText(bytes);
}
