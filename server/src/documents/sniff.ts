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

/** A container format the bytes open with: a ZIP archive (DOCX, XLSX) or an OLE compound file (MSG). */
export function containerOf(bytes: Uint8Array): 'zip' | 'cfb' | null {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'cfb';
  return null;
}

/** Whether the bytes are free of the C0 control characters binary formats are full of (tab, LF, FF, CR allowed). */
function noControls(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d) return false;
  return true;
}

/**
 * Whether the bytes can be an Internet message (RFC 5322): no binary signature, no NUL in its head, and a first line
 * that is a header field (`Name: value`) or an mbox `From ` line. Its body may be 8-bit text in any charset.
 */
export function looksLikeMail(bytes: Uint8Array): boolean {
  if (sniffBinary(bytes) !== null || containerOf(bytes) !== null) return false;
  const head = Buffer.from(bytes.subarray(0, 64 * 1024));
  if (head.includes(0)) return false;
  const first = head.toString('latin1').replace(/^\uFEFF|^\xEF\xBB\xBF/, '').replace(/^(\r?\n)+/, '').split(/\r?\n/, 1)[0] ?? '';
  return /^[!-9;-~]+:/.test(first) || first.startsWith('From ');
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
  return noControls(bytes);
}

/** CSV as spreadsheets save it: UTF-8 text, or (Excel's "CSV" on Windows) single-byte text without controls. */
export function looksLikeCsv(bytes: Uint8Array): boolean {
  return looksLikeText(bytes) || (sniffBinary(bytes) === null && containerOf(bytes) === null && noControls(bytes));
}

/**
 * Whether the bytes are of the declared media type: a binary type by its signature (DOCX and XLSX by the ZIP they
 * are, their parts checked when read), a text type by being text, an e-mail by its first header.
 */
export function bytesMatch(declared: FileMediaType, bytes: Uint8Array): boolean {
  if (declared === 'text/csv') return looksLikeCsv(bytes);
  if (declared.startsWith('text/')) return looksLikeText(bytes);
  if (declared === 'message/rfc822') return looksLikeMail(bytes);
  if (declared === 'application/vnd.ms-outlook') return containerOf(bytes) === 'cfb';
  if (declared.startsWith('application/vnd.openxmlformats')) return containerOf(bytes) === 'zip';
  return sniffBinary(bytes) === declared;
}
