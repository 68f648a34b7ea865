// The offline rules engine: deterministic extraction from document structure (no I/O, no network).
import type { FixedData, FixedKind, JsonSchema } from '../engine.js';
import { segment } from './segment/document.js';
import { extractInvoice } from './routes/invoice.js';
import { extractReceipt } from './routes/receipt.js';
import { extractContract } from './routes/contract.js';
import { extractJobPosting } from './routes/job-posting.js';
import { extractMeetingNotes } from './routes/meeting-notes.js';
import { extractRenewal } from './routes/renewal.js';
import { extractCustomFromDoc } from './custom/extract-custom.js';

const ROUTES: { [K in FixedKind]: (doc: ReturnType<typeof segment>) => FixedData[K] } = {
  invoice: extractInvoice,
  receipt: extractReceipt,
  contract: extractContract,
  'job-posting': extractJobPosting,
  'meeting-notes': extractMeetingNotes,
  renewal: extractRenewal,
};

export function extractFixed<K extends FixedKind>(kind: K, text: string): FixedData[K] {
  return ROUTES[kind](segment(text));
}

export function extractCustom(schema: JsonSchema, text: string): Record<string, unknown> {
  return extractCustomFromDoc(schema, segment(text));
}
