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
import type { Recorder, Trace } from './fields/finder.js';
import type { FoundEvidenceMap } from '../../evidence/found.js';

const ROUTES: { [K in FixedKind]: (doc: ReturnType<typeof segment>, rec: Recorder) => FixedData[K] } = {
  invoice: extractInvoice,
  receipt: extractReceipt,
  contract: extractContract,
  'job-posting': extractJobPosting,
  'meeting-notes': extractMeetingNotes,
  renewal: extractRenewal,
};

/** An answer, and where each of its values was read (offsets in the text as sent), by JSON Pointer. */
export interface LocatedAnswer<T> { data: T; found: FoundEvidenceMap }

/** A fixed route's answer with its evidence; `trace`, when given, is filled with the finder that answered each field. */
export function extractFixedLocated<K extends FixedKind>(kind: K, text: string, trace?: Trace): LocatedAnswer<FixedData[K]> {
  const found: FoundEvidenceMap = {};
  const data = ROUTES[kind](segment(text), { route: kind, found, ...(trace ? { trace } : {}) });
  return { data, found };
}

export const extractFixed = <K extends FixedKind>(kind: K, text: string, trace?: Trace): FixedData[K] => extractFixedLocated(kind, text, trace).data;

export function extractCustomLocated(schema: JsonSchema, text: string): LocatedAnswer<Record<string, unknown>> {
  const found: FoundEvidenceMap = {};
  const data = extractCustomFromDoc(schema, segment(text), { route: 'custom', found });
  return { data, found };
}

export const extractCustom = (schema: JsonSchema, text: string): Record<string, unknown> => extractCustomLocated(schema, text).data;
