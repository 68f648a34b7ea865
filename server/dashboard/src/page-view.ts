// A page of the file the service read, as the browser shows it, with a value's box drawn over it: a PDF page rendered
// by pdf.js (loaded from this origin only when a PDF is shown, its worker and fonts too, within the page's CSP), or
// the image itself. Boxes are fractions of the page (origin top left), so they are placed in percent.
import { h, reveal } from './dom.js';

/** What this page uses of pdf.js (pdfjs-dist, served from /dashboard/assets/pdfjs/ by the dashboard's build). */
interface PdfJs {
  GlobalWorkerOptions: { workerSrc: string };
  getDocument(src: { data: Uint8Array; isEvalSupported: boolean; standardFontDataUrl: string; enableXfa: boolean }): { promise: Promise<PdfDocument> };
}
interface PdfDocument { numPages: number; getPage(n: number): Promise<PdfPage> }
interface PdfPage {
  getViewport(o: { scale: number }): { width: number; height: number };
  render(o: { canvas: HTMLCanvasElement; canvasContext: CanvasRenderingContext2D; viewport: { width: number; height: number } }): { promise: Promise<void> };
}

const PDFJS = '/dashboard/assets/pdfjs';
let pdfjs: Promise<PdfJs> | null = null;
/** pdf.js, imported once, at run time (a variable specifier keeps the bundler from inlining its 400 KB). */
function loadPdfJs(): Promise<PdfJs> {
  const url = `${PDFJS}/pdf.min.mjs`;
  pdfjs ??= (import(url) as Promise<PdfJs>).then((m) => {
    m.GlobalWorkerOptions.workerSrc = `${PDFJS}/pdf.worker.min.mjs`;
    return m;
  });
  return pdfjs;
}

type Box = { x: number; y: number; width: number; height: number };

export interface PageView {
  element: HTMLElement;
  /** Shows page `n` (from 1) with `box` drawn on it, or no box. */
  show(n: number, box: Box | null): Promise<void>;
  /** Said beside the page when the browser cannot show the file (a TIFF). */
  note?: string;
}

/** The view of a PDF or an image file; a TIFF, which browsers do not show, is said so. */
export async function pageView(file: File, mediaType: string): Promise<PageView | null> {
  const frame = h('div', { class: 'page', id: 'page-view' });
  const box = h('div', { class: 'box', id: 'quote-box', hidden: true, 'aria-hidden': 'true' });
  const caption = h('p', { class: 'muted', id: 'page-caption' });
  // The page scrolls inside its own pane, which brings the box into view: the window and the list stay where they are.
  const scroller = h('div', { class: 'page-scroll', id: 'page-scroll', tabindex: '0', 'aria-label': 'The page' }, frame);
  const element = h('figure', { class: 'page-figure' }, scroller, caption);
  const place = (b: Box | null) => {
    box.hidden = !b;
    if (!b) return;
    // CSSOM, not a style attribute: the page's CSP allows no inline styles.
    box.style.left = `${b.x * 100}%`;
    box.style.top = `${b.y * 100}%`;
    box.style.width = `${b.width * 100}%`;
    box.style.height = `${b.height * 100}%`;
    reveal(scroller, box);
  };
  if (mediaType === 'image/tiff') return { element: h('div'), show: async () => {}, note: 'This browser cannot show a TIFF image: its values and the text read are shown.' };
  if (mediaType.startsWith('image/')) {
    // A blob: URL of the file itself (the page's CSP allows blob: images, not data: ones): no copy in base64.
    const img = h('img', { src: URL.createObjectURL(file), alt: `The image ${file.name}` }) as HTMLImageElement;
    await img.decode().catch(() => undefined);
    frame.append(img, box);
    caption.textContent = file.name;
    return { element, show: async (_n, b) => place(b) };
  }
  const lib = await loadPdfJs();
  const doc = await lib.getDocument({ data: new Uint8Array(await file.arrayBuffer()), isEvalSupported: false, standardFontDataUrl: `${PDFJS}/standard_fonts/`, enableXfa: false }).promise;
  const canvas = h('canvas', { id: 'page-canvas', role: 'img' }) as HTMLCanvasElement;
  frame.append(canvas, box);
  let shown = 0;
  const show = async (n: number, b: Box | null) => {
    const number = Math.min(Math.max(1, n), doc.numPages);
    if (number !== shown) {
      const page = await doc.getPage(number);
      // Drawn at twice the pixels it is shown at at most, for a sharp page on high-density screens.
      const scale = Math.min(2, Math.max(1, window.devicePixelRatio || 1)) * 1.25;
      const viewport = page.getViewport({ scale });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      await page.render({ canvas, canvasContext: canvas.getContext('2d')!, viewport }).promise;
      canvas.setAttribute('aria-label', `Page ${number} of ${file.name}`);
      caption.textContent = `${file.name}, page ${number} of ${doc.numPages}`;
      shown = number;
    }
    place(b);
  };
  await show(1, null);
  return { element, show };
}
