import sharp, { type Metadata } from 'sharp';
import { MAX_PIXELS, MIN_IMAGE_EDGE, OCR_PIXELS } from './limits.js';
import type { FileMediaType } from './media-types.js';
import { problem } from './problems.js';

// One file at a time in a reader process: no cache kept between operations, one libvips thread (the process is one
// of a bounded number, each meant to use about a core).
sharp.cache(false);
sharp.concurrency(1);

/** The image media types, by the format name sharp's decoder (libvips) gives the bytes. */
const FORMATS: Readonly<Record<string, FileMediaType>> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', tiff: 'image/tiff' };

/**
 * Every image is opened by sharp with its own limits: the decoder refuses a frame over MAX_PIXELS (the frame it would
 * decode, read by libjpeg/libpng/libtiff/libwebp themselves, not by a header parser of ours: a JPEG's decoy SOF behind
 * a fill byte or a TIFF's duplicate size tags cannot lie to it), and fails on damaged data. Only the first page of a
 * multi-page TIFF is read.
 */
const decodeOptions = { limitInputPixels: MAX_PIXELS, failOn: 'error', pages: 1 } as const;

/**
 * The size of an image as its decoder reads it, checked: of the declared media type (400 when not), within the pixel
 * limit (413), large enough to hold text (422). Throws DocumentProblemError.
 */
export async function imageFacts(bytes: Uint8Array, declared: FileMediaType): Promise<{ width: number; height: number }> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, decodeOptions).metadata();
  } catch (e) {
    const message = e instanceof Error ? e.message : '';
    if (/pixel limit/i.test(message)) return overLimit();
    if (/unsupported image format/i.test(message)) return problem({ code: 'document_type_mismatch', message: `The bytes of document.content are not ${declared}.` });
    return problem({ code: 'document_unreadable', message: 'The image cannot be read: its header is damaged.' });
  }
  if (FORMATS[meta.format ?? ''] !== declared) problem({ code: 'document_type_mismatch', message: `The bytes of document.content are not ${declared}.` });
  const width = meta.width ?? 0, height = meta.height ?? 0;
  if (width * height > MAX_PIXELS) return overLimit(width, height);
  if (Math.min(width, height) < MIN_IMAGE_EDGE) {
    problem({ code: 'document_unreadable', message: `The image is ${width}×${height} pixels: too small to hold legible text (at least ${MIN_IMAGE_EDGE} pixels a side).` });
  }
  return { width, height };
}

/**
 * An image (any of the formats above, or a page drawn for OCR) decoded by sharp within the limits and encoded again as
 * a grayscale PNG of at most OCR_PIXELS (scaled down when larger): what OCR decodes is what was checked, in a format
 * and size we made (8 bits a pixel for tesseract, not the 32 of a colour page); with its width and height in pixels.
 */
export async function ocrReadyPng(image: Uint8Array): Promise<{ png: Buffer; width: number; height: number }> {
  try {
    const { width = 0, height = 0 } = await sharp(image, decodeOptions).metadata();
    let pipeline = sharp(image, decodeOptions).grayscale();
    let size = { width, height };
    if (width * height > OCR_PIXELS) {
      const scale = Math.sqrt(OCR_PIXELS / (width * height));
      size = { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
      pipeline = pipeline.resize({ ...size, fit: 'fill' });
    }
    // The PNG's own size: OCR's word boxes are in its pixels.
    return { png: await pipeline.png({ compressionLevel: 1 }).toBuffer(), ...size };
  } catch (e) {
    if (e instanceof Error && /pixel limit/i.test(e.message)) return overLimit();
    return problem({ code: 'document_unreadable', message: 'The image cannot be decoded.' });
  }
}

function overLimit(width?: number, height?: number): never {
  const size = width && height ? `${width}×${height} pixels` : `over ${MAX_PIXELS.toLocaleString('en-US')} pixels`;
  return problem({ code: 'payload_too_large', message: `The image is ${size}; at most ${MAX_PIXELS.toLocaleString('en-US')} pixels are read.`, limit: MAX_PIXELS });
}
