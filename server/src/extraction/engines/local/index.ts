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
import type { Trace } from './fields/finder.js';

const ROUTES: { [K in FixedKind]: (doc: ReturnType<typeof segment>, trace?: Trace) => FixedData[K] } = {
  invoice: extractInvoice,
  receipt: extractReceipt,
  contract: extractContract,
  'job-posting': extractJobPosting,
  'meeting-notes': extractMeetingNotes,
  renewal: extractRenewal,
};

/** A fixed route's answer; `trace`, when given, is filled with the finder that answered each field. */
export function extractFixed<K extends FixedKind>(kind: K, text: string, trace?: Trace): FixedData[K] {
  return ROUTES[kind](segment(text), trace);
}

export function extractCustom(schema: JsonSchema, text: string): Record<string, unknown> {
  return extractCustomFromDoc(schema, segment(text));
}
