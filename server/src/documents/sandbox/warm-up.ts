import type { ReaderTask } from '../reader-task.js';

/**
 * A one-page PDF of our own (text in Helvetica and Courier, the standard fonts most files use): a spare reader process
 * probes and reads it while it waits, so pdf.js's first document (its fonts, its code compiled) is paid before a
 * caller's file arrives, not by it (a cold read took 300-450 ms here, a warm one 15-60 ms). No caller's bytes are
 * involved: the process still starts each caller's file with nothing of another's.
 */
function warmUpPdf(): Uint8Array {
  const content = 'BT /F1 12 Tf 72 720 Td (Warm-up invoice INV-0 total 0.00) Tj ET BT /F2 10 Tf 72 700 Td (Description  Qty  Amount) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}

export function warmUpTasks(): ReaderTask[] {
  const bytes = warmUpPdf();
  return [{ op: 'probe', bytes, mediaType: 'application/pdf' }, { op: 'read', bytes, mediaType: 'application/pdf' }];
}
