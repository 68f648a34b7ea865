import type { components } from '../../../generated/openapi.js';
import type { PrismaClient } from '../db/database.js';
import { Documents, type AnyDocumentInput, type DocumentSource, type PreparedDocument } from '../documents/documents.js';
import { heuFor, readingHeuBound, reservationFor, tokensFor } from '../metering/heu.js';
import type { EngineAnswer, EngineLog, ExtractionEngine, ExtractionTask, FixedData, JsonSchema, NativeFile } from './engines/engine.js';
import { groundRenewal } from './renewal/grounding.js';
import { storeRenewalDocument, type StoredRenewal } from './renewal/renewal-store.js';

type Schemas = components['schemas'];

export interface ItemInput {
  task: ExtractionTask;
  /** The schema the answer must meet. */
  schema: JsonSchema;
  document: AnyDocumentInput;
  /** The document checked (a file probed, not read yet). */
  prepared: PreparedDocument;
}

export interface ItemResult {
  data: unknown;
  model: string;
  usage: Schemas['Usage'];
  source: DocumentSource;
  document?: Schemas['StoredDocument'];
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
}

/** The file of an item when its engine reads it itself (Claude and a PDF or an image), else null. */
function nativeFile(engine: ExtractionEngine, prepared: PreparedDocument): NativeFile | null {
  if (prepared.kind !== 'file' || !engine.readsNatively?.(prepared.facts)) return null;
  return { ...prepared.facts, bytes: prepared.bytes };
}

/**
 * Whether the text of the file is read offline too: always when the engine does not read it itself, and for a
 * renewal also when it does (its quotes are checked against the text).
 */
const readsText = (item: ItemInput, native: NativeFile | null) => !native || item.task.kind === 'renewal';

/**
 * The HEU to reserve for an item before it runs: the engine's worst case for the document (a file not read yet
 * counted at its pages' most characters), plus the most that reading the file may cost.
 */
export function reservationForItem(engine: ExtractionEngine, item: ItemInput): { wanted: number; least: number } {
  const { prepared } = item;
  if (prepared.kind === 'text') return reservationFor(engine.plan({ task: item.task, text: prepared.text, schema: item.schema }));
  const native = nativeFile(engine, prepared);
  const plan = engine.plan({ task: item.task, schema: item.schema, text: '', textChars: native ? 0 : Documents.charsBound(prepared), ...(native ? { file: prepared.facts } : {}) });
  const reading = readsText(item, native) ? readingHeuBound(prepared.facts.pages) : 0;
  const { wanted, least } = reservationFor(plan);
  return { wanted: wanted + reading, least: least + reading };
}

/**
 * One extraction within `budgetHeu` (what was reserved for it): the document read (a file in the reader's threads,
 * or by the engine itself), the engine's answer, grounded and stored when it is a renewal, with its HEU (reading
 * included), never more than the budget.
 */
export async function runItem(deps: ItemDeps, item: ItemInput, signal: AbortSignal, budgetHeu: number): Promise<ItemResult> {
  const native = nativeFile(deps.engine, item.prepared);
  const read = readsText(item, native) ? await deps.documents.read(item.prepared, signal) : null;
  const readingHeu = item.prepared.kind === 'file' && read ? read.readingHeu : 0;
  const text = read?.text ?? '';
  const source: DocumentSource = native ? { mediaType: native.mediaType, pages: native.pages, method: 'native' } : read!.source;
  const answer: EngineAnswer = await deps.engine.extract({
    task: item.task, text, schema: item.schema, signal, budgetTokens: tokensFor(budgetHeu - readingHeu), log: deps.log, ...(native ? { file: native } : {}),
  });
  const usage: Schemas['Usage'] = { ...answer.usage, heu: Math.min(heuFor(answer.usage) + readingHeu, budgetHeu) };
  if (item.prepared.kind === 'file' && read) usage.readingHeu = readingHeu;
  if (item.task.kind !== 'renewal') return { data: answer.data, model: answer.model, usage, source };
  const { data, overallStatus } = groundRenewal(answer.data as FixedData['renewal'], text);
  if (signal.aborted) throw signal.reason;
  const byteSize = item.prepared.kind === 'file' ? item.prepared.bytes.byteLength : item.prepared.byteSize;
  const stored = { filename: item.document.filename, mediaType: item.prepared.kind === 'file' ? item.prepared.facts.mediaType : item.document.mediaType, vendorRenewalId: item.document.vendorRenewalId, byteSize };
  const document = await storeRenewalDocument(deps.prisma, deps.accountId, stored, { data, overallStatus },
    { model: answer.model, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }, deps.now(), deps.stored);
  return { data, model: answer.model, usage, source, document };
}
