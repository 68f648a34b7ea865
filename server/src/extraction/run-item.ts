import type { components } from '../../../generated/openapi.js';
import type { PrismaClient } from '../db/database.js';
import { heuFor, tokensFor } from '../metering/heu.js';
import type { EngineAnswer, EngineLog, ExtractionEngine, ExtractionTask, FixedData, JsonSchema } from './engines/engine.js';
import { groundRenewal } from './renewal/grounding.js';
import { storeRenewalDocument, type StoredRenewal } from './renewal/renewal-store.js';

type Schemas = components['schemas'];

export interface ItemInput {
  task: ExtractionTask;
  /** The schema the answer must meet. */
  schema: JsonSchema;
  document: Schemas['DocumentInput'];
}

export interface ItemResult {
  data: unknown;
  model: string;
  usage: Schemas['Usage'];
  document?: Schemas['StoredDocument'];
}

export interface ItemDeps {
  engine: ExtractionEngine;
  prisma: PrismaClient;
  accountId: string;
  now: () => Date;
  log?: EngineLog;
  /** What this request stored, so that a refused request can take it back. */
  stored?: StoredRenewal[];
}

/**
 * One extraction within `budgetHeu` (what was reserved for it): the engine's answer, grounded and stored when it is a
 * renewal, with its HEU, never more than the budget.
 */
export async function runItem(deps: ItemDeps, item: ItemInput, signal: AbortSignal, budgetHeu: number): Promise<ItemResult> {
  const answer: EngineAnswer = await deps.engine.extract({ task: item.task, text: item.document.text, schema: item.schema, signal, budgetTokens: tokensFor(budgetHeu), log: deps.log });
  const usage = { ...answer.usage, heu: Math.min(heuFor(answer.usage), budgetHeu) };
  if (item.task.kind !== 'renewal') return { data: answer.data, model: answer.model, usage };
  const { data, overallStatus } = groundRenewal(answer.data as FixedData['renewal'], item.document.text);
  if (signal.aborted) throw signal.reason;
  const document = await storeRenewalDocument(deps.prisma, deps.accountId, item.document, { data, overallStatus },
    { model: answer.model, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }, deps.now(), deps.stored);
  return { data, model: answer.model, usage, document };
}
