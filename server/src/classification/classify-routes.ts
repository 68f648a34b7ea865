import { Router } from 'express';
import type { components } from '../../../generated/openapi.js';
import { Documents } from '../documents/documents.js';
import { ModelChoice } from '../extraction/engines/model-choice.js';
import type { ExtractDeps } from '../extraction/extract-routes.js';
import { metered } from '../extraction/metered.js';
import { whileConnected } from '../extraction/extract-routes.js';
import { principalOf } from '../auth/authenticate.js';
import { prepareInput } from '../extraction/prepare-input.js';
import { singleInput } from '../extraction/single-input.js';
import { readingHeuBound, tokensFor } from '../metering/heu.js';
import { KINDS } from './classify-text.js';

type Schemas = components['schemas'];

/**
 * `POST /v1/classify`: the document (text, or a file read as the extraction routes read it) classified by the
 * request's model: the offline rules (1 HEU) or Claude (its tokens), plus reading a file. Reserved before the file is
 * read; a refused file charges nothing.
 */
export function classifyRoutes(deps: ExtractDeps): Router {
  const router = Router();
  router.post('/v1/classify', (req, res) => whileConnected(res, async (connection) => {
    const input = singleInput(req);
    const classifier = ModelChoice.resolve(deps.engine, 'classify', input.model).classifier();
    const { prepared, counted } = await prepareInput(deps, res, input, connection);
    const reading = prepared.kind === 'file' ? readingHeuBound(prepared.facts.pages) : 0;
    const classifying = classifier.reserveHeu(Documents.charsBound(prepared));
    const estimate = reading + classifying;
    try {
    await metered(deps, req, res, 'classify', { wanted: estimate, least: estimate }, async (signal) => {
      const read = await deps.documents.read(prepared, { accountId: principalOf(res).accountId, signal });
      const answer = await classifier.classify({ text: read.text, kinds: input.kinds ?? KINDS, signal, budgetTokens: tokensFor(classifying), log: req.log });
      const readingHeu = prepared.kind === 'file' ? read.readingHeu : 0;
      const usage: Schemas['Usage'] = { ...answer.usage, heu: answer.heu + readingHeu, classificationHeu: answer.heu };
      if (prepared.kind === 'file') usage.readingHeu = readingHeu;
      const body: Schemas['Classification'] = { kind: answer.kind, confidence: answer.confidence, alternatives: answer.alternatives, model: answer.model, usage, source: read.source };
      return { body, usage };
    }, counted);
    } finally {
      Documents.release(prepared);
    }
  }));
  return router;
}
