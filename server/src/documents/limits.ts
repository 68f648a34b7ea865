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

/** An image with an edge shorter than this holds no legible line of text. */
export const MIN_IMAGE_EDGE = 32;

/**
 * The most characters one page is taken to hold when a reservation is made before the file is read: a dense page of
 * 8-point text in two columns holds about 8,000. A page that holds more is still read; the reservation covers the
 * whole text only up to this.
 */
export const CHARS_PER_PAGE = 10_000;
