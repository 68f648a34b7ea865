import { DocExtract, PlanLimitExceededError, RateLimitError } from '@docextract/sdk';

export async function quickstart(baseUrl: string, dashboardToken: string): Promise<string> {
  // On your server: a dashboard session creates an API key (shown once).
  const dashboard = new DocExtract({ baseUrl, token: dashboardToken });
  const { key } = await dashboard.keys.create({ name: 'my server' });

  // Extract with the API key.
  const client = new DocExtract({ baseUrl, apiKey: key });
  const invoice = await client.extract.invoice({ text: 'ACME LLC\nInvoice INV-7\nTotal due: $4,500.00' });
  console.log(invoice.data.invoiceNumber, invoice.data.total, invoice.usage.heu);

  // Any shape, typed from the schema when it is written `as const`.
  const event = await client.extract.custom('Spring Meetup, 120 places', {
    type: 'object',
    properties: { eventName: { type: 'string' }, capacity: { type: 'integer' } },
  } as const);
  const capacity: number | null = event.data.capacity;

  // Up to 20 documents at once; a failed item does not fail the batch.
  const batch = await client.extract.batch([
    { id: 'r1', document: { text: 'CORNER SHOP\nTOTAL 3.00\nCASH' }, kind: 'receipt' },
    { id: 'n1', document: { text: 'Weekly sync\nAttendees: Ana, Ben' }, kind: 'meeting-notes' },
  ]);
  for (const item of batch.results) console.log(item.id, item.ok ? item.model : item.error.code);

  // Every key, page by page.
  for await (const k of dashboard.keys.listAll()) console.log(k.prefix, k.revokedAt ?? 'active');

  try {
    await client.extract.receipt('TOTAL 9.99');
  } catch (e) {
    if (e instanceof PlanLimitExceededError) console.log('upgrade at', e.details.upgradeUrl);
    else if (e instanceof RateLimitError) console.log('retry after', e.details.resetAt);
    else throw e;
  }
  return `${invoice.model} ${capacity ?? 'unknown'}`;
}
