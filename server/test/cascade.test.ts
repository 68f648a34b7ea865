// EXTRACTION_ENGINE=cascade against the fake Messages API (support/fake-anthropic.ts): the offline engine answers first,
// the members whose every value it vouches for (confidence at least CASCADE_KEEP) are kept, and Claude is asked, in
// one call, for the other members only, with the offline values as hints it may overrule. A document the offline
// engine vouches for entirely costs no call and is charged as the offline engine is.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/config.js';
import { ASK_NOTE, HINT_PREFIX } from '../src/extraction/engines/cascade/ask-schema.js';
import { DEFAULT_CASCADE_KEEP } from '../src/extraction/engines/cascade/keep.js';
import { emptyAnswer } from './support/answers.js';
import { FakeAnthropic, schemaOf, type RecordedRequest } from './support/fake-anthropic.js';
import { FakeOpenAI, schemaOf as openaiSchemaOf } from './support/fake-openai.js';
import { renewalAnswer } from './support/fake-quotes.js';
import { textPdf } from './support/render-documents.js';
import { startTestServer, type TestServer } from './support/harness.js';

type Json = Record<string, any>;

// The offline engine finds every value of this invoice; it vouches (>= 0.9) for all but the vendor (its name and
// address at 0.76 and 0.62, no tax id), the customer (no tax id) and the tax (not stated).
const INVOICE = `ACME CLOUD SUPPLY LLC
12 Harbour Road, Portland, OR 97201
Invoice Number: INV-2041
Invoice Date: 2026-03-01
Due Date: 2026-03-31
Bill To: Northwind Traders, 4 Elm Street, Boston, MA 02110

Description            Qty   Unit Price    Amount
Cloud hosting plan       1     1,000.00  1,000.00
Support hours            5        50.00    250.00

Subtotal: $1,250.00
Total due: $1,250.00`;

// A caller's schema whose every value the offline engine finds at 0.95 or more in INVOICE.
const SCHEMA = {
  type: 'object',
  properties: {
    dueDate: { type: 'string', format: 'date', description: 'The date payment is due' },
    total: { type: 'number', description: 'Total amount due' },
    subtotal: { type: 'number', description: 'Subtotal before tax' },
  },
  required: ['dueDate', 'total', 'subtotal'],
};

const isClassification = (req: RecordedRequest) => Boolean((schemaOf(req).properties as Json | undefined)?.alternatives);
const askedMembers = (req: RecordedRequest) => Object.keys(schemaOf(req).properties as Json);

/** What the model answers for the invoice's asked members: the vendor's name shortened and its address null (overruling both hints). */
const MODEL_ANSWER = {
  vendor: { name: 'ACME CLOUD SUPPLY', address: null, taxId: null },
  customer: { name: 'Northwind Traders', address: '4 Elm Street, Boston, MA 02110', taxId: null },
  tax: null,
};

describe('EXTRACTION_ENGINE=cascade (offline rules, then Claude on the fake provider)', () => {
  let fake: FakeAnthropic;
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    fake = await (new FakeAnthropic()).start();
    s = await startTestServer('embedded', {
      EXTRACTION_ENGINE: 'cascade', CASCADE_KEEP: '0.9',
      ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_TIMEOUT_MS: '5000', ANTHROPIC_MAX_RETRIES: '0',
      PLANS_FILE: '', JOB_POLL_INTERVAL_MS: '100',
    }, undefined, { worker: true });
    await s.db.prisma.account.create({ data: { id: 'acct_cascade', plan: 'starter' } });
    key = (await s.createKey('acct_cascade')).key;
  });
  afterAll(async () => { await s.close(); await fake.stop(); });
  beforeEach(() => {
    fake.reset();
    fake.fallback = (req) => (isClassification(req)
      ? { kind: 'answer', input: { kind: 'receipt', confidence: 0.81, alternatives: [{ kind: 'invoice', confidence: 0.1 }] }, usage: { input_tokens: 900, output_tokens: 40 } }
      : { kind: 'answer', input: { ...(emptyAnswer(schemaOf(req)) as Json), ...Object.fromEntries(Object.entries(MODEL_ANSWER).filter(([k]) => askedMembers(req).includes(k))) }, usage: { input_tokens: 2100, output_tokens: 400 } });
  });

  const post = (path: string, body: unknown) => s.fetch(path, { method: 'POST', headers: { 'x-api-key': key }, json: body });
  const heuUsed = async () => (await (await s.fetch('/v1/account', { headers: { 'x-api-key': key } })).json()).heuUsed as number;

  it('a document the offline engine vouches for entirely: no call to the model, charged as the offline engine, model local-rules-1', async () => {
    const before = await heuUsed();
    const res = await post('/v1/extract/custom', { document: { text: INVOICE }, schema: SCHEMA });
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(fake.requests).toHaveLength(0);
    expect(body.data).toEqual({ dueDate: '2026-03-31', total: 1250, subtotal: 1250 });
    expect(body.model).toBe('local-rules-1');
    // The offline engine's cost: what it read (the document and the caller's schema) and wrote, 4 characters a token.
    expect(body.usage).toEqual({
      inputTokens: Math.ceil((INVOICE.length + JSON.stringify(SCHEMA).length) / 4),
      outputTokens: Math.ceil(JSON.stringify(body.data).length / 4),
      heu: 1,
    });
    expect(await heuUsed()).toBe(before + 1);
    for (const pointer of ['/dueDate', '/total', '/subtotal']) expect(body.evidence[pointer]).toMatchObject({ engine: 'local', confidence: expect.any(Number) });
    expect(Object.values(body.evidence).every((e: any) => e.confidence >= 0.9)).toBe(true);
  });

  it('a document it vouches for in part: one call asking only the other members, with the offline values as hints the prompt says may be overruled', async () => {
    const before = await heuUsed();
    const res = await post('/v1/extract/invoice', { document: { text: INVOICE }, minConfidence: 0 });
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(fake.refused).toEqual([]);
    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!;
    // Only the members the offline engine did not vouch for, in the contract's order, all required.
    const asked = schemaOf(sent) as Json;
    expect(Object.keys(asked.properties)).toEqual(['vendor', 'customer', 'tax']);
    expect(asked.description).toContain(ASK_NOTE);
    expect(asked.description).toMatch(/overrule the hint, null included/);
    // The offline values that were found go as hints; a member it found nothing for (tax) has none.
    expect(asked.properties.vendor.description).toContain(`${HINT_PREFIX} {"name":"ACME CLOUD SUPPLY LLC","address":"12 Harbour Road, Portland, OR 97201","taxId":null}`);
    expect(asked.properties.customer.description).toContain(`${HINT_PREFIX} {"name":"Northwind Traders"`);
    expect(JSON.stringify(asked.properties.tax)).not.toContain(HINT_PREFIX);
    expect(JSON.stringify(asked)).not.toContain('invoiceNumber');
    // The whole document is still sent: the model reads it, not the hints.
    expect(JSON.stringify(sent.body.messages)).toContain('Support hours');

    // The model's members and the offline engine's, merged in the contract's order.
    expect(body.data).toEqual({
      invoiceNumber: 'INV-2041', issueDate: '2026-03-01', dueDate: '2026-03-31',
      vendor: { name: 'ACME CLOUD SUPPLY', address: null, taxId: null },
      customer: { name: 'Northwind Traders', address: '4 Elm Street, Boston, MA 02110', taxId: null },
      lineItems: [
        { description: 'Cloud hosting plan', quantity: 1, unitPrice: 1000, amount: 1000 },
        { description: 'Support hours', quantity: 5, unitPrice: 50, amount: 250 },
      ],
      subtotal: 1250, tax: null, total: 1250, currency: 'USD',
    });
    // The model was called: its name and its usage, and nothing for the offline pass.
    expect(body.model).toBe('claude-sonnet-5-5');
    expect(body.usage).toMatchObject({ inputTokens: 2100, outputTokens: 400 });
    expect(await heuUsed()).toBe(before + body.usage.heu);
    // Each value says which engine answered it; the model's quotes are located in the text as for Claude.
    expect(body.evidence['/invoiceNumber']).toMatchObject({ engine: 'local', quote: 'INV-2041' });
    expect(body.evidence['/lineItems/1/amount']).toMatchObject({ engine: 'local' });
    expect(body.evidence['/vendor/name']).toMatchObject({ engine: 'anthropic', quote: expect.stringContaining('ACME CLOUD SUPPLY') });
    expect(INVOICE.slice(body.evidence['/vendor/name'].start, body.evidence['/vendor/name'].end)).toBe(body.evidence['/vendor/name'].quote);
    expect(body.evidence['/customer/name']).toMatchObject({ engine: 'anthropic' });
  });

  it('the model overrules a hint: its value, even null, is the answer', async () => {
    const body = await (await post('/v1/extract/invoice', { document: { text: INVOICE }, minConfidence: 0 })).json();
    expect((schemaOf(fake.requests[0]!) as Json).properties.vendor.description).toContain('"address":"12 Harbour Road, Portland, OR 97201"');
    expect(body.data.vendor).toEqual({ name: 'ACME CLOUD SUPPLY', address: null, taxId: null });
    expect(body.evidence['/vendor/address']).toBeUndefined();
  });

  it('a batch: each item asks the model only for what it needs (one call for two items)', async () => {
    const res = await post('/v1/extract/batch', { items: [
      { id: 'vouched', document: { text: INVOICE }, schema: SCHEMA },
      { id: 'partial', document: { text: INVOICE }, kind: 'invoice' },
    ] });
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.results.map((r: Json) => [r.id, r.ok])).toEqual([['vouched', true], ['partial', true]]);
    expect(fake.requests).toHaveLength(1);
    expect(askedMembers(fake.requests[0]!)).toEqual(['vendor', 'customer', 'tax']);
    expect(body.results[0].data).toEqual({ dueDate: '2026-03-31', total: 1250, subtotal: 1250 });
    expect(body.results[1].data.vendor.name).toBe('ACME CLOUD SUPPLY');
  });

  it('a job gives the synchronous answer, asked the same way', async () => {
    const accepted = await (await post('/v1/jobs', { route: 'invoice', document: { text: INVOICE } })).json();
    let job: Json = {};
    for (let i = 0; i < 300 && !['succeeded', 'failed'].includes(job.status); i++) {
      await new Promise((r) => setTimeout(r, 50));
      job = await (await s.fetch(`/v1/jobs/${accepted.id}`, { headers: { 'x-api-key': key } })).json();
    }
    expect(job.status).toBe('succeeded');
    expect(askedMembers(fake.requests[0]!)).toEqual(['vendor', 'customer', 'tax']);
    const sync = await (await post('/v1/extract/invoice', { document: { text: INVOICE } })).json();
    // The same answer; only the prompt cache differs (the job's call wrote it, the synchronous one read it).
    const withoutCache = ({ usage: { cacheReadInputTokens: _r, cacheCreationInputTokens: _w, ...usage }, ...rest }: Json) => ({ ...rest, usage });
    expect(withoutCache(job.result)).toEqual(withoutCache(sync));
    expect(job.result.evidence['/invoiceNumber'].engine).toBe('local');
  });

  it('classify: the offline classifier when it is sure (no call), the model when it is not', async () => {
    const sure = await (await post('/v1/classify', { document: { text: INVOICE } })).json();
    expect(sure).toMatchObject({ kind: 'invoice', model: 'local-rules-1' });
    expect(sure.confidence).toBeGreaterThanOrEqual(0.9);
    expect(fake.requests).toHaveLength(0);
    const unsure = await (await post('/v1/classify', { document: { text: 'Thanks for stopping by. See you soon.' } })).json();
    expect(fake.requests.filter(isClassification)).toHaveLength(1);
    expect(unsure).toMatchObject({ kind: 'receipt', confidence: 0.81, model: 'claude-sonnet-5-5' });
  });

  it('auto: classified offline, extracted by the cascade', async () => {
    const res = await post('/v1/extract/auto', { document: { text: INVOICE } });
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.parts).toHaveLength(1);
    expect(body.parts[0]).toMatchObject({ kind: 'invoice', result: { model: 'claude-sonnet-5-5' } });
    expect(fake.requests.map(isClassification)).toEqual([false]);
    expect(askedMembers(fake.requests[0]!)).toEqual(['vendor', 'customer', 'tax']);
    expect(body.parts[0].result.evidence['/total'].engine).toBe('local');
  });

  it('a renewal: the terms the offline engine vouches for are kept, the others asked, and the document is stored with the model that answered', async () => {
    const fixture = new URL('./local-engine/fixtures/renewal/', import.meta.url);
    const text = readFileSync(new URL('h-msa.txt', fixture), 'utf8');
    const label = JSON.parse(readFileSync(new URL('h-msa.json', fixture), 'utf8')) as Json;
    // The model answers the label's terms (an oracle), each with its verbatim sourceQuote.
    fake.fallback = (req) => ({ kind: 'answer', input: Object.fromEntries(Object.entries(renewalAnswer(text, label).data).filter(([k]) => askedMembers(req).includes(k))) });
    const res = await post('/v1/extract/renewal', { document: { text, filename: 'msa.txt' }, minConfidence: 0 });
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(fake.requests).toHaveLength(1);
    const asked = askedMembers(fake.requests[0]!);
    // The product (0.48 offline) and the notice text (0.47) are asked; the vendor (0.95) and the flag (0.99) are not.
    expect(asked).toEqual(expect.arrayContaining(['product', 'noticePeriodText']));
    expect(asked).not.toContain('vendorName');
    expect(asked).not.toContain('autoRenewal');
    expect(body.data.vendorName.value).toBe('Helio CRM, Inc.');
    expect(body.evidence['/vendorName/value'].engine).toBe('local');
    expect(body.data.product.value).toBe('Helio Sales Cloud Professional');
    expect(body.evidence['/product/value'].engine).toBe('anthropic');
    expect(body.model).toBe('claude-sonnet-5-5');
    expect(body.document_id).toEqual(expect.any(String));
    const stored = await s.db.prisma.storedDocument.findUniqueOrThrow({ where: { id: body.document_id } });
    expect(stored.model).toBe('claude-sonnet-5-5');
  });

  it('a PDF the model reads itself: the offline engine reads its text layer, the model gets the file and only the members asked', async () => {
    const pdf = await textPdf(INVOICE);
    const res = await post('/v1/extract/invoice', { document: { content: Buffer.from(pdf).toString('base64'), mediaType: 'application/pdf' }, minConfidence: 0 });
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.source).toEqual({ mediaType: 'application/pdf', pages: 1, method: 'native' });
    expect(fake.requests).toHaveLength(1);
    const content = fake.requests[0]!.body.messages[0]!.content as Array<{ type: string; source?: { type: string; media_type?: string } }>;
    expect(content[0]).toMatchObject({ type: 'document', source: { type: 'base64', media_type: 'application/pdf' } });
    expect(askedMembers(fake.requests[0]!)).toContain('vendor');
    expect(askedMembers(fake.requests[0]!)).not.toContain('invoiceNumber');
    expect(body.data.invoiceNumber).toBe('INV-2041');
    expect(body.evidence['/invoiceNumber']).toMatchObject({ engine: 'local', quote: 'INV-2041', page: 1 });
    expect(body.data.vendor.name).toBe('ACME CLOUD SUPPLY');
    expect(body.usage.readingHeu).toBe(1);
  });

  it('a provider failure on the model call is 502 and nothing is charged', async () => {
    const before = await heuUsed();
    fake.next({ kind: 'status', status: 500 });
    const res = await post('/v1/extract/invoice', { document: { text: INVOICE } });
    expect(res.status).toBe(502);
    expect(await heuUsed()).toBe(before);
  });
});

describe('EXTRACTION_ENGINE=cascade with CASCADE_MODEL_ENGINE=openai (the fake OpenAI-compatible server)', () => {
  let fake: FakeOpenAI;
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    fake = await (new FakeOpenAI()).start();
    s = await startTestServer('embedded', {
      EXTRACTION_ENGINE: 'cascade', CASCADE_MODEL_ENGINE: 'openai', CASCADE_KEEP: '0.9',
      OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'qwen2.5:7b-instruct', OPENAI_TIMEOUT_MS: '5000', OPENAI_MAX_RETRIES: '0', PLANS_FILE: '',
    });
    await s.db.prisma.account.create({ data: { id: 'acct_cascade_oai', plan: 'starter' } });
    key = (await s.createKey('acct_cascade_oai')).key;
  });
  afterAll(async () => { await s.close(); await fake.stop(); });

  it('asks the OpenAI-compatible model only for the members the offline engine does not vouch for, and names it in evidence', async () => {
    fake.fallback = (req) => ({ kind: 'answer', input: { ...(emptyAnswer(openaiSchemaOf(req)) as Json), ...Object.fromEntries(Object.entries(MODEL_ANSWER).filter(([k]) => Object.keys((openaiSchemaOf(req).properties ?? {}) as Json).includes(k))) }, usage: { prompt_tokens: 1800, completion_tokens: 300 } });
    const res = await s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text: INVOICE }, minConfidence: 0 } });
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(fake.requests).toHaveLength(1);
    expect(Object.keys(openaiSchemaOf(fake.requests[0]!).properties as Json)).toEqual(['vendor', 'customer', 'tax']);
    expect(body.model).toBe('qwen2.5:7b-instruct');
    expect(body.usage).toMatchObject({ inputTokens: 1800, outputTokens: 300 });
    expect(body.data.vendor).toEqual({ name: 'ACME CLOUD SUPPLY', address: null, taxId: null });
    expect(body.evidence['/invoiceNumber']).toMatchObject({ engine: 'local', quote: 'INV-2041' });
    expect(body.evidence['/vendor/name']).toMatchObject({ engine: 'openai', quote: expect.stringContaining('ACME CLOUD SUPPLY') });
  });

  it('a document the offline engine vouches for entirely makes no call to the server', async () => {
    fake.reset();
    const res = await s.fetch('/v1/extract/custom', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text: INVOICE }, schema: SCHEMA } });
    expect(res.status).toBe(200);
    expect((await res.json()).model).toBe('local-rules-1');
    expect(fake.requests).toHaveLength(0);
  });
});

describe('cascade settings', () => {
  const env = (more: Record<string, string>) => ({ DATA_DIR: mkdtempSync(join(tmpdir(), 'cascade-cfg-')), ...more });
  it('defaults to Claude as the model and the keep threshold derived from the calibration folds', () => {
    expect(loadConfig(env({ EXTRACTION_ENGINE: 'cascade', ANTHROPIC_API_KEY: 'sk-ant-x' })).extraction).toMatchObject({
      engine: 'cascade', cascade: { modelEngine: 'anthropic', keep: DEFAULT_CASCADE_KEEP },
    });
    expect(loadConfig(env({ EXTRACTION_ENGINE: 'cascade', ANTHROPIC_API_KEY: 'sk-ant-x', CASCADE_KEEP: '0.8' })).extraction.cascade.keep).toBe(0.8);
  });

  it('refuses a cascade on Claude without its key, and a keep threshold outside 0 to 1, naming the variable', () => {
    expect(() => loadConfig(env({ EXTRACTION_ENGINE: 'cascade' }))).toThrow(/\n {2}EXTRACTION_ENGINE: cascade with CASCADE_MODEL_ENGINE=anthropic needs ANTHROPIC_API_KEY/);
    expect(() => loadConfig(env({ EXTRACTION_ENGINE: 'cascade', ANTHROPIC_API_KEY: 'sk-ant-x', CASCADE_KEEP: '1.5' }))).toThrow(/\n {2}CASCADE_KEEP: /);
    expect(() => loadConfig(env({ EXTRACTION_ENGINE: 'cascade', ANTHROPIC_API_KEY: 'sk-ant-x', CASCADE_MODEL_ENGINE: 'mistral' }))).toThrow(/\n {2}CASCADE_MODEL_ENGINE: /);
    expect(() => loadConfig(env({ EXTRACTION_ENGINE: 'cascade', CASCADE_MODEL_ENGINE: 'openai' }))).toThrow(/\n {2}OPENAI_MODEL: required with CASCADE_MODEL_ENGINE=openai/);
  });
});
