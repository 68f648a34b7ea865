// The universal entry parses in this thread (the Node entry starts a worker thread of its own for every file).
import readExcelFile from 'read-excel-file/universal';
import { DocumentProblemError, problem } from './problems.js';
import { textTable } from './text-table.js';
import { guardZip } from './zip-guard.js';

/** The text of a workbook and where each sheet begins: a sheet is read as a page of its own. */
export interface SheetText {
  text: string;
  pageStarts: number[];
  /** The sheets' names, in the workbook's order. */
  sheets: string[];
}

/** A cell as it would be printed: text as is, numbers as written, dates as YYYY-MM-DD (with the time when it has one). */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 16).replace('T', ' ');
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}

/**
 * Reads an XLSX workbook with read-excel-file: each sheet as a page headed `Sheet: <name>`, its cells as a text table
 * (the values a spreadsheet stored: formulas as their last computed value, date cells as dates). Empty sheets are left
 * out. The archive is checked first (`guardZip`); a ZIP that is not a workbook (a DOCX sent as XLSX) is
 * `document_type_mismatch`.
 */
export async function sheetText(bytes: Uint8Array): Promise<SheetText> {
  const parts = await guardZip(bytes, 'The XLSX');
  if (!parts.has('xl/workbook.xml')) {
    return problem({ code: 'document_type_mismatch', message: 'The bytes of document.content are not an Excel workbook (XLSX): it has no xl/workbook.xml.' });
  }
  let sheets: Array<{ sheet: string; data: unknown[][] }>;
  try {
    // A copy of exactly these bytes: `bytes` may be a Buffer, a view into a larger pool, whose `slice` does not copy.
    sheets = (await readExcelFile(new Uint8Array(bytes).buffer)) as Array<{ sheet: string; data: unknown[][] }>;
  } catch (e) {
    if (e instanceof DocumentProblemError) throw e;
    return problem({ code: 'document_unreadable', message: 'The XLSX cannot be read: its sheets are damaged.' });
  }
  const pages: string[] = [];
  const names: string[] = [];
  for (const { sheet, data } of sheets) {
    const table = textTable(data.map((row) => row.map(cellText)));
    if (table === '') continue;
    pages.push(`Sheet: ${sheet}\n\n${table}`);
    names.push(sheet);
  }
  const pageStarts: number[] = [];
  let offset = 0;
  for (const page of pages) {
    pageStarts.push(offset);
    offset += page.length + 2;
  }
  return { text: pages.join('\n\n'), pageStarts: pageStarts.length ? pageStarts : [0], sheets: names };
}
