import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** Pages are rendered for OCR at 216 dpi (3 × 72): small print stays legible, a Letter page is 6 megapixels. */
const SCALE = 3;

/** The canvas pdf.js makes for itself in Node (an @napi-rs/canvas one). */
interface NodeCanvas { encode(format: 'png'): Promise<Uint8Array> }
interface CanvasFactory { create(width: number, height: number): { canvas: NodeCanvas; context: unknown }; destroy(c: { canvas: NodeCanvas; context: unknown }): void }

/**
 * A PDF page as PNG bytes and its size in pixels, for OCR. Drawn on the canvas pdf.js's own factory makes (@napi-rs/canvas): a canvas made
 * here with the same package crashed the process when pdf.js drew on it. The pixels leave as an encoded PNG: reading
 * them back with `getImageData` leaks about 15 MB a page in @napi-rs/canvas 1.1.1 (ocr-facts.md).
 */
export async function renderPage(pdf: PDFDocumentProxy, page: PDFPageProxy): Promise<{ png: Uint8Array; width: number; height: number }> {
  const viewport = page.getViewport({ scale: SCALE });
  const factory = (pdf as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
  const target = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
  try {
    await page.render({ canvasContext: target.context as never, viewport, background: '#ffffff' } as never).promise;
    return { png: await target.canvas.encode('png'), width: Math.ceil(viewport.width), height: Math.ceil(viewport.height) };
  } finally {
    factory.destroy(target);
  }
}
