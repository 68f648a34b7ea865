import type { components } from '../../../generated/openapi.js';
import type { PrismaClient } from '../db/database.js';
import { Documents, type AnyDocumentInput, type DocumentSource, type PreparedDocument } from '../documents/documents.js';
import { heuFor, readingHeuBound, reservationFor, tokensFor } from '../metering/heu.js';
import type { EngineAnswer, EngineLog, ExtractionEngine, ExtractionTask, FixedData, JsonSchema, NativeFile } from './engines/engine.js';
import { assembleEvidence, type ScoredValue } from './evidence/assemble.js';
import { DEFAULT_MIN_CONFIDENCE } from './evidence/thresholds.js';
import { groundRenewal, statusAfterWithholding } from './renewal/grounding.js';
import { storeRenewalDocument, type StoredRenewal } from './renewal/renewal-store.js';
import type { ReviewService } from '../reviews/review-service.js';

type Schemas = components['schemas'];

export interface ItemInput {
  task: ExtractionTask;
  /** The schema the answer must meet. */
  schema: JsonSchema;
  document: AnyDocumentInput;
  /** The document checked (a file probed, not read yet). */
  prepared: PreparedDocument;
  /** The request's `minConfidence`, `returnText`, `review` and `reviewBelow`. */
  options?: Pick<Schemas['ExtractRequest'], 'minConfidence' | 'returnText' | 'review' | 'reviewBelow'>;
}

export interface ItemResult {
  data: unknown;
  model: string;
  usage: Schemas['Usage'];
  source: DocumentSource;
  evidence: Record<string, Schemas['Evidence']>;
  withheld: Schemas['WithheldValue'][];
  document?: Schemas['StoredDocument'];
  /** Every value found with its confidence (evaluations score them); not part of any answer. */
  scored?: ScoredValue[];
}

export interface ItemDeps {
  engine: ExtractionEngine;
  documents: Documents;
  prisma: PrismaClient;
  accountId: string;
  now: () => Date;
  log?: EngineLog;
  /** What this request stored, so that a refused request can take it back. */
  stored?: StoredRenewal[];
  /** Reviews (`review: true`) and the account's own calibration; without it neither applies (scripts, tests). */
  reviews?: ReviewService;
  /** The job this item runs in, for the review it makes. */
  jobId?: string;
}

/** The file of an item when its engine reads it itself (Claude and a PDF or an image), else null. */
function nativeFile(engine: ExtractionEngine, prepared: PreparedDocument): NativeFile | null {
  if (prepared.kind !== 'file' || !engine.readsNatively?.(prepared.facts)) return null;
  return { ...prepared.facts, bytes: prepared.bytes };
}

/**
 * Whether the text of the file is read offline too: always. When the engine reads the file itself (Claude), the
 * text read offline is where its quotes are placed (offsets, page and box) and a renewal's quotes are checked.
 */
const readsText = (_item: ItemInput, _native: NativeFile | null) => true;

/**
 * The HEU to reserve for an item before it runs: the engine's worst case for the document (a file not read yet
 * counted at its pages' most characters), plus the most that reading the file may cost.
 */
export function reservationForItem(engine: ExtractionEngine, item: ItemInput): { wanted: number; least: number } {
  const { prepared } = item;
  if (prepared.kind === 'text') return reservationFor(engine.plan({ task: item.task, text: prepared.text, schema: item.schema }));
  if (prepared.kind === 'read') {
    const { wanted, least } = reservationFor(engine.plan({ task: item.task, text: prepared.text, schema: item.schema }));
    return { wanted: wanted + prepared.readingHeu, least: least + prepared.readingHeu };
  }
  const native = nativeFile(engine, prepared);
  const plan = engine.plan({ task: item.task, schema: item.schema, text: '', textChars: native ? 0 : Documents.charsBound(prepared), ...(native ? { file: prepared.facts } : {}) });
  const reading = readsText(item, native) ? readingHeuBound(prepared.facts.pages) : 0;
  const { wanted, least } = reservationFor(plan);
  return { wanted: wanted + reading, least: least + reading };
}

/**
 * One extraction within `budgetHeu` (what was reserved for it): the document read (a file in a reader process,
 * or by the engine itself), the engine's answer, grounded and stored when it is a renewal, with its HEU (reading
 * included), never more than the budget.
 */
export async function runItem(deps: ItemDeps, item: ItemInput, signal: AbortSignal, budgetHeu: number): Promise<ItemResult> {
  const native = nativeFile(deps.engine, item.prepared);
  // A file the engine reads itself gives back the process kept to read it.
  if (!readsText(item, native)) Documents.release(item.prepared);
  const read = readsText(item, native) ? await deps.documents.read(item.prepared, { accountId: deps.accountId, signal }) : null;
  const fromFile = item.prepared.kind === 'file' || item.prepared.kind === 'read';
  const readingHeu = fromFile && read ? read.readingHeu : 0;
  const text = read?.text ?? '';
  const source: DocumentSource = native ? { mediaType: native.mediaType, pages: native.pages, method: 'native' } : { ...read!.source };
  const answer: EngineAnswer = await deps.engine.extract({
    task: item.task, text, schema: item.schema, signal, budgetTokens: tokensFor(budgetHeu - readingHeu), log: deps.log, ...(native ? { file: native } : {}),
  });
  const usage: Schemas['Usage'] = { ...answer.usage, heu: Math.min(heuFor(answer.usage) + readingHeu, budgetHeu) };
  if (fromFile && read) usage.readingHeu = readingHeu;
  if (item.options?.returnText) source.text = text;
  const grounded = item.task.kind === 'renewal' ? groundRenewal(answer.data as FixedData['renewal'], text) : null;
  const route = item.task.kind;
  const recalibrate = await deps.reviews?.calibrations.mapFor(deps.accountId, deps.engine.name, route);
  const minConfidence = item.options?.minConfidence ?? DEFAULT_MIN_CONFIDENCE[deps.engine.name];
  const { data, evidence, withheld, scored } = assembleEvidence({
    kind: route, engine: deps.engine.name, data: grounded ? grounded.data : answer.data, schema: item.schema, found: answer.found ?? {},
    text, ...(read?.layout ? { layout: read.layout } : {}), minConfidence, ...(recalibrate ? { recalibrate } : {}),
  });
  if (item.options?.review && deps.reviews) {
    if (signal.aborted) throw signal.reason;
    const file = item.prepared.kind === 'file' ? item.prepared : null;
    await deps.reviews.consider({
      accountId: deps.accountId, route, engine: deps.engine.name, model: answer.model, jobId: deps.jobId ?? null, minConfidence,
      ...(item.options.reviewBelow !== undefined ? { reviewBelow: item.options.reviewBelow } : {}),
      data, evidence, withheld, scored, text, ...(read?.layout ? { layout: read.layout } : {}),
      mediaType: file ? file.facts.mediaType : item.prepared.kind === 'read' ? item.prepared.mediaType : item.document.mediaType ?? 'text/plain',
      ...(item.document.filename !== undefined ? { filename: item.document.filename } : {}),
      ...(file ? { file: file.bytes } : {}),
      ...(item.task.kind === 'custom' ? { schema: item.task.schema } : {}),
    });
  }
  if (!grounded) return { data, model: answer.model, usage, source, evidence, withheld, scored };
  const renewal = data as FixedData['renewal'];
  const overallStatus = withheld.length > 0 ? statusAfterWithholding(grounded.overallStatus) : grounded.overallStatus;
  if (signal.aborted) throw signal.reason;
  const byteSize = item.prepared.kind === 'file' ? item.prepared.bytes.byteLength : item.prepared.byteSize;
  const mediaType = item.prepared.kind === 'file' ? item.prepared.facts.mediaType : item.prepared.kind === 'read' ? item.prepared.mediaType : item.document.mediaType;
  const stored = { filename: item.document.filename, mediaType, vendorRenewalId: item.document.vendorRenewalId, byteSize };
  const document = await storeRenewalDocument(deps.prisma, deps.accountId, stored, { data: renewal, overallStatus },
    { model: answer.model, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }, deps.now(), deps.stored);
  return { data: renewal, model: answer.model, usage, source, evidence, withheld, document, scored };
}

/** A single-document route's answer for an item's result: the renewal route's shape when a document was stored. */
export function routeAnswer(result: ItemResult): Record<string, unknown> {
  const { data, model, usage, source, evidence, withheld, document } = result;
  return document
    ? { document_id: document.id, vendor_renewal_id: document.vendorRenewalId, overall_status: document.overallStatus, data, model, usage, source, evidence, withheld, document }
    : { data, model, usage, source, evidence, withheld };
}
