import type { Server } from 'node:http';
import { DocExtract, verifyWebhook, WebhookVerificationError } from '@docextract/sdk';

export async function jobs(baseUrl: string, apiKey: string, webhookUrl: string, receiver: Server): Promise<string> {
  const client = new DocExtract({ baseUrl, apiKey });

  // Your webhook endpoint: verify each request on its raw body, then let waiting calls return at once.
  const endpoint = await client.webhookEndpoints.create({ url: webhookUrl, events: ['job.succeeded', 'job.failed'] });
  receiver.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const event = verifyWebhook(Buffer.concat(chunks), req.headers, endpoint.secret);
        client.jobs.notify(event);
        res.writeHead(204).end();
      } catch (e) {
        res.writeHead(e instanceof WebhookVerificationError ? 400 : 500).end();
      }
    });
  });

  // Queue a document: the answer comes at once, the result when a worker has run it.
  const job = await client.jobs.create({ route: 'invoice', document: 'ACME LLC\nInvoice INV-7\nTotal due: $4,500.00', metadata: { orderId: 'PO-7' } });
  const done = await client.jobs.wait<'invoice'>(job.id);
  console.log(done.status, done.result?.data.invoiceNumber, done.result?.usage.heu);

  // Up to 1,000 documents of one route in one call, each its own job.
  const batch = await client.jobs.createBatch({
    route: 'receipt',
    items: [{ document: 'CORNER SHOP\nTOTAL 3.00\nCASH' }, { document: 'BLUE DOOR CAFE\nTOTAL 4.50\nVISA' }],
  });
  const receipts = await Promise.all(batch.map((j) => client.jobs.wait<'receipt'>(j.id)));
  console.log(receipts.map((r) => r.result?.data.total).join(' '));

  await client.webhookEndpoints.delete(endpoint.id);
  return `${done.status} ${receipts.length}`;
}
