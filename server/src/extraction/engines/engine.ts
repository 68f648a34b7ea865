import type { components } from '../../../../generated/openapi.js';

type Schemas = components['schemas'];

/** The fixed extraction routes (and batch kinds). */
export type FixedKind = Schemas['ExtractionKind'];

/** A JSON Schema object (draft 2020-12 keywords). */
export type JsonSchema = { [key: string]: unknown };

/** What to extract: one of the fixed routes, or the caller's own schema. */
export type ExtractionTask = { kind: FixedKind } | { kind: 'custom'; schema: JsonSchema };

/** The `data` each fixed route answers, as the contract defines it. */
export interface FixedData {
  invoice: Schemas['InvoiceData'];
  receipt: Schemas['ReceiptData'];
  contract: Schemas['ContractData'];
  'job-posting': Schemas['JobPostingData'];
  'meeting-notes': Schemas['MeetingNotesData'];
  renewal: Schemas['RenewalData'];
}

export interface EngineUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface EngineAnswer {
  /** The extracted data; it has already been checked against `input.schema`. */
  data: unknown;
  /** The model that answered. */
  model: string;
  usage: EngineUsage;
}

export interface EngineInput {
  task: ExtractionTask;
  /** The document text. */
  text: string;
  /** The JSON Schema the answer must meet (from the compiled contract, or the caller's, widened to allow null). */
  schema: JsonSchema;
  /** Aborted when the caller goes away or its key is revoked: stop work and reject. */
  signal: AbortSignal;
}

/** One way of turning a document into data: Claude, or the offline rules. */
export interface ExtractionEngine {
  readonly name: 'anthropic' | 'local';
  extract(input: EngineInput): Promise<EngineAnswer>;
}
