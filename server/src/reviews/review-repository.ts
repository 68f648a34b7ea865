import { utcTimestamp as ts, type Sql } from '../db/sql.js';

/** A review's row, as stored (JSON members as text, so their key order survives). */
export interface ReviewRow {
  id: string;
  accountId: string;
  status: 'open' | 'resolved';
  route: string;
  engine: string;
  model: string;
  jobId: string | null;
  minConfidence: number;
  reviewBelow: number;
  withheldCount: number;
  lowCount: number;
  answer: string;
  schema: string | null;
  documentText: string;
  mediaType: string;
  filename: string | null;
  pages: string;
  resolution: string | null;
  createdAt: Date;
  expiresAt: Date;
  resolvedAt: Date | null;
}

export type ReviewSummaryRow = Omit<ReviewRow, 'answer' | 'schema' | 'documentText' | 'mediaType' | 'filename' | 'pages' | 'resolution'>;

const SUMMARY = `id, account_id AS "accountId", status, route, engine, model, job_id AS "jobId", min_confidence AS "minConfidence",
  review_below AS "reviewBelow", withheld_count AS "withheldCount", low_count AS "lowCount",
  created_at AT TIME ZONE 'UTC' AS "createdAt", expires_at AT TIME ZONE 'UTC' AS "expiresAt", resolved_at AT TIME ZONE 'UTC' AS "resolvedAt"`;
const FULL = `${SUMMARY}, answer, schema, document_text AS "documentText", media_type AS "mediaType", filename, pages, resolution, file IS NOT NULL AS "hasFile"`;

/** The one owner of the `reviews` and `review_labels` tables. Every read and write is scoped to the account. */
export const reviewRepository = {
  async insert(sql: Sql, r: Omit<ReviewRow, 'status' | 'resolution' | 'resolvedAt'> & { file: Uint8Array | null }): Promise<ReviewSummaryRow> {
    const rows = await sql.rows<ReviewSummaryRow>('reviews_insert', `
      INSERT INTO reviews (id, account_id, status, route, engine, model, job_id, min_confidence, review_below, withheld_count, low_count,
                           answer, schema, document_text, media_type, filename, pages, file, created_at, expires_at)
      VALUES ($1, $2, 'open', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18::timestamp(3), $19::timestamp(3))
      RETURNING ${SUMMARY}`,
    [r.id, r.accountId, r.route, r.engine, r.model, r.jobId, r.minConfidence, r.reviewBelow, r.withheldCount, r.lowCount, r.answer, r.schema,
      r.documentText, r.mediaType, r.filename, r.pages, r.file === null ? null : Buffer.from(r.file), ts(r.createdAt), ts(r.expiresAt)]);
    return rows[0]!;
  },

  /** A page of the account's reviews, newest first (ids are UUID v7: they sort by time). `cursor`: the last id seen. */
  async list(sql: Sql, accountId: string, filter: { status?: string; route?: string; limit: number; cursor?: string }): Promise<ReviewSummaryRow[]> {
    return sql.rows<ReviewSummaryRow>('reviews_list', `
      SELECT ${SUMMARY} FROM reviews
      WHERE account_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR route = $3) AND ($4::text IS NULL OR id < $4)
      ORDER BY id DESC LIMIT $5`, [accountId, filter.status ?? null, filter.route ?? null, filter.cursor ?? null, filter.limit]);
  },

  async find(sql: Sql, accountId: string, id: string): Promise<(ReviewRow & { hasFile: boolean }) | null> {
    const rows = await sql.rows<ReviewRow & { hasFile: boolean }>('reviews_find', `SELECT ${FULL} FROM reviews WHERE id = $1 AND account_id = $2`, [id, accountId]);
    return rows[0] ?? null;
  },

  async file(sql: Sql, accountId: string, id: string): Promise<{ file: Buffer | null; mediaType: string } | null> {
    const rows = await sql.rows<{ file: Buffer | null; mediaType: string }>('reviews_file', `SELECT file, media_type AS "mediaType" FROM reviews WHERE id = $1 AND account_id = $2`, [id, accountId]);
    return rows[0] ?? null;
  },

  /** Writes the resolution and replaces the review's labels (the values the service found, each right or not). */
  async resolve(sql: Sql, accountId: string, id: string, resolution: string, now: Date, labels: Array<{ path: string; engine: string; route: string; confidence: number; correct: boolean }>): Promise<boolean> {
    const changed = await sql.execute('reviews_resolve', `UPDATE reviews SET status = 'resolved', resolution = $3, resolved_at = $4::timestamp(3) WHERE id = $1 AND account_id = $2`, [id, accountId, resolution, ts(now)]);
    if (!changed) return false;
    await sql.execute('review_labels_clear', 'DELETE FROM review_labels WHERE review_id = $1', [id]);
    if (labels.length) {
      await sql.execute('review_labels_insert', `
        INSERT INTO review_labels (review_id, path, account_id, engine, route, confidence, correct)
        SELECT $1, l.path, $2, l.engine, l.route, l.confidence, l.correct
        FROM jsonb_to_recordset($3::jsonb) AS l(path text, engine text, route text, confidence float8, correct boolean)`, [id, accountId, JSON.stringify(labels)]);
    }
    return true;
  },

  async delete(sql: Sql, accountId: string, id: string): Promise<ReviewSummaryRow | null> {
    const rows = await sql.rows<ReviewSummaryRow>('reviews_delete', `DELETE FROM reviews WHERE id = $1 AND account_id = $2 RETURNING ${SUMMARY}`, [id, accountId]);
    return rows[0] ?? null;
  },

  /** Reviews past their retention go, with their documents and labels; answers how many (at most 1,000 at a time). */
  async purgeExpired(sql: Sql, now: Date): Promise<number> {
    return sql.execute('reviews_purge', `DELETE FROM reviews WHERE id IN (SELECT id FROM reviews WHERE expires_at < $1::timestamp(3) LIMIT 1000)`, [ts(now)]);
  },

  /** The account's labels of an engine and route: what its calibration is fitted on. */
  async labels(sql: Sql, accountId: string, engine: string, route: string): Promise<Array<{ confidence: number; correct: boolean }>> {
    return sql.rows('review_labels_of', 'SELECT confidence, correct FROM review_labels WHERE account_id = $1 AND engine = $2 AND route = $3', [accountId, engine, route]);
  },
};

/** A resolved review as a labelled example: its document and its corrected data. */
export interface LabelledExample {
  route: string;
  schema: string | null;
  documentText: string;
  mediaType: string;
  filename: string | null;
  file: Buffer | null;
  resolution: string;
}

/** The account's labelled examples (resolved reviews), newest first. */
export async function labelledExamples(sql: Sql, accountId: string, route: string | undefined, limit: number): Promise<LabelledExample[]> {
  return sql.rows<LabelledExample>('reviews_labelled', `
    SELECT route, schema, document_text AS "documentText", media_type AS "mediaType", filename, file, resolution FROM reviews
    WHERE account_id = $1 AND status = 'resolved' AND ($2::text IS NULL OR route = $2) ORDER BY id DESC LIMIT $3`, [accountId, route ?? null, limit]);
}
