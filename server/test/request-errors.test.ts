// What a caller is told when a request is wrong (issue 30, items 5, 9 and 10): a body without its `document`
// wrapper, JSON that does not parse, a document that is not exactly one of text and content, a file whose media type
// is not read (the accepted list built from documents/media-types.ts, so new media types need no change here), a
// blank document, and a body of the wrong media type. Each is a 4xx envelope that charges nothing.
import { FILE_MEDIA_TYPES } from '../src/documents/media-types.js';
import { textPdf } from './support/render-documents.js';
import { startTestServer, type TestServer } from './support/harness.js';

type Json = Record<string, any>;
const READ = Object.keys(FILE_MEDIA_TYPES).join(', ');
const INVOICE = 'ACME LLC\nInvoice No: INV-7\nTotal due: $4,500.00';
// A word-processing file of a kind that is not read (DOCX is; OpenDocument is not).
const ODT = 'application/vnd.oasis.opendocument.text';

describe('request errors a caller can act on', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_errors', plan: 'starter' } });
    key = (await s.createKey('acct_errors')).key;
  });
  afterAll(async () => { await s.close(); });

  const extract = (body: unknown, route = 'invoice') => s.fetch(`/v1/extract/${route}`, { method: 'POST', headers: { 'x-api-key': key }, json: body });
  const raw = (text: string, type = 'application/json', route = '/v1/extract/invoice') =>
    s.fetch(route, { method: 'POST', headers: { 'x-api-key': key, 'content-type': type }, body: text });
  const charged = async () => ({
    heu: (await s.db.prisma.usageBucket.findMany({ where: { accountId: 'acct_errors' } })).reduce((n, b) => n + b.heuUsed, 0),
    records: await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_errors' } }),
  });
  async function refused(res: Response, status: number, code: string): Promise<Json> {
    expect(res.status).toBe(status);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const body = (await res.json()) as Json;
    expect(body.error.code).toBe(code);
    return body.error;
  }

  it('a body without the document wrapper says the document goes inside a "document" member', async () => {
    const before = await charged();
    const error = await refused(await extract({ text: INVOICE }), 400, 'invalid_request');
    expect(error.message).toBe('/body/document is required: the document goes inside a "document" member, as {"document": {"text": "..."}}, not at the top of the body');
    expect(error.details.errors).toEqual([{ path: '/body/document', message: expect.stringContaining('inside a "document" member') }]);
    const empty = await refused(await extract({}), 400, 'invalid_request');
    expect(empty.message).toContain('{"document": {"text": "..."}}');
    expect(await charged()).toEqual(before);
  });

  it('JSON that does not parse says where, by line, column and character', async () => {
    const missingBrace = await refused(await raw('{"document": {"text": "x"}'), 400, 'malformed_json');
    expect(missingBrace.message).toBe("The request body is not valid JSON: expected ',' or '}' after property value at line 1, column 27 (character 26).");
    expect(missingBrace.details).toBeNull();
    const noValue = await refused(await raw('{\n  "document": }'), 400, 'malformed_json');
    expect(noValue.message).toBe('The request body is not valid JSON: a value was expected at line 2, column 15 (character 16).');
    const cut = await refused(await raw('{"document": {"text": "x"'), 400, 'malformed_json');
    expect(cut.message).toMatch(/at line 1, column \d+ \(character \d+\)\.$/);
  });

  it('a document with neither text nor content, or both, says exactly one of them, in one issue', async () => {
    const neither = await refused(await extract({ document: { filename: 'a.txt' } }), 400, 'invalid_request');
    expect(neither.details.errors).toEqual([{ path: '/body/document', message: "must have text (the document's text) or content (the file in base64, with its mediaType)" }]);
    const both = await refused(await extract({ document: { text: INVOICE, content: 'YQ==', mediaType: 'text/plain' } }), 400, 'invalid_request');
    expect(both.details.errors).toEqual([{ path: '/body/document', message: 'must have exactly one of text and content, not both' }]);
    expect(both.message).toBe('/body/document must have exactly one of text and content, not both');
  });

  it('a file without its mediaType, or with one that is not read, names the media types that are (from the list the service reads)', async () => {
    const missing = await refused(await extract({ document: { content: 'YQ==' } }), 400, 'invalid_request');
    expect(missing.details.errors).toEqual([{ path: '/body/document/mediaType', message: `is required with content: one of ${READ}` }]);
    const docx = await refused(await extract({ document: { content: 'YQ==', mediaType: ODT, filename: 'contract.odt' } }), 400, 'invalid_request');
    expect(docx.details.errors).toEqual([{ path: '/body/document/mediaType', message: `must be one of ${READ} with content: ${ODT} is not read` }]);
    // In a batch, the item's path.
    const batch = await refused(await extract({ items: [{ id: 'a', kind: 'invoice', document: { content: 'YQ==', mediaType: ODT } }] }, 'batch'), 400, 'invalid_request');
    expect(batch.details.errors).toEqual([{ path: '/body/items/0/document/mediaType', message: `must be one of ${READ} with content: ${ODT} is not read` }]);
  });

  it('a media type in another letter case or with parameters is read as its bare form, as before the contract listed them', async () => {
    const pdf = Buffer.from(await textPdf(INVOICE)).toString('base64');
    const res = await extract({ document: { content: pdf, mediaType: 'Application/PDF; version=1.7' } });
    expect(res.status).toBe(200);
    expect((await res.json()).source).toMatchObject({ mediaType: 'application/pdf', method: 'pdf_text' });
  });

  it('an .odt sent as a form file says which types are read, not to "name it with an extension"', async () => {
    const form = new FormData();
    form.append('file', new Blob(['PK\u0003\u0004'], { type: ODT }), 'contract.odt');
    const before = await charged();
    const error = await refused(await s.fetch('/v1/extract/contract', { method: 'POST', headers: { 'x-api-key': key }, body: form }), 400, 'invalid_request');
    expect(error.details.errors).toEqual([{ path: '/body/file', message: expect.stringMatching(/^is a \.odt file \(its Content-Type is application\/vnd\.oasis\.opendocument\.text\), which is not read: send one of /) }]);
    expect(error.message).toContain(READ);
    expect(error.message).not.toContain('name it with an extension');
    expect(await charged()).toEqual(before);
    // A form's mediaType field in capitals is read as its bare form too.
    const upper = new FormData();
    upper.append('file', new Blob([INVOICE]), 'invoice');
    upper.append('mediaType', 'TEXT/PLAIN');
    expect((await s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key }, body: upper })).status).toBe(200);
  });

  it('a document of white space only is 400 and charges nothing; in a batch that item fails alone', async () => {
    const before = await charged();
    const error = await refused(await extract({ document: { text: ' \n\t  ' } }), 400, 'invalid_request');
    expect(error.details.errors).toEqual([{ path: '/body/document/text', message: 'holds only white space: there is nothing to extract from' }]);
    expect(await charged()).toEqual(before);
    const res = await extract({ items: [{ id: 'blank', kind: 'invoice', document: { text: '   ' } }, { id: 'ok', kind: 'invoice', document: { text: INVOICE } }] }, 'batch');
    expect(res.status).toBe(200);
    const batch = (await res.json()) as Json;
    expect(batch.results[0]).toEqual({ id: 'blank', ok: false, error: { code: 'invalid_request', message: '/body/items/0/document/text holds only white space: there is nothing to extract from' } });
    expect(batch.results[1]).toMatchObject({ id: 'ok', ok: true });
    expect(batch.usage.heu).toBe(batch.results[1].usage.heu);
  });

  it('415 names both accepted content types where a route takes JSON and a form, and JSON alone elsewhere', async () => {
    const both = await refused(await raw(INVOICE, 'text/plain'), 415, 'unsupported_media_type');
    expect(both.message).toBe('The request body must be application/json or multipart/form-data.');
    const batch = await refused(await raw('x', 'text/plain', '/v1/extract/batch'), 415, 'unsupported_media_type');
    expect(batch.message).toBe('The request body must be application/json.');
  });
});
