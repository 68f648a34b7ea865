import { DocExtract } from '@docextract/sdk';

export async function reviewInvoice(baseUrl: string, apiKey: string): Promise<string[]> {
  const client = new DocExtract({ baseUrl, apiKey });
  const text = 'ACME LLC\nInvoice No: INV-7\nTotal due: $4,500.00\nPayment terms: Net 30';
  // Values under minConfidence come back null in data and are listed in withheld, for a person to review.
  const { evidence, withheld } = await client.extract.invoice({ text }, { minConfidence: 0.8 });
  const lines: string[] = [];
  // Each value's evidence, by JSON Pointer: the text it was read from (text.slice(start, end) is the quote, in
  // UTF-16 code units, as JavaScript counts), and how sure the service is of the value.
  for (const [pointer, e] of Object.entries(evidence)) {
    lines.push(`${pointer}: "${text.slice(e.start, e.end)}" (confidence ${e.confidence}${e.derived ? ', derived' : ''})`);
  }
  for (const w of withheld) lines.push(`review ${w.path} = ${JSON.stringify(w.value)} (confidence ${w.confidence})`);
  return lines;
}
