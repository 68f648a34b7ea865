import { Router } from 'express';
import type { components } from '../../../generated/openapi.js';
import { principalOf } from '../auth/authenticate.js';
import { utcTimestamp as ts } from '../db/sql.js';
import { DEFAULT_MIN_CONFIDENCE } from '../extraction/evidence/thresholds.js';
import type { ExtractDeps } from '../extraction/extract-routes.js';
import { itemFor, type ItemRoute } from '../extraction/item-request.js';
import { metered } from '../extraction/metered.js';
import { reservationForItem, runItem, type ItemInput } from '../extraction/run-item.js';
import type { ExtractionEngine } from '../extraction/engines/engine.js';
import { ApiError } from '../http/api-error.js';
import { toApiError } from '../http/error-mapper.js';
import { newId } from '../ids/ids.js';
import { Documents } from '../documents/documents.js';
import { labelledExamples } from '../reviews/review-repository.js';
import { discardRenewalDocuments } from '../extraction/renewal/renewal-store.js';
import { contributionOf, reportOf, type Contribution } from './evaluation-report.js';

type Schemas = components['schemas'];

/** What an evaluation row holds: the answer, and each document's contribution (to report documents added later with it). */
interface StoredEvaluation {
  view: Schemas['Evaluation'];
  contributions: Contribution[];
}

const MAX_DOCUMENTS = 50;

/** The documents of a request: uploaded, or the account's resolved reviews (newest first). */
async function examplesOf(deps: ExtractDeps, accountId: string, body: Schemas['CreateEvaluationRequest']): Promise<{ source: Schemas['EvaluationSource']; examples: Schemas['EvaluationExample'][] }> {
  if (body.examples) return { source: 'uploaded', examples: body.examples };
  const rows = await labelledExamples(deps.sql, accountId, body.route, MAX_DOCUMENTS);
  if (!rows.length) throw new ApiError('invalid_request', 'This account has no resolved reviews to evaluate on: send `examples`, or resolve reviews first.', { errors: [{ path: '/body/examples', message: 'is required while the account has no resolved reviews' }] });
  return {
    source: 'labelled',
    examples: rows.map((r) => ({
      route: r.route as Schemas['JobRoute'],
      document: (r.file
        ? { content: r.file.toString('base64'), mediaType: r.mediaType, ...(r.filename ? { filename: r.filename } : {}) }
        : { text: r.documentText, mediaType: r.mediaType, ...(r.filename ? { filename: r.filename } : {}) }) as Schemas['DocumentInput'],
      expected: (JSON.parse(r.resolution) as Schemas['ReviewResolution']).data,
      ...(r.schema ? { schema: JSON.parse(r.schema) as Schemas['JsonSchemaObject'] } : {}),
    })),
  };
}

export function evaluationRoutes(deps: ExtractDeps): Router {
  const router = Router();

  router.post('/v1/evaluations', async (req, res) => {
    const principal = principalOf(res);
    if (principal.via !== 'api_key') throw new ApiError('unauthorized');
    const accountId = principal.accountId;
    const body = req.body as Schemas['CreateEvaluationRequest'];
    const earlier = body.evaluationId ? await read(deps, accountId, body.evaluationId) : null;
    const { source, examples } = await examplesOf(deps, accountId, body);
    // Each document checked as its route checks it (a bad one fails alone); every value comes back (minConfidence 0)
    // so that each is judged with its confidence.
    const items: Array<{ index: number; engine: ExtractionEngine; item: ItemInput; heu: number; expected: unknown } | { index: number; failure: ApiError }> = [];
    let estimate = 0;
    const offset = earlier?.view.documents ?? 0;
    for (const [i, ex] of examples.entries()) {
      try {
        const input = { document: ex.document as never, ...(body.model ? { model: body.model } : {}), ...(ex.schema ? { schema: ex.schema } : {}), options: { minConfidence: 0 } };
        const built = await itemFor({ prisma: deps.prisma, documents: deps.documents, engine: deps.engine }, accountId, ex.route as ItemRoute, input);
        const heu = reservationForItem(built.engine, built.item).wanted;
        estimate += heu;
        items.push({ index: offset + i, ...built, heu, expected: ex.expected });
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        items.push({ index: offset + i, failure: e });
      }
    }
    await metered(deps, req, res, 'evaluation', { wanted: estimate, least: estimate }, async (signal, _heu, stored) => {
      const usage: Schemas['Usage'] = { inputTokens: 0, outputTokens: 0, heu: 0 };
      const contributions: Contribution[] = [];
      const failures: Schemas['EvaluationFailure'][] = [];
      let model: string | undefined;
      for (const it of items) {
        if ('failure' in it) {
          failures.push({ index: it.index, code: it.failure.code, message: it.failure.message });
          continue;
        }
        try {
          const r = await runItem({ engine: it.engine, documents: deps.documents, prisma: deps.prisma, accountId, now: () => deps.clock.now(), log: req.log, stored, ...(deps.reviews ? { reviews: deps.reviews } : {}) }, it.item, signal, it.heu);
          model ??= r.model;
          usage.inputTokens += r.usage.inputTokens;
          usage.outputTokens += r.usage.outputTokens;
          usage.heu += r.usage.heu;
          const confidence = new Map((r.scored ?? []).map((v) => [v.pointer, v.confidence]));
          contributions.push(contributionOf(it.item.task.kind, it.expected, r.data, confidence, DEFAULT_MIN_CONFIDENCE[it.engine.name]));
        } catch (e) {
          if (signal.aborted) throw e;
          const err = toApiError(e);
          failures.push({ index: it.index, code: err.code, message: err.message });
        } finally {
          Documents.release(it.item.prepared);
        }
      }
      // An evaluation keeps nothing of what it extracted: a renewal's stored record goes again.
      await discardRenewalDocuments(deps.prisma, accountId, stored.splice(0));
      const all = [...(earlier?.contributions ?? []), ...contributions];
      const prior = earlier?.view;
      const view: Schemas['Evaluation'] = {
        id: prior?.id ?? newId(), source: prior?.source ?? source, model: prior?.model ?? model ?? deps.engine.name,
        documents: offset + examples.length, ...reportOf(all),
        failures: [...(prior?.failures ?? []), ...failures],
        usage: prior ? { inputTokens: prior.usage.inputTokens + usage.inputTokens, outputTokens: prior.usage.outputTokens + usage.outputTokens, heu: prior.usage.heu + usage.heu } : usage,
        createdAt: prior?.createdAt ?? deps.clock.now().toISOString(),
      };
      const row = JSON.stringify({ view, contributions: all } satisfies StoredEvaluation);
      await deps.sql.execute('evaluations_upsert', `
        INSERT INTO evaluations (id, account_id, body, created_at) VALUES ($1, $2, $3, $4::timestamp(3))
        ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body WHERE evaluations.account_id = EXCLUDED.account_id`, [view.id, accountId, row, ts(new Date(view.createdAt))]);
      return { body: view, usage };
    });
  });

  router.get('/v1/evaluations/:id', async (req, res) => {
    const principal = principalOf(res);
    if (principal.via !== 'api_key') throw new ApiError('unauthorized');
    res.json((await read(deps, principal.accountId, req.params.id!)).view);
  });

  return router;
}

async function read(deps: ExtractDeps, accountId: string, id: string): Promise<StoredEvaluation> {
  const rows = await deps.sql.rows<{ body: string }>('evaluations_find', 'SELECT body FROM evaluations WHERE id = $1 AND account_id = $2', [id, accountId]);
  if (!rows[0]) throw new ApiError('not_found', 'No evaluation of yours has this id.');
  return JSON.parse(rows[0].body) as StoredEvaluation;
}
