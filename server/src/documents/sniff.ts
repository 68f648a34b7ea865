import { kindOf, type FileMediaType } from './media-types.js';

/**
 * Whether the bytes are a PDF: its header in the first 1024 bytes (readers allow a few bytes of junk before it).
 * Images are identified by their decoder (image-decode.ts), not by a signature read here.
 */
export function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 1024)).toString('latin1').includes('%PDF-');
}

const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((b, i) => bytes[i] === b);

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
  if (isPdf(bytes) || containerOf(bytes) !== null) return false;
  const head = Buffer.from(bytes.subarray(0, 64 * 1024));
  if (head.includes(0)) return false;
  const first = head.toString('latin1').replace(/^\uFEFF|^\xEF\xBB\xBF/, '').replace(/^(\r?\n)+/, '').split(/\r?\n/, 1)[0] ?? '';
  return /^[!-9;-~]+:/.test(first) || first.startsWith('From ');
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
  return noControls(bytes);
}

/** CSV as spreadsheets save it: UTF-8 text, or (Excel's "CSV" on Windows) single-byte text without controls. */
export function looksLikeCsv(bytes: Uint8Array): boolean {
  return looksLikeText(bytes) || (!isPdf(bytes) && containerOf(bytes) === null && noControls(bytes));
}

/**
 * Whether the bytes of a file that is not an image are of the declared media type (an image's are checked by
 * decoding it): a PDF by its header, DOCX and XLSX by the ZIP they are (their parts checked when read), a message by
 * its container or first header, a text type by being text.
 */
export function bytesMatch(declared: FileMediaType, bytes: Uint8Array): boolean {
  if (kindOf(declared) === 'pdf') return isPdf(bytes);
  if (declared === 'text/csv') return looksLikeCsv(bytes);
  if (declared === 'message/rfc822') return looksLikeMail(bytes);
  if (declared === 'application/vnd.ms-outlook') return containerOf(bytes) === 'cfb';
  if (declared.startsWith('application/vnd.openxmlformats')) return containerOf(bytes) === 'zip';
  return looksLikeText(bytes);
}
