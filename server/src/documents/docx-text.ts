import mammoth from 'mammoth';
import { htmlToText } from './html-text.js';
import { problem } from './problems.js';
import { guardZip } from './zip-guard.js';

/** A line that stands for a page break while the HTML is turned into text (a private-use character, never in text). */
const PAGE_MARK = '\uE000page\uE000';

/** The text of a DOCX and where each page begins (page 1 at 0; a page is what an explicit page break starts). */
export interface DocxText {
  text: string;
  pageStarts: number[];
}

/**
 * Reads a DOCX (Word) file with mammoth: paragraphs as lines, headings and lists as their text, tables as aligned
 * rows (through the same HTML-to-text conversion as an HTML file), images and comments left out. Explicit page
 * breaks start pages, so a DOCX holding several documents one after another can be split where they begin. The
 * archive is checked first (`guardZip`); a ZIP that is not a Word document (an XLSX sent as DOCX) is
 * `document_type_mismatch`. Reads no file outside the document (mammoth's `externalFileAccess` stays off).
 */
export async function docxText(bytes: Uint8Array): Promise<DocxText> {
  const parts = await guardZip(bytes, 'The DOCX');
  if (!parts.has('word/document.xml')) {
    return problem({ code: 'document_type_mismatch', message: 'The bytes of document.content are not a Word document (DOCX): it has no word/document.xml.' });
  }
  let html: string;
  try {
    const result = await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }, {
      styleMap: ["br[type='page'] => hr"],
      // Images carry no text the engines read: leave them out rather than inline their bytes as data URLs.
      convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
      externalFileAccess: false,
      ignoreEmptyParagraphs: false,
    });
    html = result.value;
  } catch {
    return problem({ code: 'document_unreadable', message: 'The DOCX cannot be read: its document part is damaged.' });
  }
  const text = htmlToText(html.replace(/<hr\s*\/?>/g, `<p>${PAGE_MARK}</p>`), { paragraphsAsLines: true });
  const pages = text.split(new RegExp(`\\n*${PAGE_MARK}\\n*`)).map((page) => page.trim());
  const kept = pages.filter((page, i) => page !== '' || i === 0);
  const pageStarts: number[] = [];
  let offset = 0;
  for (const page of kept) {
    pageStarts.push(offset);
    offset += page.length + 2;
  }
  return { text: kept.join('\n\n'), pageStarts };
}
