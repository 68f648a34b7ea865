import type { components } from '../../../generated/openapi.js';
import type { Database } from '../db/database.js';
import { withTransaction } from '../db/transaction.js';
import type { TextLayout } from '../documents/text-layout.js';
import type { ScoredValue } from '../extraction/evidence/assemble.js';
import { checkAnswer } from '../extraction/schemas/answer-checker.js';
import { dataSchemaFor, FIXED_KINDS } from '../extraction/schemas/contract-schemas.js';
import { prepareCustomSchema } from '../extraction/schemas/custom-schema.js';
import type { FixedKind } from '../extraction/engines/engine.js';
import { ApiError } from '../http/api-error.js';
import { newId } from '../ids/ids.js';
import type { JobQueue } from '../jobs/job-queue.js';
import type { Clock } from '../time/clock.js';
import { AccountCalibrations } from './account-calibration.js';
import { recordReviewEvent } from './review-events.js';
import { reviewRepository, type ReviewRow, type ReviewSummaryRow } from './review-repository.js';
import { reviewedValues, type FoundValue } from './resolution.js';

type Schemas = components['schemas'];

/** Who resolves a review: an API key, or a dashboard session (its subject). */
export type Resolver = Schemas['ReviewResolver'];

/** What an extraction run leaves for a review to be made of (extraction/run-item.ts). */
export interface ReviewCandidate {
  accountId: string;
  route: string;
  engine: string;
  model: string;
  jobId?: string | null;
  minConfidence: number;
  /** The request's `reviewBelow` (default: its `minConfidence`). */
  reviewBelow?: number;
  data: unknown;
  evidence: Record<string, Schemas['Evidence']>;
  withheld: Schemas['WithheldValue'][];
  scored: ScoredValue[];
  text: string;
  layout?: TextLayout;
  mediaType: string;
  filename?: string;
  file?: Uint8Array;
  /** A custom route's schema, to check a resolution against. */
  schema?: unknown;
}

/** What is stored as a review's `answer` (JSON text): the answer as returned, and every value found with its confidences. */
interface StoredAnswer {
  data: unknown;
  evidence: Record<string, Schemas['Evidence']>;
  withheld: Schemas['WithheldValue'][];
  low: string[];
  found: FoundValue[];
}

export interface ReviewDeps {
  db: Database;
  queue: JobQueue;
  clock: Clock;
  retentionMs: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const summaryView = (r: ReviewSummaryRow): Schemas['ReviewSummary'] => ({
  id: r.id, status: r.status, route: r.route as Schemas['JobRoute'], model: r.model, jobId: r.jobId,
  minConfidence: r.minConfidence, reviewBelow: r.reviewBelow, withheldCount: r.withheldCount, lowCount: r.lowCount,
  createdAt: r.createdAt.toISOString(), expiresAt: r.expiresAt.toISOString(), resolvedAt: r.resolvedAt?.toISOString() ?? null,
});

function reviewView(r: ReviewRow & { hasFile: boolean }): Schemas['Review'] {
  const answer = JSON.parse(r.answer) as StoredAnswer;
  return {
    ...summaryView(r),
    data: answer.data as Schemas['FreeFormObject'], evidence: answer.evidence, withheld: answer.withheld, low: answer.low,
    document: { text: r.documentText, mediaType: r.mediaType, filename: r.filename, pages: JSON.parse(r.pages) as Schemas['ReviewPage'][], hasFile: r.hasFile },
    resolution: r.resolution === null ? null : JSON.parse(r.resolution) as Schemas['ReviewResolution'],
  };
}

/** A document's pages as offsets into its text: a file's layout, else one page. */
function pagesOf(text: string, layout: TextLayout | undefined): Schemas['ReviewPage'][] {
  if (!layout?.pages.length) return [{ page: 1, start: 0, end: text.length }];
  return layout.pages.map((p, i) => ({ page: i + 1, start: p.start, end: p.end }));
}

const notFound = () => new ApiError('not_found', 'No review of yours has this id (reviews are deleted when their retention ends).');

/** Reviews: made by extractions sent with `review: true`, read, resolved and deleted by their account. */
export class ReviewService {
  readonly calibrations: AccountCalibrations;

  constructor(private readonly deps: ReviewDeps) {
    this.calibrations = new AccountCalibrations(deps.db.sql, deps.clock);
  }

  /**
   * Makes a review of an extraction when it withheld a value or returned one under `reviewBelow`, and records
   * `review.created`; else nothing is kept. Answers the review's id, or null.
   */
  async consider(c: ReviewCandidate): Promise<string | null> {
    const reviewBelow = c.reviewBelow ?? c.minConfidence;
    const keyOf = new Map([...Object.entries(c.evidence)].map(([k, e]) => [e, k]));
    const withheld = new Set(c.withheld.map((w) => w.path));
    const low = c.scored
      .filter((s) => !withheld.has(s.pointer) && s.confidence < reviewBelow && s.pointer !== '/documentKindGuess')
      .sort((a, b) => a.confidence - b.confidence)
      .map((s) => (s.evidence ? keyOf.get(s.evidence) ?? s.pointer : s.pointer));
    if (c.withheld.length === 0 && low.length === 0) return null;
    const found: FoundValue[] = c.scored.map((s) => ({ path: s.evidence ? keyOf.get(s.evidence) ?? s.pointer : s.pointer, value: s.value, confidence: s.confidence, baseConfidence: s.baseConfidence }));
    const answer: StoredAnswer = { data: c.data, evidence: c.evidence, withheld: c.withheld, low, found };
    const now = this.deps.clock.now();
    const id = newId();
    await withTransaction(this.deps.db.pool, async (tx) => {
      const row = await reviewRepository.insert(tx.sql, {
        id, accountId: c.accountId, route: c.route, engine: c.engine, model: c.model, jobId: c.jobId ?? null,
        minConfidence: c.minConfidence, reviewBelow, withheldCount: c.withheld.length, lowCount: low.length,
        answer: JSON.stringify(answer), schema: c.schema === undefined ? null : JSON.stringify(c.schema),
        documentText: c.text, mediaType: c.mediaType, filename: c.filename ?? null, pages: JSON.stringify(pagesOf(c.text, c.layout)),
        file: c.file ?? null, createdAt: now, expiresAt: new Date(now.getTime() + this.deps.retentionMs),
      });
      await recordReviewEvent(tx, this.deps.queue, summaryView(row), c.accountId, 'review.created', now);
    });
    return id;
  }

  async list(accountId: string, q: { status?: string; route?: string; limit: number; cursor?: string }): Promise<Schemas['ReviewList']> {
    if (q.cursor !== undefined && !UUID.test(q.cursor)) {
      throw new ApiError('invalid_request', '/query/cursor is not a cursor this list gave', { errors: [{ path: '/query/cursor', message: 'is not a cursor this list gave' }] });
    }
    const rows = await reviewRepository.list(this.deps.db.sql, accountId, { ...q, limit: q.limit + 1 });
    const page = rows.slice(0, q.limit);
    return { reviews: page.map(summaryView), nextCursor: rows.length > q.limit ? page[page.length - 1]!.id : null };
  }

  async get(accountId: string, id: string): Promise<Schemas['Review']> {
    const row = await reviewRepository.find(this.deps.db.sql, accountId, id);
    if (!row) throw notFound();
    return reviewView(row);
  }

  async file(accountId: string, id: string): Promise<{ bytes: Buffer; mediaType: string }> {
    const row = await reviewRepository.file(this.deps.db.sql, accountId, id);
    if (!row) throw notFound();
    if (!row.file) throw new ApiError('not_found', 'This review\'s document was sent as text: it has no file (its text is in GET /v1/reviews/{id}).');
    return { bytes: row.file, mediaType: row.mediaType };
  }

  /**
   * Resolves a review with the corrected data (checked against the route's schema: 400), records each value's outcome
   * and who resolved it, stores the labels the account's calibration is fitted on, refits it, and sends
   * `review.resolved`.
   */
  async resolve(accountId: string, id: string, data: unknown, resolvedBy: Resolver): Promise<Schemas['Review']> {
    const row = await reviewRepository.find(this.deps.db.sql, accountId, id);
    if (!row) throw notFound();
    const schema = FIXED_KINDS.includes(row.route as FixedKind) ? dataSchemaFor(row.route as FixedKind) : row.schema ? prepareCustomSchema(JSON.parse(row.schema)) : null;
    if (schema) {
      const checked = checkAnswer(schema, data);
      if (!checked.ok) {
        const errors = checked.issues.map((i) => ({ path: `/body/data${i.path}`, message: i.message }));
        throw new ApiError('invalid_request', `The corrected data does not meet the ${row.route} schema: ${errors[0]!.path} ${errors[0]!.message}`, { errors });
      }
    }
    const answer = JSON.parse(row.answer) as StoredAnswer;
    const { values, counts } = reviewedValues(answer.found, data);
    const resolution: Schemas['ReviewResolution'] = { data: data as Schemas['FreeFormObject'], resolvedBy, values, counts };
    const outcome = new Map(values.map((v) => [v.path, v.outcome]));
    const labels = answer.found.filter((f) => f.value !== null).map((f) => ({ path: f.path, engine: row.engine, route: row.route, confidence: f.baseConfidence, correct: outcome.get(f.path) === 'confirmed' }));
    const now = this.deps.clock.now();
    await withTransaction(this.deps.db.pool, async (tx) => {
      if (!await reviewRepository.resolve(tx.sql, accountId, id, JSON.stringify(resolution), now, labels)) throw notFound();
      await recordReviewEvent(tx, this.deps.queue, summaryView({ ...row, status: 'resolved', resolvedAt: now }), accountId, 'review.resolved', now);
    });
    await this.calibrations.refit(accountId, row.engine, row.route);
    return this.get(accountId, id);
  }

  async delete(accountId: string, id: string): Promise<Schemas['ReviewSummary']> {
    const row = await reviewRepository.delete(this.deps.db.sql, accountId, id);
    if (!row) throw notFound();
    await this.calibrations.refit(accountId, row.engine, row.route);
    return summaryView(row);
  }

  /** Deletes the reviews past their retention (the job system's sweep calls it). */
  async purgeExpired(now: Date): Promise<void> {
    while (await reviewRepository.purgeExpired(this.deps.db.sql, now) === 1000);
  }
}
