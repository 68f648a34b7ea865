// A small OpenAI-compatible Chat Completions server on 127.0.0.1 for tests, behaving as OpenAI's documentation says:
// - `response_format: {type: "json_schema", strict: true}` refuses (400) a schema outside the strict subset: the root not
//   an object, an object without `additionalProperties: false` or with a property missing from `required`, a keyword
//   the subset does not support, more than 10 levels or 5,000 properties
//   (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas); a strict answer has every property;
// - `response_format: {type: "json_object"}` refuses messages without the word "JSON"
//   (https://platform.openai.com/docs/guides/structured-outputs#json-mode);
// - an `image_url` part is refused by a model without vision (https://platform.openai.com/docs/guides/images-vision);
// - answers carry `usage.prompt_tokens`/`completion_tokens`, `finish_reason` `stop`, `length` (cut at the output limit)
//   or `content_filter`, and `message.refusal` (https://platform.openai.com/docs/api-reference/chat/object);
// - errors are `{error: {message, type, param, code}}` with the documented statuses
//   (https://platform.openai.com/docs/guides/error-codes): 401 invalid_api_key, 404 model_not_found, 429 rate limit
//   (with retry-after) or insufficient_quota, 500, 503, 400 context_length_exceeded;
// - `GET /v1/models/{model}` answers a Model object or 404 (https://platform.openai.com/docs/api-reference/models/retrieve).
// It can also hang, reset the connection, or send a body that is not JSON. It records every request.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { quoteAnswer, type QuoteEntry } from './fake-quotes.js';

type Part = { type: string; text?: string; image_url?: { url: string; detail?: string } };
type Message = { role: string; content: string | Part[] | null };

export interface RecordedChat {
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    messages: Message[];
    max_tokens?: number;
    max_completion_tokens?: number;
    temperature?: number;
    response_format?: { type: string; json_schema?: { name: string; schema: Record<string, unknown>; strict?: boolean } };
  };
}

export type OpenAIBehaviour =
  /** Answers `input` as the data, with quotes made as a model makes them (or `quotes` as given); `raw` sends `input` alone. */
  | { kind: 'answer'; input: unknown; usage?: { prompt_tokens: number; completion_tokens: number }; quotes?: QuoteEntry[]; raw?: boolean; delayMs?: number; model?: string; fenced?: boolean }
  | { kind: 'status'; status: 400 | 401 | 403 | 404 | 429 | 500 | 503; retryAfter?: string | null }
  /** 429 `insufficient_quota`: "You exceeded your current quota, please check your plan and billing details." */
  | { kind: 'quota' }
  /** 400 `context_length_exceeded`: the prompt is longer than the model's context. */
  | { kind: 'context_length' }
  /** Stops at the output limit: a cut answer, finish_reason `length`, completion_tokens = the limit. */
  | { kind: 'length' }
  /** `message.refusal` set, content null (structured outputs' refusals). */
  | { kind: 'refusal' }
  | { kind: 'content_filter' }
  /** Text that is not JSON. */
  | { kind: 'text' }
  | { kind: 'hang' }
  | { kind: 'reset' }
  | { kind: 'garbage' }
  | { kind: 'shapeless' };

/** The models the fake serves, and whether each reads images. */
export const FAKE_MODELS: Record<string, { vision: boolean }> = {
  'gpt-4.1-mini': { vision: true },
  'qwen2.5:7b-instruct': { vision: false },
};

/** The schema the model must answer: the strict schema's, else the one in the prompt (JSON mode), else {}. */
export function answerSchemaOf(req: RecordedChat): Record<string, unknown> {
  const strict = req.body.response_format?.json_schema?.schema;
  if (strict) return strict;
  const text = textOf(req);
  const at = text.lastIndexOf('JSON Schema');
  const start = at >= 0 ? text.indexOf('{', at) : -1;
  if (start < 0) return {};
  try {
    return JSON.parse(text.slice(start)) as Record<string, unknown>;
  } catch {
    return {};
  }
}

const asksForQuotes = (schema: Record<string, unknown>) => {
  const props = schema.properties as Record<string, unknown> | undefined;
  return !!props && Object.keys(props).sort().join(',') === 'data,quotes';
};

/** The schema of the data (inside `{data, quotes}` when quotes are asked for). */
export function schemaOf(req: RecordedChat): Record<string, unknown> {
  const schema = answerSchemaOf(req);
  return asksForQuotes(schema) ? (schema.properties as Record<string, Record<string, unknown>>).data! : schema;
}

/** All the text of the request's user messages. */
function textOf(req: RecordedChat): string {
  return req.body.messages.filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join('\n'))).join('\n');
}

/** The document text of a request: what stands between <document> and </document> in the first user message. */
export function documentOf(req: RecordedChat): string {
  const first = req.body.messages.find((m) => m.role === 'user');
  const text = typeof first?.content === 'string' ? first.content : (first?.content ?? []).map((p) => p.text ?? '').join('\n');
  const m = /<document>\n([\s\S]*)\n<\/document>/.exec(text);
  return m ? m[1]! : '';
}

const SUPPORTED = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'description', '$ref', '$defs', 'definitions',
  'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems',
]);

/** Why OpenAI would refuse this strict schema (the documented subset), or null. */
export function strictRefusalOf(schema: Record<string, unknown>): string | null {
  if (schema.type !== 'object' || schema.anyOf) return "Invalid schema: the root must be an object, not 'anyOf'.";
  let props = 0;
  const visit = (node: Record<string, unknown>, context: string[], depth: number): string | null => {
    if (depth > 10) return `In context=(${context.join(', ')}), the schema exceeds 10 levels of nesting.`;
    for (const key of Object.keys(node)) if (!SUPPORTED.has(key)) return `In context=(${context.join(', ')}), '${key}' is not permitted.`;
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes('object') || node.properties) {
      if (node.additionalProperties !== false) return `In context=(${context.join(', ')}), 'additionalProperties' is required to be supplied and to be false.`;
      const properties = (node.properties ?? {}) as Record<string, Record<string, unknown>>;
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      for (const name of Object.keys(properties)) {
        props++;
        if (!required.has(name)) return `In context=(${context.join(', ')}), 'required' is required to be supplied and to be an array including every key in properties. Missing '${name}'.`;
      }
      for (const [name, sub] of Object.entries(properties)) {
        const why = visit(sub, [...context, 'properties', name], depth + 1);
        if (why) return why;
      }
    }
    if (node.items && typeof node.items === 'object') {
      const why = visit(node.items as Record<string, unknown>, [...context, 'items'], depth + 1);
      if (why) return why;
    }
    for (const [i, sub] of ((node.anyOf ?? []) as Record<string, unknown>[]).entries()) {
      const why = visit(sub, [...context, 'anyOf', String(i)], depth);
      if (why) return why;
    }
    return null;
  };
  const why = visit(schema, [], 1);
  if (why) return `Invalid schema for response_format 'extraction': ${why}`;
  if (props > 5000) return 'Invalid schema: more than 5000 properties.';
  return null;
}

/** A strict answer has every property of the schema: members the test left out are null (the schema is nullable there). */
function conform(schema: Record<string, unknown>, value: unknown): unknown {
  if (Array.isArray(schema.anyOf)) {
    if (value === null || value === undefined) return null;
    const member = (schema.anyOf as Record<string, unknown>[]).find((m) => m.type !== 'null') ?? {};
    return conform(member, value);
  }
  if (schema.type === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    return Object.fromEntries(Object.entries(props).map(([k, s]) => [k, conform(s, (value as Record<string, unknown>)[k])]));
  }
  if (schema.type === 'array' && Array.isArray(value)) return value.map((v) => conform((schema.items ?? {}) as Record<string, unknown>, v));
  return value === undefined ? null : value;
}

/** Input tokens an image costs, at OpenAI's high detail for a 512 px tile (85 + 170 a tile; the fake counts 4 tiles). */
const IMAGE_TOKENS = 85 + 4 * 170;

export class FakeOpenAI {
  readonly requests: RecordedChat[] = [];
  private queue: OpenAIBehaviour[] = [];
  fallback: (req: RecordedChat) => OpenAIBehaviour = () => ({ kind: 'answer', input: {} });
  private server!: Server;
  private hanging = new Set<ServerResponse>();
  url = '';
  /** Requests refused with 400 for what the documentation says the API refuses, with the reason. */
  readonly refused: string[] = [];
  /** When set, the only keys accepted (Authorization: Bearer); any other, or none, is 401. */
  acceptedKeys: Set<string> | null = null;
  readonly modelLookups: string[] = [];

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  next(...behaviours: OpenAIBehaviour[]): void {
    this.queue.push(...behaviours);
  }

  reset(): void {
    this.queue = [];
    this.requests.length = 0;
    this.refused.length = 0;
    this.modelLookups.length = 0;
    this.acceptedKeys = null;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private error(res: ServerResponse, status: number, type: string, code: string | null, message: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_fake_err_${this.requests.length}`, ...headers });
    res.end(JSON.stringify({ error: { message, type, param: null, code } }));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const presented = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (this.acceptedKeys && !this.acceptedKeys.has(presented)) {
      this.error(res, 401, 'invalid_request_error', 'invalid_api_key', 'Incorrect API key provided.');
      return;
    }
    const modelPath = /^\/v1\/models\/([^?]+)/.exec(req.url ?? '');
    if (req.method === 'GET' && modelPath) {
      const id = decodeURIComponent(modelPath[1]!);
      this.modelLookups.push(id);
      if (!FAKE_MODELS[id]) {
        this.error(res, 404, 'invalid_request_error', 'model_not_found', `The model '${id}' does not exist`);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, object: 'model', created: 1_750_000_000, owned_by: 'fake' }));
      return;
    }
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/chat/completions') {
      this.error(res, 404, 'invalid_request_error', null, 'not found');
      return;
    }
    const recorded: RecordedChat = { headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
    this.requests.push(recorded);
    const model = FAKE_MODELS[recorded.body.model];
    if (!model) {
      this.error(res, 404, 'invalid_request_error', 'model_not_found', `The model '${recorded.body.model}' does not exist or you do not have access to it.`);
      return;
    }
    const refusal = this.refusalOf(recorded, model);
    if (refusal) {
      this.refused.push(refusal);
      this.error(res, 400, 'invalid_request_error', null, refusal);
      return;
    }
    const behaviour = this.queue.shift() ?? this.fallback(recorded);
    const limit = recorded.body.max_completion_tokens ?? recorded.body.max_tokens ?? 4096;
    switch (behaviour.kind) {
      case 'status': {
        const type = { 400: 'invalid_request_error', 401: 'invalid_request_error', 403: 'invalid_request_error', 404: 'invalid_request_error', 429: 'requests', 500: 'server_error', 503: 'server_error' }[behaviour.status];
        const retry: Record<string, string> = behaviour.retryAfter === null ? {} : behaviour.retryAfter !== undefined ? { 'retry-after': behaviour.retryAfter } : { 'retry-after-ms': '5' };
        this.error(res, behaviour.status, type, behaviour.status === 429 ? 'rate_limit_exceeded' : null, `fake ${behaviour.status}`, retry);
        return;
      }
      case 'quota':
        this.error(res, 429, 'insufficient_quota', 'insufficient_quota', 'You exceeded your current quota, please check your plan and billing details.');
        return;
      case 'context_length':
        this.error(res, 400, 'invalid_request_error', 'context_length_exceeded', "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.");
        return;
      case 'hang':
        this.hanging.add(res);
        res.on('close', () => this.hanging.delete(res));
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"chatcmpl-1","choi');
        return;
      case 'shapeless':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"chat.completion","choices":"none"}');
        return;
      case 'text':
        this.reply(res, recorded, { content: 'I would rather not.', refusal: null }, 'stop');
        return;
      case 'length':
        this.reply(res, recorded, { content: '{"data": {"lineItems": [{"descr', refusal: null }, 'length', { prompt_tokens: 1200, completion_tokens: limit });
        return;
      case 'refusal':
        this.reply(res, recorded, { content: null, refusal: "I'm sorry, I cannot help with that." }, 'stop', { prompt_tokens: 1200, completion_tokens: 9 });
        return;
      case 'content_filter':
        this.reply(res, recorded, { content: null, refusal: null }, 'content_filter', { prompt_tokens: 1200, completion_tokens: 0 });
        return;
      case 'answer': {
        if (behaviour.delayMs) {
          await new Promise((r) => setTimeout(r, behaviour.delayMs));
          if (res.destroyed) return;
        }
        // Without a response format, a model may wrap its JSON in a Markdown fence and a sentence.
        const json = JSON.stringify(this.answerOf(recorded, behaviour));
        this.reply(res, recorded, { content: behaviour.fenced ? `Here is the extraction:\n\`\`\`json\n${json}\n\`\`\`` : json, refusal: null }, 'stop', behaviour.usage, behaviour.model);
      }
    }
  }

  /** What the documentation says the API refuses in this request, or null. */
  private refusalOf(req: RecordedChat, model: { vision: boolean }): string | null {
    const format = req.body.response_format;
    if (format?.type === 'json_schema') {
      if (!format.json_schema?.name || !/^[a-zA-Z0-9_-]{1,64}$/.test(format.json_schema.name)) return "Invalid 'response_format.json_schema.name'.";
      if (format.json_schema.strict) {
        const why = strictRefusalOf(format.json_schema.schema);
        if (why) return why;
      }
    }
    const all = req.body.messages.map((m) => (typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join(' '))).join(' ');
    if (format?.type === 'json_object' && !/json/i.test(all)) return "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.";
    const images = req.body.messages.some((m) => Array.isArray(m.content) && m.content.some((p) => p.type === 'image_url'));
    if (images && !model.vision) return 'Invalid content type. image_url is only supported by certain models.';
    if (req.body.max_tokens !== undefined && req.body.max_completion_tokens !== undefined) return 'max_tokens and max_completion_tokens cannot both be set.';
    return null;
  }

  private answerOf(req: RecordedChat, b: Extract<OpenAIBehaviour, { kind: 'answer' }>): unknown {
    const schema = answerSchemaOf(req);
    const strict = !!req.body.response_format?.json_schema?.strict;
    const data = strict && asksForQuotes(schema) ? conform(schemaOf(req), b.input) : b.input;
    if (b.raw || !asksForQuotes(schema)) return strict ? conform(schema, b.input) : b.input;
    if (b.quotes) return { data, quotes: b.quotes };
    const renewal = !!(schemaOf(req).properties as Record<string, unknown> | undefined)?.documentKindGuess;
    const quotes = quoteAnswer(documentOf(req), data, { renewal });
    return { data, quotes: quotes.map(({ path, quote, derived }) => ({ path, quote, derived })) };
  }

  private reply(res: ServerResponse, req: RecordedChat, message: { content: string | null; refusal: string | null }, finish: string, usage?: { prompt_tokens: number; completion_tokens: number }, model?: string): void {
    const images = req.body.messages.reduce((n, m) => n + (Array.isArray(m.content) ? m.content.filter((p) => p.type === 'image_url').length : 0), 0);
    const u = usage ?? { prompt_tokens: 1200 + images * IMAGE_TOKENS, completion_tokens: 300 };
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_fake_${this.requests.length}` });
    res.end(JSON.stringify({
      id: `chatcmpl-${this.requests.length}`,
      object: 'chat.completion',
      created: 1_750_000_000,
      // The server names the model that answered (a dated snapshot for an alias, on OpenAI's API).
      model: model ?? req.body.model,
      choices: [{ index: 0, message: { role: 'assistant', ...message }, logprobs: null, finish_reason: finish }],
      usage: { ...u, total_tokens: u.prompt_tokens + u.completion_tokens },
    }));
  }
}
