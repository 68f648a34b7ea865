// Reading a file in a reader thread: the budget counts from when the thread starts on the file.
import { readFile } from '../../src/documents/read-file.js';
import { DocumentProblemError } from '../../src/documents/problems.js';
import { textPdf } from '../support/render-documents.js';

describe('readFile', () => {
  it('reads a PDF within its deadline, and gives a PDF up, as unreadable, once its deadline has passed', async () => {
    const pdf = await textPdf('ACME LLC\nInvoice INV-7\nTotal due: $4,500.00');
    expect((await readFile(pdf, 'application/pdf', Date.now() + 60_000)).text).toContain('Invoice INV-7');
    const late = await readFile(pdf, 'application/pdf', Date.now() - 1).then(() => null, (e: unknown) => e);
    expect(late).toBeInstanceOf(DocumentProblemError);
    expect((late as DocumentProblemError).problem).toMatchObject({ code: 'document_unreadable', message: 'The file took too long to read.' });
  });
});
