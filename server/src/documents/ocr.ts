import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { ocrReadyPng } from './image-decode.js';
import { rebuildPlaced, type PlacedText } from './layout.js';
import type { PlacedRun } from './text-layout.js';

/**
 * The language data ships in an npm package and is read from node_modules: tesseract.js contacts its CDN only when
 * `langPath` is unset, and with `cacheMethod: 'none'` it writes no `eng.traineddata` into the working directory.
 */
const LANG_PATH = join(dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

let worker: Promise<Worker> | null = null;

/** This thread's OCR worker, started on first use (about 0.5 s and 240 MB) and kept for the thread's life. */
function ocrWorker(): Promise<Worker> {
  worker ??= (async () => {
    const w = await createWorker('eng', OEM.LSTM_ONLY, { langPath: LANG_PATH, gzip: true, cacheMethod: 'none', logger: () => {}, errorHandler: () => {} });
    // Mode 4 (a single column of text of variable sizes) with spaces kept read tables best here (ocr-facts.md).
    await w.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_COLUMN, preserve_interword_spaces: '1', debug_file: '/dev/null' });
    return w;
  })();
  worker.catch(() => { worker = null; });
  return worker;
}

export interface OcrPage {
  text: string;
  /** Each word's place in `text` and its box as fractions of the image, with its OCR confidence. */
  runs: PlacedRun[];
  /** Mean confidence of the words read, 0 to 1; null when no word was read. */
  confidence: number | null;
  words: number;
}

/**
 * Reads an image (PNG, JPEG, WebP or TIFF bytes, or a page drawn for OCR) with tesseract and rebuilds its lines and
 * columns from the word boxes it returns, as a PDF's text layer is rebuilt: tesseract's own reading order puts a
 * table's amounts after all of its labels. Tesseract is only ever given the grayscale PNG that sharp made within the
 * pixel limit (image-decode.ts), never the caller's bytes; the word boxes come back as fractions of that image.
 */
export async function ocrImage(image: Uint8Array): Promise<OcrPage> {
  const { png, ...size } = await ocrReadyPng(image);
  const w = await ocrWorker();
  const { data } = await w.recognize(png, {}, { blocks: true, text: false });
  const runs: (PlacedText & { box: [number, number, number, number]; confidence: number })[] = [];
  let confidence = 0;
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        for (const word of line.words) {
          if (word.text.trim() === '') continue;
          const { x0, y0, x1, y1 } = word.bbox;
          // The line's baseline keeps the words of one line together (a word's own box rises and falls with its letters).
          runs.push({ str: word.text, x: x0, y: line.baseline?.y0 ?? y1, width: x1 - x0, height: line.bbox.y1 - line.bbox.y0 || y1 - y0, box: [x0, y0, x1, y1], confidence: word.confidence / 100 });
          confidence += word.confidence;
        }
      }
    }
  }
  const { text, spans } = rebuildPlaced(runs);
  // The image's size in pixels: the page the boxes are fractions of.
  const W = Math.max(1, size.width), H = Math.max(1, size.height);
  const placed: PlacedRun[] = spans.map(({ run, start, end }) => ({
    start, end, x: run.box[0] / W, y: run.box[1] / H, width: (run.box[2] - run.box[0]) / W, height: (run.box[3] - run.box[1]) / H, confidence: Math.round(run.confidence * 100) / 100,
  }));
  return { text, runs: placed, confidence: runs.length ? confidence / runs.length / 100 : null, words: runs.length };
}

/** Ends this thread's OCR worker (the thread is going away). */
export async function endOcr(): Promise<void> {
  const w = worker;
  worker = null;
  if (w) await (await w).terminate().catch(() => {});
}
