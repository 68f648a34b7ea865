import { openapiDocument } from '../contract/documents.js';

type ObjectSchema = { properties: Record<string, { maxLength?: number }> };
// The two variants of `document` (oneOf): its text, or the file itself.
const documentText = openapiDocument.components.schemas.DocumentText as ObjectSchema;
const documentFile = openapiDocument.components.schemas.DocumentFile as ObjectSchema;

/** The most characters of text a document may hold, sent as `text` or read from a file: the contract's. */
export const TEXT_LIMIT: number = documentText.properties.text!.maxLength!;

/** The largest file, decoded: 10 MB. The contract's `content` maxLength is its base64 length. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
if (documentFile.properties.content!.maxLength !== 4 * Math.ceil(MAX_FILE_BYTES / 3)) {
  throw new Error('the contract limit of document.content does not match MAX_FILE_BYTES');
}

/** The most pages of a PDF: every page may need OCR (about 1.4 s each on two cores), and each is metered. */
export const MAX_PAGES = 50;

/** The most pixels of an image (an A4 page at 300 dpi is 8.7 million): a decoded image is 4 bytes a pixel. */
export const MAX_PIXELS = 25_000_000;

/**
 * The most pixels OCR reads at once: a larger image is scaled down to it before OCR, and a PDF page is drawn within it.
 * Tesseract holds about 50 bytes a pixel while it reads (a 25-megapixel page took 500 MB and 13 s here), so this is
 * what fits a reader process's default 512 MB: a Letter or A4 page at 300 dpi (8.4 and 8.7 million) is read as it
 * is; a 25-megapixel photo of a page is read at about 60% of its size, still some 180 dpi.
 */
export const OCR_PIXELS = 9_000_000;

/** An image with an edge shorter than this holds no legible line of text. */
export const MIN_IMAGE_EDGE = 32;

/**
 * The most characters one page is taken to hold when a reservation is made before the file is read: a dense page of
 * 8-point text in two columns holds about 8,000. A page that holds more is still read; the reservation covers the
 * whole text only up to this.
 */
export const CHARS_PER_PAGE = 10_000;

/**
 * Office files (DOCX, XLSX) are ZIP archives: their parts are checked before any is read (`zip-guard.ts`), so that
 * a small file cannot make the reader inflate gigabytes or walk a million entries. A real DOCX holds tens of parts
 * (hundreds with many images) and inflates to a few times its size; a 10 MB spreadsheet to about 60 MB of XML.
 */
export const ZIP_LIMITS = {
  /** Parts (entries) of the archive. */
  entries: 2_000,
  /** Bytes all the parts inflate to, together: declared and, as they are inflated, actual. */
  inflatedBytes: 64 * 1024 * 1024,
} as const;

/**
 * E-mail (EML, MSG): how deep MIME parts may nest (a forwarded message with its own multipart body is about 6 deep),
 * how many MIME parts a message may declare, how many attachments are read, and how deep e-mails attached to
 * e-mails are followed. Beyond them the message is refused, before its attachments are read.
 */
export const MAIL_LIMITS = {
  mimeDepth: 16,
  mimeParts: 500,
  attachments: 50,
  nestedMessages: 3,
} as const;
