// Type-level tests, compiled by `npm run typecheck` (tsc --noEmit): a wrong request does not compile, and the answers
// are the generated types.
import type { components } from '../../generated/openapi.js';
import { DocExtract, type Evidence, type WithheldValue } from '../src/index.js';

type Schemas = components['schemas'];
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
const assertType = <T extends true>() => undefined as unknown as T;

export async function typeChecks(client: DocExtract): Promise<void> {
  const invoice = await client.extract.invoice({ text: 'Invoice 1' });
  assertType<Equal<typeof invoice, Schemas['InvoiceExtraction']>>();
  assertType<Equal<typeof invoice.data.total, number | null>>();

  // @ts-expect-error a document needs its text
  await client.extract.invoice({ filename: 'a.txt' });
  // @ts-expect-error text is a string
  await client.extract.receipt({ text: 42 });
  // @ts-expect-error batch items need a kind or a schema of the contract's kinds
  await client.extract.batch([{ id: 'a', document: { text: 'x' }, kind: 'passport' }]);
  // @ts-expect-error only paid plans are sold through checkout
  await client.billing.checkout('free');
  // @ts-expect-error the raw client checks paths and bodies too
  await client.raw.POST('/v1/extract/invoice', { body: { document: { text: 42 } } });
  // A file: a path (Node), a Blob, or bytes with their media type.
  await client.extract.invoice({ file: 'invoice.pdf' });
  await client.extract.invoice({ file: new Blob(['x'], { type: 'application/pdf' }) });
  await client.extract.invoice({ file: { bytes: new Uint8Array([37, 80, 68, 70]), mediaType: 'application/pdf' } });
  // @ts-expect-error a document is its text, its content or a file, not two of them
  await client.extract.invoice({ text: 'x', file: 'invoice.pdf' });

  const custom = await client.extract.custom('Spring Meetup, 120 places', {
    type: 'object',
    properties: { eventName: { type: 'string' }, capacity: { type: 'integer' } },
  } as const);
  assertType<Equal<typeof custom.data.eventName, string | null>>();
  assertType<Equal<typeof custom.data.capacity, number | null>>();

  // Every answer carries its evidence (by JSON Pointer) and the values withheld, and every extract method takes the
  // request's options beside the call's own.
  assertType<Equal<typeof invoice.evidence[string], Evidence>>();
  assertType<Equal<typeof invoice.withheld, WithheldValue[]>>();
  assertType<Equal<typeof custom.evidence[string], Evidence>>();
  assertType<Equal<typeof custom.withheld, WithheldValue[]>>();
  const e: Evidence | undefined = invoice.evidence['/total'];
  if (e) {
    const where: [string, number, number, number | undefined, number] = [e.quote, e.start, e.end, e.page, e.confidence];
    void where;
  }
  const sure = await client.extract.receipt('TOTAL 9.99', { minConfidence: 0.8, returnText: true, timeoutMs: 5000 });
  assertType<Equal<typeof sure.source.text, string | undefined>>();
  await client.extract.custom('x', { type: 'object', properties: { a: { type: 'string' } } } as const, { minConfidence: 0 });
  const batch = await client.extract.batch([{ id: 'a', document: { text: 'x' }, kind: 'receipt' }], { minConfidence: 0.9 });
  for (const r of batch.results) if (r.ok) assertType<Equal<typeof r.withheld, WithheldValue[]>>();
  // @ts-expect-error minConfidence is a number
  await client.extract.invoice('x', { minConfidence: 'high' });

  // A session runs an extraction as one of its keys: a kind or a schema, the answer naming the route.
  const tried = await client.keys.extract('0193a6f2-7c1e-7b3a-9d4e-5f60718293a4', { document: 'TOTAL 9.99', kind: 'receipt', minConfidence: 0.5 });
  assertType<Equal<typeof tried.withheld, WithheldValue[]>>();
  // Typed by the kind asked for: that route's data, the kind named.
  assertType<Equal<typeof tried.data, Schemas['ReceiptExtraction']['data']>>();
  assertType<Equal<typeof tried.kind, 'receipt'>>();
  const typedBatch = await client.extract.batch([{ id: 'a', document: { text: 'x' }, kind: 'receipt' }, { id: 'b', document: { text: 'y' }, kind: 'invoice' }]);
  const [first, second] = typedBatch.results;
  if (first.ok) assertType<Equal<typeof first.data, Schemas['ReceiptExtraction']['data']>>();
  if (second.ok) assertType<Equal<typeof second.data, Schemas['InvoiceExtraction']['data']>>();
  await client.extract.auto('x', { minConfidence: 0.5, returnText: true, kinds: ['invoice'] });
  // @ts-expect-error minConfidence is a number on auto too
  await client.extract.auto('x', { minConfidence: 'high' });
  await client.keys.extract('0193a6f2-7c1e-7b3a-9d4e-5f60718293a4', { document: { file: 'a.pdf' }, schema: { type: 'object', properties: {} } });
  // @ts-expect-error a kind of the contract's kinds
  await client.keys.extract('0193a6f2-7c1e-7b3a-9d4e-5f60718293a4', { document: 'x', kind: 'passport' });

  const key = await client.keys.create({ name: 'ci' });
  assertType<Equal<typeof key.key, string>>(); // the first answer always holds the raw key: no `key!`
  const maybeReplay = await client.keys.create({ name: 'ci' }, { idempotencyKey: 'ci-1' });
  if (maybeReplay.idempotent) assertType<Equal<typeof maybeReplay.key, undefined>>();
  else assertType<Equal<typeof maybeReplay.key, string>>();
  for await (const page of client.keys.pages(10)) assertType<Equal<typeof page.keys, Schemas['ApiKey'][]>>();
  for await (const k of client.keys.listAll()) assertType<Equal<typeof k, Schemas['ApiKey']>>();
  const account = await client.account.get();
  assertType<Equal<typeof account.plan, 'free' | 'starter'>>();
}
