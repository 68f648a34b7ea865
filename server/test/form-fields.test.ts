// Every field a multipart form documents is sendable as a plain form field: as curl sends it (`-F returnText=true`,
// `-F kinds=invoice -F kinds=receipt`, no part Content-Type) and as a generated client serialises a typed form
// (@hey-api/openapi-ts's formDataBodySerializer: strings as they are, an array a field per item). The bodies here are
// written byte by byte, so the test controls exactly what goes on the wire.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from './support/harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

const INVOICE = 'ACME LLC\nInvoice No: INV-7\nInvoice Date: 2026-04-18\nTotal due: $4,500.00';

type Part = { name: string; value: string | Uint8Array; filename?: string; type?: string };

/** A multipart/form-data body as curl writes it: fields are parts with no Content-Type of their own. */
function curlForm(parts: Part[], boundary = '------------------------curl7f3a'): { body: Buffer; type: string } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`));
    chunks.push(Buffer.from(p.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}
const file: Part = { name: 'file', value: INVOICE, filename: 'invoice.txt', type: 'text/plain' };
const field = (name: string, value: string): Part => ({ name, value });

describe('multipart form fields as plain form fields', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_fields', plan: 'starter' } });
    key = (await s.createKey('acct_fields')).key;
  });
  afterAll(async () => { await s.close(); });

  const send = async (path: string, parts: Part[]) => {
    const { body, type } = curlForm(parts);
    const res = await s.fetch(path, { method: 'POST', headers: { 'x-api-key': key, 'content-type': type }, body: new Uint8Array(body) });
    return { status: res.status, body: await res.json() as Record<string, any> };
  };
  const json = async (path: string, body: unknown) => {
    const res = await s.fetch(path, { method: 'POST', headers: { 'x-api-key': key }, json: body });
    return { status: res.status, body: await res.json() as Record<string, any> };
  };

  it.each([
    ['true', true], ['1', true], ['false', false], ['0', false],
  ])('returnText=%s (curl -F) answers 200, the text returned: %s', async (value, returned) => {
    const { status, body } = await send('/v1/extract/invoice', [file, field('returnText', value)]);
    expect([status, body.error?.message]).toEqual([200, undefined]);
    expect(body.source.text).toBe(returned ? INVOICE : undefined);
  });

  it('returnText with another value: 400 naming the values taken', async () => {
    const { status, body } = await send('/v1/extract/invoice', [file, field('returnText', 'yes')]);
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.message).toMatch(/returnText/);
  });

  it('minConfidence and returnText together, as plain fields, on every file route that documents them', async () => {
    for (const route of ['invoice', 'receipt', 'contract', 'job-posting', 'meeting-notes', 'renewal']) {
      const { status, body } = await send(`/v1/extract/${route}`, [file, field('minConfidence', '0'), field('returnText', 'true')]);
      expect([route, status, body.error?.message]).toEqual([route, 200, undefined]);
      expect(body.source.text).toBe(INVOICE);
    }
    const auto = await send('/v1/extract/auto', [file, field('returnText', 'true'), field('kinds', 'invoice')]);
    expect([auto.status, auto.body.error?.message]).toEqual([200, undefined]);
  });

  describe('classify: kinds as a field per kind, or one JSON field; [] refused as in JSON', () => {
    it('-F kinds=invoice -F kinds=receipt (also how generated clients send an array) chooses among those kinds', async () => {
      const { status, body } = await send('/v1/classify', [file, field('kinds', 'receipt'), field('kinds', 'contract')]);
      expect([status, body.error?.message]).toEqual([200, undefined]);
      // An invoice, asked among receipt and contract only: other.
      expect(body.kind).toBe('other');
      const invoice = await send('/v1/classify', [file, field('kinds', 'invoice'), field('kinds', 'receipt')]);
      expect(invoice.body.kind).toBe('invoice');
    });

    it('one field holding the JSON array, as earlier versions of the contract asked, is still read', async () => {
      const { status, body } = await send('/v1/classify', [file, field('kinds', '["receipt","contract"]')]);
      expect([status, body.error?.message]).toEqual([200, undefined]);
      expect(body.kind).toBe('other');
    });

    it('kinds=[] is 400 as "kinds": [] in JSON is, with the same error', async () => {
      const form = await send('/v1/classify', [file, field('kinds', '[]')]);
      const body = await json('/v1/classify', { document: { text: INVOICE }, kinds: [] });
      expect(body.status).toBe(400);
      expect(form.status).toBe(400);
      expect(form.body.error.code).toBe('invalid_request');
      expect(form.body.error.details.errors.map((e: { message: string }) => e.message)).toEqual(body.body.error.details.errors.map((e: { message: string }) => e.message));
    });

    it('a kind that is not one: 400', async () => {
      const { status, body } = await send('/v1/classify', [file, field('kinds', 'invoice'), field('kinds', 'teapot')]);
      expect(status).toBe(400);
      expect(body.error.message).toMatch(/kinds/);
    });

    it('minConfidence and returnText (deprecated on classify) are accepted and change nothing', async () => {
      const plain = await send('/v1/classify', [file]);
      const { status, body } = await send('/v1/classify', [file, field('minConfidence', '0.9'), field('returnText', 'true')]);
      expect([status, body.error?.message]).toEqual([200, undefined]);
      expect({ kind: body.kind, confidence: body.confidence, source: body.source }).toEqual({ kind: plain.body.kind, confidence: plain.body.confidence, source: plain.body.source });
      expect(body.source.text).toBeUndefined();
    });
  });

  it('@hey-api/openapi-ts: its stock client and form serialiser send a typed form the service reads (returnText, kinds)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hey-api-forms-'));
    try {
      await run(process.execPath, [join(root, 'node_modules/@hey-api/openapi-ts/bin/run.js'), '-i', join(root, 'generated/openapi.json'), '-o', join(dir, 'client')], { cwd: dir, timeout: 120_000 });
      // The typed form (ExtractFileForm, ClassifyFileForm) through hey-api's own formDataBodySerializer. The generated
      // operation types the JSON body (the first media type), so a form is passed with the serialiser, as hey-api's
      // documentation shows for multipart bodies; the Content-Type is left to fetch (it adds the boundary).
      // An ES module package, as a partner's would be (so the client's modules are loaded once, as ESM).
      writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
      writeFileSync(join(dir, 'call.ts'), `
import { client } from './client/client.gen.js';
import { formDataBodySerializer } from './client/core/bodySerializer.gen.js';
import { extractInvoice, classifyDocument } from './client/index.js';
import type { ExtractFileForm, ClassifyFileForm } from './client/index.js';

client.setConfig({ baseUrl: process.env.BASE_URL, headers: { 'x-api-key': process.env.API_KEY } });
const file = new Blob([${JSON.stringify(INVOICE)}], { type: 'text/plain' });
const invoiceForm: ExtractFileForm = { file, filename: 'invoice.txt', minConfidence: '0', returnText: 'true' };
const classifyForm: ClassifyFileForm = { file, filename: 'invoice.txt', kinds: ['receipt', 'contract'] };
const asForm = { bodySerializer: formDataBodySerializer.bodySerializer, headers: { 'Content-Type': null } } as const;
const invoice = await extractInvoice({ body: invoiceForm as never, ...asForm });
const classified = await classifyDocument({ body: classifyForm as never, ...asForm });
console.log(JSON.stringify({
  invoice: { status: invoice.response.status, text: invoice.data?.source.text, error: invoice.error },
  classify: { status: classified.response.status, kind: classified.data?.kind, error: classified.error },
}));
`);
      const { stdout } = await run(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), join(dir, 'call.ts')], { cwd: dir, timeout: 120_000, env: { ...process.env, BASE_URL: s.baseUrl, API_KEY: key } });
      expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({
        invoice: { status: 200, text: INVOICE },
        classify: { status: 200, kind: 'other' },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
