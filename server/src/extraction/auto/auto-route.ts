import { Router, type Request, type Response } from 'express';
import type { components } from '../../../../generated/openapi.js';
import { principalOf } from '../../auth/authenticate.js';
import { CLASSIFY_CHARS, KINDS, type Kind } from '../../classification/classify-text.js';
import type { ClassifyAnswer, DocumentClassifier } from '../../classification/classifier.js';
import { Documents, type AnyDocumentInput, type PreparedDocument } from '../../documents/documents.js';
import { ApiError } from '../../http/api-error.js';
import { toApiError } from '../../http/error-mapper.js';
import { readingHeuBound } from '../../metering/heu.js';
import type { ExtractionEngine, ExtractionTask, JsonSchema } from '../engines/engine.js';
import { createLocalRunner, type LocalRunner } from '../engines/local-pool/local-pool.js';
import { ModelChoice } from '../engines/model-choice.js';
import type { ExtractDeps } from '../extract-routes.js';
import { metered } from '../metered.js';
import { whileConnected } from '../extract-routes.js';
import { prepareInput } from '../prepare-input.js';
import { assertVendorRenewal, type StoredRenewal } from '../renewal/renewal-store.js';
import { reservationForItem, routeAnswer, runItem, type ItemDeps, type ItemInput } from '../run-item.js';
import { dataSchemaFor } from '../schemas/contract-schemas.js';
import { prepareCustomSchema } from '../schemas/custom-schema.js';
import { singleInput } from '../single-input.js';
import { findParts, skippedPart, type FoundPart } from './find-parts.js';

type Schemas = components['schemas'];

/** What a part is extracted as: a fixed route, or the request's schema for an `other` part. */
interface Extraction { task: ExtractionTask; schema: JsonSchema }

/**
 * The HEU to reserve before the file is read, for the worst case: every page read by OCR; every page its own part,
 * classified; and every part extracted with the most expensive of the tasks it may be given. An engine's plan is
 * affine in the characters it reads (a fixed prompt and answer frame, plus so much a character), so the parts' plans
 * together are at most the plan of all the characters plus that of an empty part for every further part, and one HEU
 * a part more for rounding each up.
 */
function estimateFor(engine: ExtractionEngine, classifier: DocumentClassifier, prepared: PreparedDocument, extractions: Extraction[]): number {
  const pages = prepared.kind === 'file' ? prepared.facts.pages : 1;
  const chars = Documents.charsBound(prepared);
  const reading = prepared.kind === 'file' ? readingHeuBound(pages) : 0;
  const classifying = pages * classifier.reserveHeu(CLASSIFY_CHARS);
  const extracting = Math.max(0, ...extractions.map(({ task, schema }) => {
    const all = engine.plan({ task, schema, text: '', textChars: chars }).wanted;
    const empty = engine.plan({ task, schema, text: '', textChars: 0 }).wanted;
    return Math.ceil((all + (pages - 1) * empty) / 1000) + pages;
  }));
  return reading + classifying + extracting;
}

/** Runs `work` over `items`, `concurrency` at a time, results in order. */
async function inTurn<T, R>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return out;
}

const add = (a: number | undefined, b: number | undefined) => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));

/**
 * `POST /v1/extract/auto`: the input read once (a file in the reader's threads), cut into parts (an e-mail's message
 * and attachments apart; each run of pages split where a new document starts, by the offline splitter whatever the
 * engine), each part classified by the request's model and, when its kind is one asked for (or it is `other` and a
 * schema was sent), extracted through `runItem` exactly as its route would extract it alone. One reservation covers the
 * worst case before anything is read; the call settles to what it used.
 */
export function autoRoutes(deps: ExtractDeps): Router {
  const router = Router();
  // The splitter classifies every page offline, whatever the engine: its own threads, created on first use.
  let splitter: LocalRunner | undefined;
  const splitterOf = () => (splitter ??= createLocalRunner({ threads: deps.config.local.threads, taskBudgetMs: deps.config.local.taskBudgetMs }));

  router.post('/v1/extract/auto', (req: Request, res: Response) => whileConnected(res, async (connection) => {
    const input = singleInput(req);
    const engine = ModelChoice.resolve(deps.engine, 'auto', input.model);
    const classifier = engine.classifier();
    const kinds: readonly Kind[] = input.kinds ?? KINDS;
    const custom: Extraction | null = input.schema !== undefined
      ? { task: { kind: 'custom', schema: input.schema as Record<string, unknown> }, schema: prepareCustomSchema(input.schema) } : null;
    const extractionOf = (kind: string): Extraction | null => (kind === 'other' ? custom : { task: { kind: kind as Kind }, schema: dataSchemaFor(kind as Kind) });
    const accountId = principalOf(res).accountId;
    if (kinds.includes('renewal')) await assertVendorRenewal(deps.prisma, accountId, input.document.vendorRenewalId);
    const { prepared, counted } = await prepareInput(deps, res, input, connection);
    const extractions = [...kinds.map((k) => extractionOf(k)!), ...(custom ? [custom] : [])];
    const estimate = estimateFor(engine, classifier, prepared, extractions);

    try {
    await metered(deps, req, res, 'auto', { wanted: estimate, least: estimate }, async (signal, reserved, stored: StoredRenewal[]) => {
      const read = await deps.documents.read(prepared, { accountId, signal });
      const fromFile = prepared.kind === 'file';
      const byteSize = prepared.kind === 'file' ? prepared.bytes.byteLength : prepared.kind === 'text' ? prepared.byteSize : 0;
      const found: FoundPart[] = await findParts(read, fromFile, byteSize, input.document.filename,
        async (pages) => (await splitterOf().classify({ op: 'split', pages }, signal)).segments!);

      const readingHeu = fromFile ? read.readingHeu : 0;
      let left = reserved - readingHeu;
      const classifications: ClassifyAnswer[] = await inTurn(found, deps.config.batchConcurrency, async (part) => {
        const budget = Math.min(classifier.reserveHeu(part.text.length), left);
        left -= budget;
        const answer = await classifier.classify({ text: part.classifyText ?? part.text, kinds, signal, budgetTokens: budget * 1000, log: req.log });
        left += budget - answer.heu;
        return answer;
      });

      const itemDeps: ItemDeps = { engine, documents: deps.documents, prisma: deps.prisma, accountId, now: () => deps.clock.now(), log: req.log, stored, ...(deps.reviews ? { reviews: deps.reviews } : {}) };
      const parts: Schemas['AutoPart'][] = await inTurn(found, deps.config.batchConcurrency, async (part, i) => {
        const c = classifications[i]!;
        const out: Schemas['AutoPart'] = { source: part.source, kind: c.kind, confidence: c.confidence, alternatives: c.alternatives };
        const extraction = extractionOf(c.kind);
        if (!extraction) return out;
        const document: AnyDocumentInput = { mediaType: part.read.mediaType, ...(part.filename ? { filename: part.filename } : {}), ...(input.document.vendorRenewalId ? { vendorRenewalId: input.document.vendorRenewalId } : {}) };
        const partPrepared: PreparedDocument = fromFile
          ? { kind: 'read', text: part.text, byteSize: part.byteSize, mediaType: part.read.mediaType, source: part.read, readingHeu: part.readingHeu, ...(part.layout ? { layout: part.layout } : {}) }
          : { kind: 'text', text: part.text, byteSize: Buffer.byteLength(part.text, 'utf8'), source: part.read };
        const item: ItemInput = { task: extraction.task, schema: extraction.schema, document, prepared: partPrepared, options: input.options };
        try {
          const heu = reservationForItem(engine, item).wanted;
          if (heu - part.readingHeu > left) throw new ApiError('output_too_large');
          left -= heu - part.readingHeu;
          out.result = routeAnswer(await runItem(itemDeps, item, signal, heu)) as Schemas['PartResult'];
        } catch (e) {
          if (signal.aborted) throw signal.reason;
          const err = toApiError(e);
          out.error = { code: err.code, message: err.message };
        }
        return out;
      });
      for (const skipped of read.file?.skipped ?? []) parts.push(skippedPart(skipped));

      const usage: Schemas['Usage'] = { inputTokens: 0, outputTokens: 0, heu: 0 };
      const classificationHeu = classifications.reduce((n, c) => n + c.heu, 0);
      let extractionHeu = 0;
      for (const u of [...classifications.map((c) => c.usage), ...parts.flatMap((p) => (p.result ? [p.result.usage] : []))]) {
        usage.inputTokens += u.inputTokens;
        usage.outputTokens += u.outputTokens;
        const read = add(usage.cacheReadInputTokens, u.cacheReadInputTokens);
        const created = add(usage.cacheCreationInputTokens, u.cacheCreationInputTokens);
        if (read !== undefined) usage.cacheReadInputTokens = read;
        if (created !== undefined) usage.cacheCreationInputTokens = created;
      }
      for (const p of parts) if (p.result) extractionHeu += p.result.usage.heu - (p.result.usage.readingHeu ?? 0);
      usage.heu = Math.min(reserved, readingHeu + classificationHeu + extractionHeu);
      if (fromFile) usage.readingHeu = readingHeu;
      usage.classificationHeu = classificationHeu;
      return { body: { parts, usage } satisfies Schemas['AutoExtraction'], usage };
    }, counted);
    } finally {
      Documents.release(prepared);
    }
  }));
  return router;
}
