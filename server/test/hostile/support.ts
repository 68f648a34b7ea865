// Shared by the hostile-input suites: raw HTTP requests (duplicate headers, any bytes), the contract's response
// schemas through Ajv, and a fingerprint of every table so a refused request can be shown to change nothing.
import { request as httpRequest } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { TestServer } from '../support/harness.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export const contract: Json = JSON.parse(readFileSync(new URL('../../../generated/openapi.json', import.meta.url), 'utf8'));

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: Json;
}

export interface RawRequest {
  method: string;
  path: string;
  /** Array values are sent as repeated header lines. */
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
}

/** One request on its own connection, bytes exactly as given (no fetch normalisation). */
export function send(baseUrl: string, r: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method: r.method, path: r.path, headers: r.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: Json;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (r.body !== undefined) req.end(r.body);
    else req.end();
  });
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
ajv.addSchema(contract, 'openapi');
const validators = new Map<string, ValidateFunction>();

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * Checks an answer against what the contract declares for the operation and status: the status must be declared
 * and the body must meet its schema. Answers the problems found (empty when it conforms).
 */
export function checkAgainstContract(template: string, method: string, res: RawResponse): string[] {
  const op = contract.paths[template]?.[method.toLowerCase()];
  if (!op) return [`${method} ${template} is not in the contract`];
  const declared = op.responses[String(res.status)] ? String(res.status) : op.responses.default ? 'default' : undefined;
  if (!declared) return [`status ${res.status} is not declared for ${method} ${template} (body ${res.text.slice(0, 200)})`];
  const content = op.responses[declared].content;
  if (!content) return [];
  if (!content['application/json']) return [];
  const type = String(res.headers['content-type'] ?? '');
  if (!/^application\/json/.test(type)) return [`content-type ${type} is not application/json`];
  const ref = `openapi#/${pointer('paths', template, method.toLowerCase(), 'responses', declared, 'content', 'application/json', 'schema')}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  if (res.json === undefined) return [`body is not JSON: ${res.text.slice(0, 200)}`];
  return validate(res.json) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/** The shared error envelope (or the bare invalid_api_key body) that every 4xx/5xx answer must be. */
export function isErrorEnvelope(body: Json): boolean {
  if (body && body.error === 'invalid_api_key' && Object.keys(body).length === 1) return true;
  const e = body?.error;
  return Boolean(e) && typeof e === 'object' && typeof e.code === 'string' && contract.components.schemas.ErrorCode.enum.includes(e.code)
    && typeof e.message === 'string' && 'details' in e && Object.keys(body).length === 1;
}

const TABLES = ['accounts', 'api_keys', 'idempotency_records', 'usage_buckets', 'usage_records', 'vendor_renewals', 'stored_documents', 'billing_events', 'billing_subscriptions', 'rate_windows',
  'jobs', 'job_requests', 'webhook_endpoints', 'webhook_events', 'webhook_deliveries', 'webhook_attempts'];

/** A fingerprint of every row of every table: equal before and after means the request changed nothing. */
export async function dbFingerprint(s: TestServer): Promise<Record<string, string>> {
  const sql = `SELECT ${TABLES.map((t) => `(SELECT count(*)::text || ':' || coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '') FROM ${t} x) AS ${t}`).join(', ')}`;
  const { rows } = await s.db.pool.query(sql);
  return rows[0] as Record<string, string>;
}

/** Plans large enough that property runs never meet a rate or HEU limit by accident. */
export function roomyPlansFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'docextract-plans-')), 'plans.json');
  const roomy = { heuPerMonth: 100_000_000, requestsPerMinute: 1_000_000 };
  writeFileSync(file, JSON.stringify({ free: roomy, starter: roomy }));
  return file;
}
