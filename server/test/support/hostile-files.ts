// Hostile files, generated (no fixtures): the flate bomb, a page of 7000 points, and images whose first header lies
// about their size. Used by the sandbox tests and scripts/bench-documents.ts.
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A PDF of the given pages, each `{ width, height }` in points with an uncompressed content stream (deflated here). */
export function pdfWith(pages: { width: number; height: number; content: Buffer }[]): Buffer {
  const objs: (string | Buffer)[] = [];
  const add = (o: string | Buffer) => objs.push(o);
  const catalog = add(''), pagesId = add('');
  const kids: number[] = [];
  for (const p of pages) {
    const z = deflateSync(p.content, { level: 9 });
    const c = add(Buffer.concat([Buffer.from(`<< /Length ${z.length} /Filter /FlateDecode >>\nstream\n`), z, Buffer.from('\nendstream')]));
    kids.push(add(`<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 ${p.width} ${p.height}] /Contents ${c} 0 R /Resources << >> >>`));
  }
  objs[catalog - 1] = `<< /Type /Catalog /Pages ${pagesId} 0 R >>`;
  objs[pagesId - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const parts = [Buffer.from('%PDF-1.7\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objs.forEach((o, i) => {
    offsets.push(length);
    const b = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(o) ? o : Buffer.from(o), Buffer.from('\nendobj\n')]);
    parts.push(b);
    length += b.length;
  });
  const xref = `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}trailer\n<< /Size ${objs.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(xref));
  return Buffer.concat(parts);
}

/**
 * The flate bomb: one Letter page whose content stream inflates to 100 MB of `0 0 1 1 re f` (about 195 KB deflated),
 * and no text layer, so the reader draws it for OCR.
 */
export function flateBombPdf(inflatedBytes = 100e6): Buffer {
  const op = Buffer.from('0 0 1 1 re f\n');
  const n = Math.ceil(inflatedBytes / op.length);
  return pdfWith([{ width: 612, height: 792, content: Buffer.alloc(n * op.length).fill(op) }]);
}

/** A page of `points` x `points` (7000: 441 megapixels when drawn at 3x), with one square and no text: 582 bytes. */
export function hugePagePdf(points = 7000): Buffer {
  return pdfWith([{ width: points, height: points, content: Buffer.from('0 0 1 1 re f\n') }]);
}

/**
 * A real `size` x `size` JPEG whose SOF marker is preceded by a fill byte (0xFF, which JPEG allows before any marker),
 * followed by a comment holding a decoy SOF of 100 x 100: a header parser that takes the fill byte for a marker and
 * its "length" (0xC000) lands on the decoy, while a JPEG decoder reads the real frame.
 */
export async function decoyJpeg(size = 8000): Promise<Buffer> {
  const real = await sharp({ create: { width: size, height: size, channels: 3, background: '#ffffff' } }).jpeg({ quality: 50, mozjpeg: false, progressive: false }).toBuffer();
  // Split the JPEG into its segments up to the scan.
  const segments: Buffer[] = [];
  let at = 2;
  let sof: Buffer | null = null;
  while (at < real.length) {
    const marker = real[at + 1]!;
    const length = real.readUInt16BE(at + 2);
    const segment = real.subarray(at, at + 2 + length);
    if (marker === 0xda) break; // start of scan: the rest is copied as it is
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) sof = segment;
    else segments.push(segment);
    at += 2 + length;
  }
  if (!sof) throw new Error('no SOF in the generated JPEG');
  // SOI at 0-1, the fill byte at 2, the real SOF from 3: a parser reading a marker at 2 sees 0xFF with length 0xC000
  // (the SOF's marker byte and its length's high byte) and jumps to 2 + 2 + 0xC000 = 49156.
  const head = Buffer.concat([real.subarray(0, 2), Buffer.from([0xff]), sof]);
  const decoyAt = 2 + 2 + ((0xc0 << 8) | sof[2]!);
  const commentStart = head.length; // FF FE LL LL, then the payload
  const payload = Buffer.alloc(decoyAt - (commentStart + 4) + 32, 0x20);
  Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x64, 0x00, 0x64, 0x03]).copy(payload, decoyAt - (commentStart + 4));
  const comment = Buffer.concat([Buffer.from([0xff, 0xfe, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]), payload]);
  return Buffer.concat([head, comment, ...segments, real.subarray(at)]);
}

/**
 * A TIFF of 20000 x 20000 one-bit pixels (deflated: about 50 KB) whose width and height tags appear twice: first the
 * real size, then 100 x 100 at the end of the directory, which a parser keeping the last value reports.
 */
export function duplicateTagTiff(size = 20000): Buffer {
  const rowBytes = Math.ceil(size / 8);
  const data = deflateSync(Buffer.alloc(rowBytes * size), { level: 9 });
  const entries: [tag: number, type: 3 | 4, value: number][] = [
    [256, 4, size], [257, 4, size],
    [258, 3, 1], [259, 3, 8], [262, 3, 0],
    [273, 4, 0 /* data offset, set below */], [277, 3, 1], [278, 4, size], [279, 4, data.length],
    [256, 4, 100], [257, 4, 100],
  ];
  const ifdAt = 8;
  const dataAt = ifdAt + 2 + entries.length * 12 + 4;
  const out = Buffer.alloc(dataAt + data.length);
  out.write('II', 0, 'latin1');
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(ifdAt, 4);
  out.writeUInt16LE(entries.length, ifdAt);
  entries.forEach(([tag, type, value], i) => {
    const e = ifdAt + 2 + i * 12;
    out.writeUInt16LE(tag, e);
    out.writeUInt16LE(type, e + 2);
    out.writeUInt32LE(1, e + 4);
    const v = tag === 273 ? dataAt : value;
    if (type === 3) out.writeUInt16LE(v, e + 8);
    else out.writeUInt32LE(v, e + 8);
  });
  out.writeUInt32LE(0, ifdAt + 2 + entries.length * 12);
  data.copy(out, dataAt);
  return out;
}
