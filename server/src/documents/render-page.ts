import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { OCR_PIXELS } from './limits.js';

/** Pages are rendered for OCR at 216 dpi (3 × 72): small print stays legible, a Letter page is 4.4 megapixels. */
const SCALE = 3;

/**
 * The pixel budget of a page drawn for OCR: what OCR reads at once (OCR_PIXELS, whether it came as an image or as a
 * page), and no side longer than MAX_EDGE. A larger page is drawn scaled down to fit: a 7000-point page at 3x would be
 * 441 megapixels (1.7 GB of canvas); within the budget it is 9. A Letter page at 3x is 4.4 and an A3 page 9.
 */
export const PAGE_PIXEL_BUDGET = OCR_PIXELS;
const MAX_EDGE = 16_384;

/** The scale a page of `width` x `height` points is drawn at: 3, or less to fit the pixel budget. */
export function renderScale(width: number, height: number): number {
  const area = Math.max(1, width * height);
  return Math.min(SCALE, Math.sqrt(PAGE_PIXEL_BUDGET / area), MAX_EDGE / Math.max(1, width, height));
}

/** The canvas pdf.js makes for itself in Node (an @napi-rs/canvas one). */
interface NodeCanvas { encode(format: 'png'): Promise<Uint8Array> }
interface CanvasFactory { create(width: number, height: number): { canvas: NodeCanvas; context: unknown }; destroy(c: { canvas: NodeCanvas; context: unknown }): void }

/**
 * A PDF page as PNG bytes, for OCR, within the pixel budget. Drawn on the canvas pdf.js's own factory makes
 * (@napi-rs/canvas): a canvas made here with the same package crashed the process when pdf.js drew on it. The pixels
 * leave as an encoded PNG: reading them back with `getImageData` leaks about 15 MB a page in @napi-rs/canvas 1.1.1
 * (ocr-facts.md).
 */
export async function renderPage(pdf: PDFDocumentProxy, page: PDFPageProxy): Promise<Uint8Array> {
  const natural = page.getViewport({ scale: 1 });
  const scale = renderScale(natural.width, natural.height);
  const viewport = page.getViewport({ scale });
  const factory = (pdf as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
  // Floor, not ceil: the rounded size stays within the budget.
  const target = factory.create(Math.max(1, Math.floor(viewport.width)), Math.max(1, Math.floor(viewport.height)));
  try {
    await page.render({ canvasContext: target.context as never, viewport, background: '#ffffff' } as never).promise;
    return await target.canvas.encode('png');
  } finally {
    factory.destroy(target);
  }
}
