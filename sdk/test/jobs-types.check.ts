// Compile-time checks of the SDK's job types (run by `npm run typecheck`): a job's request is what its route takes,
// and its result is typed as that route's answer.
import { DocExtract, type JobOf, type JobRequest } from '@docextract/sdk';

const invoice: JobRequest<'invoice'> = { route: 'invoice', document: 'Invoice INV-7' };
const custom: JobRequest<'custom'> = { route: 'custom', document: 'x', schema: { type: 'object' } };
// @ts-expect-error custom needs a schema
const noSchema: JobRequest<'custom'> = { route: 'custom', document: 'x' };
// @ts-expect-error not a route
const teapot: JobRequest = { route: 'teapot', document: 'x' };

export async function typed(client: DocExtract): Promise<void> {
  const job = await client.jobs.create({ route: 'receipt', document: 'TOTAL 3.00' });
  const done: JobOf<'receipt'> = await client.jobs.wait<'receipt'>(job.id);
  const total: number | null | undefined = done.result?.data.total;
  // @ts-expect-error a receipt's result has no invoiceNumber
  void done.result?.data.invoiceNumber;
  const batch = await client.jobs.createBatch({ route: 'custom', schema: { type: 'object' }, items: [{ document: 'x' }] });
  void batch; void total;
}
void invoice; void custom; void noSchema; void teapot;
