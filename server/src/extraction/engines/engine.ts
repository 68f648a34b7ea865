import type { components } from '../../../../generated/openapi.js';
import type { DocumentClassifier } from '../../classification/classifier.js';
import type { FoundEvidenceMap } from '../evidence/found.js';

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
  /** Input tokens billed at the full price (cache reads and writes apart). */
  inputTokens: number;
  outputTokens: number;
  /** Present only for an engine with a prompt cache (Claude). */
  cacheReadInputTokens?: number;
  cacheCreationInputTokens?: number;
}

/** The tokens an extraction may bill, in every model call: what the reservation should cover, and the least it needs. */
export interface TokenPlan {
  /** The worst case: enough for the first call and one retry or repair turn. */
  wanted: number;
  /** Less than this and the extraction cannot run at all (402). */
  least: number;
}

/** Logging for an engine: provider failures with their request ids, never document text. */
export interface EngineLog {
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface EngineAnswer {
  /** The extracted data; it has already been checked against `input.schema`. */
  data: unknown;
  /** Where each value was read, by JSON Pointer into `data`: offsets in the text read, or a quote to find there. */
  found?: FoundEvidenceMap;
  /** The model that answered. */
  model: string;
  usage: EngineUsage;
  /**
   * When two engines answered (the cascade): which one answered each top-level member, by its JSON Pointer (`/total`,
   * `/vendor`; '' for an answer without members). The evidence says it (`engine`), and each value is calibrated as
   * its engine's.
   */
  answeredBy?: Record<string, ExtractionEngine['name']>;
}

/** What is known of a file before it is read: enough for an engine to say whether it reads it itself. */
export interface FileFacts {
  mediaType: string;
  byteSize: number;
  pages: number;
  /** An image's size in pixels. */
  width?: number;
  height?: number;
}

/** A file the engine reads itself (Claude's document and image blocks). */
export interface NativeFile extends FileFacts {
  bytes: Uint8Array;
}

export interface EngineInput {
  task: ExtractionTask;
  /** The document text ('' when the engine reads `file` itself and no text was read). */
  text: string;
  /** A file the engine reads itself (only ever one `readsNatively` accepted); `text` is then not sent. */
  file?: NativeFile;
  /** The JSON Schema the answer must meet (from the compiled contract, or the caller's, widened to allow null). */
  schema: JsonSchema;
  /** Aborted when the caller goes away or its key is revoked: stop work and reject. */
  signal: AbortSignal;
  /**
   * The most tokens (input and output, over every call) this extraction may bill: what was reserved for it. The engine
   * sizes each call's output limit so the total stays within it.
   */
  budgetTokens: number;
  log?: EngineLog;
}

export type PlanInput = Pick<EngineInput, 'task' | 'text' | 'schema'> & { textChars?: number; file?: FileFacts };

/** One way of turning a document into data: Claude, a model behind an OpenAI-compatible server, or the offline rules. */
export interface ExtractionEngine {
  readonly name: 'anthropic' | 'local' | 'openai';
  /**
   * The tokens to reserve before `extract` runs (metering turns them into HEU). For a file not read yet, `textChars`
   * is the most characters its text may have; for a file the engine reads itself, `file` says what it is.
   */
  plan(input: PlanInput): TokenPlan;
  /** Whether the engine reads this file itself (PDFs and images, for Claude); absent: it reads only text. */
  readsNatively?(file: FileFacts): boolean;
  extract(input: EngineInput): Promise<EngineAnswer>;
  /** The classifier of the same model: the offline rules for the offline engine, Claude for Claude. */
  classifier(): DocumentClassifier;
}
