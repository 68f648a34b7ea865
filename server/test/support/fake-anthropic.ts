// A small Anthropic Messages API on 127.0.0.1 for tests. It refuses, per model, the requests the documentation says
// that model refuses (see MODEL_RULES), answers with thinking blocks, cache usage and the stop reasons the engine must
// handle, bills images and PDF pages as the vision page says, answers the Models API's "Get a Model", refuses a key it
// was not given (401), and can be told to delay, fail with 402/429/500/529 (with or without retry-after, or a spend
// limit), stop at the context window, answer outside the schema, send a body that is not JSON, hang, or reset the
// connection. It records every request.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { quoteAnswer, type QuoteEntry, type SentQuote, type Slip } from './fake-quotes.js';

type Block = { type: string; text?: string; content?: string; tool_use_id?: string; is_error?: boolean; source?: { type: string; data?: string; media_type?: string }; cache_control?: unknown };

export interface RecordedRequest {
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    max_tokens: number;
    system?: Array<{ type: string; text: string; cache_control?: unknown }>;
    tools?: Array<{ name: string; input_schema: Record<string, unknown>; cache_control?: unknown; strict?: boolean }>;
    tool_choice?: { type: string; name?: string };
    thinking?: { type: string; budget_tokens?: number };
    output_config?: { effort?: string; format?: { type: string; schema: Record<string, unknown> } };
    temperature?: number;
    top_p?: number;
    top_k?: number;
    messages: Array<{ role: string; content: Block[] | string }>;
  };
}

/** The schema the model must answer: the structured output's, else the (first) tool's. */
export function answerSchemaOf(req: RecordedRequest): Record<string, unknown> {
  return req.body.output_config?.format?.schema ?? req.body.tools?.[0]?.input_schema ?? {};
}

/** Whether the answer asked for is `{data, quotes}` (the service asks for a quote per value). */
function asksForQuotes(schema: Record<string, unknown>): boolean {
  const props = schema.properties as Record<string, unknown> | undefined;
  return !!props && Object.keys(props).sort().join(',') === 'data,quotes';
}

/** The schema of the data the model must answer (inside `{data, quotes}` when quotes are asked for). */
export function schemaOf(req: RecordedRequest): Record<string, unknown> {
  const schema = answerSchemaOf(req);
  return asksForQuotes(schema) ? (schema.properties as Record<string, Record<string, unknown>>).data! : schema;
}

/** The text of the document sent as a plain-text document block, or '' (a PDF or image sent as it is). */
export function documentTextOf(req: RecordedRequest): string {
  const first = req.body.messages[0]!.content;
  if (typeof first === 'string') return '';
  return first.find((b) => b.type === 'document' && b.source?.type === 'text')?.source?.data ?? '';
}

/** The document text of a request (document blocks and text blocks of the first user turn). */
export function documentOf(req: RecordedRequest): string {
  const first = req.body.messages[0]!.content;
  return typeof first === 'string' ? first : first.map((b) => b.source?.data ?? b.text ?? '').join('\n');
}

type Usage = { input_tokens: number; output_tokens: number; cache_creation_input_tokens?: number; cache_read_input_tokens?: number };

export type Behaviour =
  /**
   * Answers `input` as the data. When the request asks for quotes, the fake quotes each value as a model would
   * (fake-quotes.ts), from `text` when given (a file it cannot read itself), else from the document block, with the
   * slips `slipOf` names; or sends `quotes` as given. `raw` sends `input` as the whole answer.
   */
  | { kind: 'answer'; input: unknown; delayMs?: number; usage?: Usage; quotes?: QuoteEntry[]; text?: string; slipOf?: (path: string) => Slip; raw?: boolean }
  | { kind: 'status'; status: 429 | 500 | 529 | 400 | 401 | 402 | 403 | 404; retryAfter?: string | null }
  /** 429 for an organisation over its monthly spend cap: no retry-after, error.details.error_code set. */
  | { kind: 'spend_limit' }
  | { kind: 'hang' }
  | { kind: 'reset' }
  | { kind: 'text' }
  /** Stops at max_tokens with a truncated answer (output_tokens = the request's max_tokens). */
  | { kind: 'max_tokens' }
  | { kind: 'refusal' }
  /**
   * Stops at the model's context window (stop_reason `model_context_window_exceeded`, with a cut answer): the prompt
   * and the answer filled it (https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons).
   */
  | { kind: 'context_window' }
  /** 200 with a body that is not JSON. */
  | { kind: 'garbage' }
  /** 200 with JSON that is not a Messages response. */
  | { kind: 'shapeless' };

/**
 * What each model refuses with a 400, from its documentation page. A model not listed is unknown: 404, as the API
 * answers an unknown model id (https://platform.claude.com/docs/en/api/errors, not_found_error).
 */
interface ModelRules {
  /** tool_choice {type: tool} or {type: any}. */
  forcedToolChoice: boolean;
  /** thinking types accepted (besides leaving thinking out). */
  thinking: string[];
  /** temperature / top_p / top_k. */
  sampling: boolean;
  /** output_config.effort. */
  effort: boolean;
  /** Adaptive thinking on unless turned off: answers start with a thinking block. */
  thinksByDefault: boolean;
  /** Documented cache minimum, tokens. */
  cacheMin: number;
  /**
   * Images (vision page, "Evaluate image size"): the longest edge read and the most tokens an image costs; a larger
   * image is scaled down to fit. About (width x height) / 750 tokens below that. A PDF page is billed as an image of
   * its page plus its text (PDF support: the same limitations as other vision tasks).
   */
  image: { maxEdge: number; maxTokens: number };
  /** The highest effort `thinking: disabled` is accepted with (Haiku 5.5: low to high), or null for any. */
  disabledMaxEffort: 'high' | null;
}

const HIGH_RES = { maxEdge: 2576, maxTokens: 4784 };
const STANDARD_RES = { maxEdge: 1568, maxTokens: 1600 };

export const MODEL_RULES: Record<string, ModelRules> = {
  // Sonnet 5.5 migration guide: "five settings that return a 400 error: thinking budgets, sampling parameters,
  // assistant prefill, forced tool choice, and thinking: {type: disabled}"; between_tools is its lowest setting.
  'claude-sonnet-5-5': { forcedToolChoice: false, thinking: ['adaptive', 'between_tools'], sampling: false, effort: true, thinksByDefault: true, cacheMin: 512, image: HIGH_RES, disabledMaxEffort: null },
  // Opus 5.5 migration guide: thinking cannot be disabled (disabled and enabled+budget 400), forced tool_choice 400.
  'claude-opus-5-5': { forcedToolChoice: false, thinking: ['adaptive'], sampling: false, effort: true, thinksByDefault: true, cacheMin: 512, image: HIGH_RES, disabledMaxEffort: null },
  // Models overview: Fable 5.1 "Adaptive (always on)"; forced tool choice refused like Opus 5.5; 512-token cache minimum.
  'claude-fable-5-1': { forcedToolChoice: false, thinking: ['adaptive'], sampling: false, effort: true, thinksByDefault: true, cacheMin: 512, image: HIGH_RES, disabledMaxEffort: null },
  // Haiku 5.5 migration guide: thinking enabled+budget becomes adaptive, disabled accepted at effort low to high only
  // (xhigh and max: 400), sampling parameters 400; cache minimum 512.
  'claude-haiku-5-5': { forcedToolChoice: true, thinking: ['adaptive', 'disabled'], sampling: false, effort: true, thinksByDefault: true, cacheMin: 512, image: HIGH_RES, disabledMaxEffort: 'high' },
  // Sonnet 5 overview: adaptive on by default, disabled accepted, manual budgets and sampling parameters 400.
  'claude-sonnet-5': { forcedToolChoice: true, thinking: ['adaptive', 'disabled'], sampling: false, effort: true, thinksByDefault: true, cacheMin: 1024, image: HIGH_RES, disabledMaxEffort: null },
  // Haiku 4.5: extended thinking (enabled with a budget), no effort parameter, cache minimum 4,096, standard images.
  'claude-haiku-4-5': { forcedToolChoice: true, thinking: ['enabled', 'disabled'], sampling: true, effort: false, thinksByDefault: false, cacheMin: 4096, image: STANDARD_RES, disabledMaxEffort: null },
};

/** Why the documented model would refuse this request with a 400, or null. */
export function refusalOf(body: RecordedRequest['body'], rules: ModelRules): string | null {
  const forced = body.tool_choice && (body.tool_choice.type === 'tool' || body.tool_choice.type === 'any');
  if (forced && !rules.forcedToolChoice) return `tool_choice.type ${body.tool_choice!.type} is not supported for this model`;
  if (body.thinking && !rules.thinking.includes(body.thinking.type)) return `"thinking.type.${body.thinking.type}" is not supported for this model`;
  if (!rules.sampling && (body.temperature !== undefined || body.top_p !== undefined || body.top_k !== undefined)) return 'temperature is deprecated for this model';
  if (body.output_config?.effort && !rules.effort) return 'output_config.effort is not supported for this model';
  if (body.thinking?.type === 'between_tools' && ['xhigh', 'max'].includes(body.output_config?.effort ?? '')) return 'effort xhigh and max are not supported with between_tools';
  if (body.thinking?.type === 'disabled' && rules.disabledMaxEffort === 'high' && ['xhigh', 'max'].includes(body.output_config?.effort ?? '')) {
    return 'thinking.type.disabled is only supported with effort low, medium or high';
  }
  const last = body.messages[body.messages.length - 1];
  if (last?.role === 'assistant' && rules.thinksByDefault) return 'assistant message prefill is not supported for this model';
  if (body.output_config?.format?.schema) {
    const { optional, unions } = complexity(body.output_config.format.schema);
    if (optional > 24 || unions > 16) return 'Schema is too complex for compilation.';
  }
  if (forced && body.thinking?.type === 'adaptive') return 'tool_choice forces tool use, which is not compatible with thinking';
  return null;
}

/**
 * Why the documented limits refuse a document or image block, or null. PDF support
 * (https://platform.claude.com/docs/en/build-with-claude/pdf-support): at most 100 pages, no passwords or encryption,
 * 32 MB a request. Vision (https://platform.claude.com/docs/en/build-with-claude/vision): JPEG, PNG, GIF or WebP, at
 * most 5 MB and 8000x8000 px an image.
 */
export function blockRefusalOf(body: RecordedRequest['body']): string | null {
  for (const message of body.messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.source?.type !== 'base64') continue;
      const bytes = Buffer.from(block.source.data ?? '', 'base64');
      if (block.type === 'document') {
        if (block.source.media_type !== 'application/pdf') return `document source media_type ${block.source.media_type} is not supported`;
        const pdf = bytes.toString('latin1');
        if (!pdf.startsWith('%PDF-')) return 'The PDF specified was not valid.';
        if (/\/Encrypt\b/.test(pdf)) return 'The PDF specified is password protected.';
        if ((pdf.match(/\/Type\s*\/Page\b/g) ?? []).length > 100) return 'A maximum of 100 PDF pages may be provided.';
      } else if (block.type === 'image') {
        if (!['image/jpeg', 'image/png', 'image/gif', 'image/webp'].includes(block.source.media_type ?? '')) return `image source media_type ${block.source.media_type} is not supported`;
        if (bytes.length > 5 * 1024 * 1024) return 'image exceeds 5 MB maximum';
        if (block.source.media_type === 'image/png' && (bytes.readUInt32BE(16) > 8000 || bytes.readUInt32BE(20) > 8000)) return 'image dimensions exceed max allowed size: 8000 pixels';
      }
    }
  }
  return null;
}

/**
 * Input tokens the images and PDF pages of a request cost on a model, as the vision page says: about
 * width x height / 750, an image scaled down (aspect ratio kept) to the model's longest edge and to its most tokens;
 * a PDF page at the most an image costs (its page image), its text counted with the rest.
 */
export function visualTokens(body: RecordedRequest['body'], rules: ModelRules): number {
  let tokens = 0;
  for (const message of body.messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.source?.type !== 'base64') continue;
      const bytes = Buffer.from(block.source.data ?? '', 'base64');
      if (block.type === 'document' && block.source.media_type === 'application/pdf') {
        tokens += (bytes.toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length * rules.image.maxTokens;
      } else if (block.type === 'image') {
        if (block.source.media_type !== 'image/png') {
          tokens += rules.image.maxTokens;
          continue;
        }
        const w = bytes.readUInt32BE(16), h = bytes.readUInt32BE(20);
        const scale = Math.min(1, rules.image.maxEdge / Math.max(w, h));
        tokens += Math.min(rules.image.maxTokens, Math.ceil((w * scale * h * scale) / 750));
      }
    }
  }
  return tokens;
}

/** Optional and union-typed properties across a schema, as structured outputs count them. */
export function complexity(schema: unknown): { optional: number; unions: number } {
  let optional = 0;
  let unions = 0;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (n.properties && typeof n.properties === 'object') {
      const required = new Set(Array.isArray(n.required) ? n.required : []);
      for (const [name, prop] of Object.entries(n.properties as Record<string, Record<string, unknown>>)) {
        if (!required.has(name)) optional++;
        if (Array.isArray(prop.anyOf) || Array.isArray(prop.type)) unions++;
      }
    }
    for (const v of Object.values(n)) visit(v);
  };
  visit(schema);
  return { optional, unions };
}

export class FakeAnthropic {
  readonly requests: RecordedRequest[] = [];
  private queue: Behaviour[] = [];
  /** What to do when the queue is empty: answer with this function of the request. */
  fallback: (req: RecordedRequest) => Behaviour = () => ({ kind: 'answer', input: {} });
  private server!: Server;
  private hanging = new Set<ServerResponse>();
  /** System prompts cached so far (the second request with one reads it). */
  private cached = new Set<string>();
  url = '';
  /** Requests being answered now, the most at once, and how many callers hung up before their answer. */
  inFlight = 0;
  maxInFlight = 0;
  abandoned = 0;
  /** Requests refused with 400 by the model rules, with the reason. */
  readonly refused: string[] = [];
  /** The quotes the fake made up for its answers (not those a test gave), with the document they quote. */
  readonly quoted: Array<{ text: string; quotes: SentQuote[] }> = [];
  /** When set, the only API keys accepted; any other is answered 401 authentication_error, on every endpoint. */
  acceptedKeys: Set<string> | null = null;
  /** Models API requests ("Get a Model"), by model id. */
  readonly modelLookups: string[] = [];

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Behaviours for the next requests, in order. */
  next(...behaviours: Behaviour[]): void {
    this.queue.push(...behaviours);
  }

  reset(): void {
    this.queue = [];
    this.requests.length = 0;
    this.refused.length = 0;
    this.quoted.length = 0;
    this.modelLookups.length = 0;
    this.acceptedKeys = null;
    this.cached.clear();
    this.maxInFlight = 0;
    this.abandoned = 0;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private error(res: ServerResponse, status: number, type: string, message: string, headers: Record<string, string> = {}, details?: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_fake_err_${this.requests.length}`, ...headers });
    res.end(JSON.stringify({ type: 'error', error: { type, message, ...(details ? { details } : {}) }, request_id: `req_fake_err_${this.requests.length}` }));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    // A key the organisation does not have: 401 on every endpoint (https://platform.claude.com/docs/en/api/errors).
    // The key as `x-api-key`, or as `Authorization: Bearer` (how the SDK sends an API key).
    const presented = String(req.headers['x-api-key'] ?? /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '');
    if (this.acceptedKeys && !this.acceptedKeys.has(presented)) {
      this.error(res, 401, 'authentication_error', 'invalid x-api-key');
      return;
    }
    // The Models API's "Get a Model" (https://platform.claude.com/docs/en/api/models/retrieve): a ModelInfo, or 404.
    const modelPath = /^\/v1\/models\/([^/?]+)/.exec(req.url ?? '');
    if (req.method === 'GET' && modelPath) {
      const id = decodeURIComponent(modelPath[1]!);
      this.modelLookups.push(id);
      if (!MODEL_RULES[id]) {
        this.error(res, 404, 'not_found_error', `model: ${id}`);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_fake_model_${this.modelLookups.length}` });
      res.end(JSON.stringify({ type: 'model', id, display_name: id.replace(/^claude-/, 'Claude ').replace(/-/g, ' '), created_at: '2026-06-01T00:00:00Z' }));
      return;
    }
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/messages') {
      this.error(res, 404, 'not_found_error', 'not found');
      return;
    }
    const raw = Buffer.concat(chunks);
    // Request size limit, 32 MB for the Messages endpoint (https://platform.claude.com/docs/en/build-with-claude/pdf-support).
    if (raw.length > 32 * 1024 * 1024) {
      this.error(res, 413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.');
      return;
    }
    const recorded: RecordedRequest = { headers: req.headers, body: JSON.parse(raw.toString('utf8')) };
    this.requests.push(recorded);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    res.once('close', () => {
      this.inFlight--;
      if (!res.writableFinished) this.abandoned++;
    });
    const rules = MODEL_RULES[recorded.body.model];
    if (!rules) {
      this.error(res, 404, 'not_found_error', `model: ${recorded.body.model}`);
      return;
    }
    const refusal = refusalOf(recorded.body, rules) ?? blockRefusalOf(recorded.body);
    if (refusal) {
      this.refused.push(refusal);
      this.error(res, 400, 'invalid_request_error', refusal);
      return;
    }
    const behaviour = this.queue.shift() ?? this.fallback(recorded);
    switch (behaviour.kind) {
      case 'status': {
        const type = { 429: 'rate_limit_error', 500: 'api_error', 529: 'overloaded_error', 400: 'invalid_request_error', 401: 'authentication_error', 402: 'billing_error', 403: 'permission_error', 404: 'not_found_error' }[behaviour.status];
        const retry: Record<string, string> = behaviour.retryAfter === null ? {} : behaviour.retryAfter !== undefined ? { 'retry-after': behaviour.retryAfter } : { 'retry-after-ms': '5' };
        this.error(res, behaviour.status, type, `fake ${type}`, { ...retry, 'x-should-retry': behaviour.status >= 429 ? 'true' : 'false' });
        return;
      }
      case 'spend_limit':
        this.error(res, 429, 'rate_limit_error', 'Your organization has reached its monthly usage limit.', { 'x-should-retry': 'true' }, { error_code: 'enforced_spend_limit_reached' });
        return;
      case 'hang':
        this.hanging.add(res);
        res.on('close', () => this.hanging.delete(res));
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"msg_1","type":"mess');
        return;
      case 'shapeless':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"type":"message","content":"none"}');
        return;
      case 'text':
        this.reply(res, recorded, rules, [{ type: 'text', text: 'I would rather not.' }], 'end_turn');
        return;
      case 'max_tokens':
        this.reply(res, recorded, rules, [{ type: 'text', text: '{"lineItems": [{"descr' }], 'max_tokens', { input_tokens: 1200, output_tokens: recorded.body.max_tokens });
        return;
      case 'refusal':
        this.reply(res, recorded, rules, [], 'refusal', { input_tokens: 1200, output_tokens: 5 });
        return;
      case 'context_window':
        this.reply(res, recorded, rules, [{ type: 'text', text: '{"lineItems": [{"descr' }], 'model_context_window_exceeded', { input_tokens: 990_000, output_tokens: 10_000 });
        return;
      case 'answer': {
        if (behaviour.delayMs) {
          const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
          await Promise.race([new Promise((r) => setTimeout(r, behaviour.delayMs)), closed]);
          if (res.destroyed) return;
        }
        const answer = this.withQuotes(recorded, behaviour);
        const content = recorded.body.output_config?.format
          ? [{ type: 'text', text: JSON.stringify(answer) }]
          : [{ type: 'tool_use', id: `toolu_${this.requests.length}`, name: recorded.body.tools?.[0]?.name ?? 'none', input: answer }];
        this.reply(res, recorded, rules, content, recorded.body.output_config?.format ? 'end_turn' : 'tool_use', behaviour.usage);
      }
    }
  }

  /** The whole answer: the data, and its quotes when the request asks for them. */
  private withQuotes(req: RecordedRequest, b: Extract<Behaviour, { kind: 'answer' }>): unknown {
    if (b.raw || !asksForQuotes(answerSchemaOf(req))) return b.input;
    if (b.quotes) return { data: b.input, quotes: b.quotes };
    const text = b.text ?? documentTextOf(req);
    const renewal = !!(schemaOf(req).properties as Record<string, unknown> | undefined)?.documentKindGuess;
    const quotes = quoteAnswer(text, b.input, { renewal, ...(b.slipOf ? { slipOf: b.slipOf } : {}) });
    this.quoted.push({ text, quotes });
    return { data: b.input, quotes: quotes.map(({ path, quote, derived }) => ({ path, quote, derived })) };
  }

  private reply(res: ServerResponse, req: RecordedRequest, rules: ModelRules, content: unknown[], stop: string, usage?: Usage): void {
    // Thinking on unless the request turned it off: the answer starts with a thinking block (its tokens are output).
    const thinking = rules.thinksByDefault && !['disabled', 'between_tools'].includes(req.body.thinking?.type ?? '')
      ? [{ type: 'thinking', thinking: '', signature: 'sig_fake' }] : [];
    // A system prompt marked for caching above the model's minimum (4 characters a token) is written once, then read.
    const system = req.body.system?.find((b) => b.cache_control);
    const cacheable = system && system.text.length / 4 >= rules.cacheMin ? Math.ceil(system.text.length / 4) : 0;
    const hit = cacheable > 0 && this.cached.has(system!.text);
    if (cacheable) this.cached.add(system!.text);
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_fake_${this.requests.length}` });
    res.end(JSON.stringify({
      id: `msg_${this.requests.length}`,
      type: 'message',
      role: 'assistant',
      model: req.body.model,
      content: [...thinking, ...content],
      stop_reason: stop,
      stop_sequence: null,
      usage: {
        cache_creation_input_tokens: cacheable && !hit ? cacheable : 0,
        cache_read_input_tokens: hit ? cacheable : 0,
        // Unless the test says, the prompt's text at 1,200 tokens, and its images and PDF pages as the vision page bills.
        ...(usage ?? { input_tokens: 1200 + visualTokens(req.body, rules), output_tokens: 300 }),
      },
    }));
  }
}
