import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { ZIP_LIMITS } from './limits.js';
import { DocumentProblemError, problem } from './problems.js';

/** The parts of a ZIP archive that passed the guard, by name, with the bytes each inflated to. */
export type ZipParts = Map<string, number>;

type EntryIterator = AsyncIterable<yauzl.Entry>;

/**
 * Checks a ZIP archive (a DOCX or an XLSX) before a library reads it, because those libraries inflate whatever the
 * archive holds: at most ZIP_LIMITS.entries parts, no encrypted part, declared sizes within ZIP_LIMITS.inflatedBytes
 * together, and then every part really inflated (streamed, nothing kept) while counting its bytes: yauzl stops a part
 * that inflates past its declared size (a zip bomb that lies about its sizes), and the count stops the whole archive
 * at the budget. A damaged archive is `document_unreadable`; one over a limit `payload_too_large`.
 * `what` names the file in messages ("The DOCX").
 */
export async function guardZip(bytes: Uint8Array, what: string): Promise<ZipParts> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: true });
  } catch {
    return problem({ code: 'document_unreadable', message: `${what} cannot be read: it is damaged or not a ZIP archive.` });
  }
  const parts: ZipParts = new Map();
  try {
    if (zip.entryCount > ZIP_LIMITS.entries) tooMany(what, zip.entryCount);
    const entries: yauzl.Entry[] = [];
    let declared = 0;
    for await (const entry of (zip as unknown as { eachEntry(): EntryIterator }).eachEntry()) {
      if (entry.isEncrypted()) problem({ code: 'document_encrypted', message: `${what} is encrypted: send it without a password.` });
      declared += entry.uncompressedSize;
      if (declared > ZIP_LIMITS.inflatedBytes) tooLarge(what);
      if (!entry.fileName.endsWith('/')) entries.push(entry);
    }
    let inflated = 0;
    for (const entry of entries) {
      const stream: Readable = await zip.openReadStreamPromise(entry);
      let size = 0;
      for await (const chunk of stream) {
        size += (chunk as Buffer).byteLength;
        inflated += (chunk as Buffer).byteLength;
        if (inflated > ZIP_LIMITS.inflatedBytes) {
          stream.destroy();
          tooLarge(what);
        }
      }
      parts.set(entry.fileName, size);
    }
    return parts;
  } catch (e) {
    if (e instanceof DocumentProblemError) throw e;
    // A part whose data does not inflate, or inflates to another size than its header says.
    return problem({ code: 'document_unreadable', message: `${what} cannot be read: a part of it is damaged.` });
  } finally {
    zip.close();
  }
}

function tooMany(what: string, count: number): never {
  return problem({ code: 'payload_too_large', message: `${what} holds ${count.toLocaleString('en-US')} parts; at most ${ZIP_LIMITS.entries.toLocaleString('en-US')} are read.`, limit: ZIP_LIMITS.entries });
}

function tooLarge(what: string): never {
  return problem({ code: 'payload_too_large', message: `${what} inflates to more than ${ZIP_LIMITS.inflatedBytes.toLocaleString('en-US')} bytes, the most that is read.`, limit: ZIP_LIMITS.inflatedBytes });
}
