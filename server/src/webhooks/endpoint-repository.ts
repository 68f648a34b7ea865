import type { components } from '../../../generated/openapi.js';
import { utcTimestamp as ts, type Sql } from '../db/sql.js';

type Schemas = components['schemas'];

interface EndpointRow {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  createdAt: Date;
  disabledAt: Date | null;
}

interface DeliveryRow {
  id: string;
  eventId: string;
  eventType: string;
  /** Null for a review event: those are not listed (the contract's delivery is a job event). */
  jobId: string;
  status: string;
  nextAttemptAt: Date | null;
  createdAt: Date;
  payload: string;
  attempts: Array<{ attempt: number; attemptedAt: string; statusCode: number | null; error: string | null; durationMs: number }> | null;
}

const ENDPOINT_COLUMNS = `id, url, events, description, created_at AT TIME ZONE 'UTC' AS "createdAt", disabled_at AT TIME ZONE 'UTC' AS "disabledAt"`;

const endpointView = (r: EndpointRow): Schemas['WebhookEndpoint'] => ({
  id: r.id, url: r.url, events: r.events as Schemas['WebhookEventType'][], description: r.description,
  createdAt: r.createdAt.toISOString(), disabledAt: r.disabledAt?.toISOString() ?? null,
});

const DELIVERY_SELECT = `
  SELECT d.id, d.event_id AS "eventId", d.event_type AS "eventType", d.job_id AS "jobId", d.status::text AS status,
         d.next_attempt_at AT TIME ZONE 'UTC' AS "nextAttemptAt", d.created_at AT TIME ZONE 'UTC' AS "createdAt", d.payload,
         (SELECT json_agg(json_build_object('attempt', a.attempt, 'attemptedAt', to_char(a.attempted_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'statusCode', a.status_code, 'error', a.error, 'durationMs', a.duration_ms) ORDER BY a.attempt)
          FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts
  FROM webhook_deliveries d`;

const deliveryView = (r: DeliveryRow): Schemas['WebhookDelivery'] => ({
  id: r.id, eventId: r.eventId, eventType: r.eventType as Schemas['WebhookEventType'], jobId: r.jobId,
  status: r.status as Schemas['WebhookDeliveryStatus'], attempts: r.attempts ?? [],
  nextAttemptAt: r.status === 'pending' ? r.nextAttemptAt?.toISOString() ?? null : null,
  createdAt: r.createdAt.toISOString(), event: JSON.parse(r.payload) as Schemas['WebhookEvent'],
});

/** The one owner of `webhook_endpoints`, `webhook_deliveries` and `webhook_attempts` reads and account-scoped writes. */
export const endpointRepository = {
  async count(sql: Sql, accountId: string): Promise<number> {
    const rows = await sql.rows<{ n: string }>('webhook_endpoints_count', 'SELECT count(*) AS n FROM webhook_endpoints WHERE account_id = $1', [accountId]);
    return Number(rows[0]?.n ?? 0);
  },

  async create(sql: Sql, e: { id: string; accountId: string; url: string; events: string[]; description: string | null; secret: string; createdAt: Date }): Promise<Schemas['WebhookEndpoint']> {
    const rows = await sql.rows<EndpointRow>('webhook_endpoints_create', `
      INSERT INTO webhook_endpoints (id, account_id, url, events, description, secret, created_at)
      VALUES ($1, $2, $3, $4::text[], $5, $6, $7::timestamp(3)) RETURNING ${ENDPOINT_COLUMNS}`,
    [e.id, e.accountId, e.url, e.events, e.description, e.secret, ts(e.createdAt)]);
    return endpointView(rows[0]!);
  },

  async list(sql: Sql, accountId: string): Promise<Array<Schemas['WebhookEndpoint']>> {
    const rows = await sql.rows<EndpointRow>('webhook_endpoints_list', `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE account_id = $1 ORDER BY created_at, id`, [accountId]);
    return rows.map(endpointView);
  },

  async find(sql: Sql, accountId: string, id: string): Promise<Schemas['WebhookEndpoint'] | null> {
    const rows = await sql.rows<EndpointRow>('webhook_endpoints_find', `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND account_id = $2`, [id, accountId]);
    return rows[0] ? endpointView(rows[0]) : null;
  },

  /**
   * Deletes the endpoint and its deliveries: pending ones are cancelled (their queued attempts find no delivery and
   * send nothing). Rotating its secret or enabling it keeps both.
   */
  async delete(sql: Sql, accountId: string, id: string): Promise<Schemas['WebhookEndpoint'] | null> {
    const rows = await sql.rows<EndpointRow>('webhook_endpoints_delete', `DELETE FROM webhook_endpoints WHERE id = $1 AND account_id = $2 RETURNING ${ENDPOINT_COLUMNS}`, [id, accountId]);
    return rows[0] ? endpointView(rows[0]) : null;
  },

  /**
   * Replaces the endpoint's secret by `secret`; the one replaced keeps signing until `previousUntil` (null: it stops
   * now). Null for another account's or an unknown endpoint.
   */
  async rotateSecret(sql: Sql, accountId: string, id: string, secret: string, previousUntil: Date | null): Promise<(Schemas['WebhookEndpoint'] & { previousSecretExpiresAt: string | null }) | null> {
    // On the right of SET, `secret` is the value before this update: the one being replaced.
    const rows = await sql.rows<EndpointRow & { previousSecretExpiresAt: Date | null }>('webhook_endpoints_rotate', `
      UPDATE webhook_endpoints SET previous_secret = CASE WHEN $4::timestamp(3) IS NULL THEN NULL ELSE secret END,
        previous_secret_expires_at = $4::timestamp(3), secret = $3
      WHERE id = $1 AND account_id = $2
      RETURNING ${ENDPOINT_COLUMNS}, previous_secret_expires_at AT TIME ZONE 'UTC' AS "previousSecretExpiresAt"`,
    [id, accountId, secret, previousUntil ? ts(previousUntil) : null]);
    const row = rows[0];
    return row ? { ...endpointView(row), previousSecretExpiresAt: row.previousSecretExpiresAt?.toISOString() ?? null } : null;
  },

  /** Clears the endpoint's `disabledAt` (it takes events again); null for another account's or an unknown endpoint. */
  async enable(sql: Sql, accountId: string, id: string): Promise<Schemas['WebhookEndpoint'] | null> {
    const rows = await sql.rows<EndpointRow>('webhook_endpoints_enable', `
      UPDATE webhook_endpoints SET disabled_at = NULL WHERE id = $1 AND account_id = $2 RETURNING ${ENDPOINT_COLUMNS}`, [id, accountId]);
    return rows[0] ? endpointView(rows[0]) : null;
  },

  /**
   * A new pending delivery of the event of delivery `deliveryId` of the endpoint (the same event id, body and event
   * time, so it is kept no longer than the event), due `now`; answers its id, or null when the endpoint holds no such
   * delivery. The caller schedules its attempt in the same transaction.
   */
  async copyDelivery(sql: Sql, endpointId: string, deliveryId: string, id: string, now: Date): Promise<string | null> {
    const rows = await sql.rows<{ id: string }>('webhook_deliveries_copy', `
      INSERT INTO webhook_deliveries (id, endpoint_id, account_id, event_id, event_type, job_id, payload, status, attempt_count, next_attempt_at, created_at)
      SELECT $3, endpoint_id, account_id, event_id, event_type, job_id, payload, 'pending', 0, $4::timestamp(3), created_at
      FROM webhook_deliveries WHERE id = $2 AND endpoint_id = $1
      RETURNING id`, [endpointId, deliveryId, id, ts(now)]);
    return rows[0]?.id ?? null;
  },

  /** A page of an endpoint's deliveries, newest first, each with its attempts. */
  async deliveries(sql: Sql, endpointId: string, filter: { status?: string; limit: number; cursor?: string }): Promise<Array<Schemas['WebhookDelivery']>> {
    const rows = await sql.rows<DeliveryRow>('webhook_deliveries_list', `
      ${DELIVERY_SELECT}
      WHERE d.endpoint_id = $1 AND d.job_id IS NOT NULL AND ($2::text IS NULL OR d.status::text = $2) AND ($3::text IS NULL OR d.id < $3)
      ORDER BY d.id DESC LIMIT $4`, [endpointId, filter.status ?? null, filter.cursor ?? null, filter.limit]);
    return rows.map(deliveryView);
  },

  /** One delivery of the endpoint, with its attempts; null when the endpoint holds none with this id. */
  async delivery(sql: Sql, endpointId: string, id: string): Promise<Schemas['WebhookDelivery'] | null> {
    const rows = await sql.rows<DeliveryRow>('webhook_deliveries_find', `${DELIVERY_SELECT} WHERE d.endpoint_id = $1 AND d.id = $2 AND d.job_id IS NOT NULL`, [endpointId, id]);
    return rows[0] ? deliveryView(rows[0]) : null;
  },

  /** Deliveries of events older than `before` go (their bodies hold job results, kept no longer than the jobs). */
  async purgeDeliveries(sql: Sql, before: Date): Promise<number> {
    return sql.execute('webhook_deliveries_purge', `
      DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE created_at < $1::timestamp(3) LIMIT 1000)`, [ts(before)]);
  },
};
