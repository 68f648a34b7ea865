// A small Anthropic Messages API on 127.0.0.1 for tests: answers tool_use responses, and can be told to delay,
// fail with 429/500/529, answer input outside the schema or a body that is not JSON, hang, or reset the connection. It records every request.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    max_tokens: number;
    system: Array<{ type: string; text: string; cache_control?: unknown }>;
    tools: Array<{ name: string; input_schema: Record<string, unknown>; cache_control?: unknown }>;
    tool_choice: { type: string; name: string };
    messages: Array<{ role: string; content: Array<{ type: string; text?: string; content?: string; tool_use_id?: string; is_error?: boolean }> }>;
  };
}

export type Behaviour =
  | { kind: 'answer'; input: unknown; delayMs?: number; usage?: { input_tokens: number; output_tokens: number } }
  | { kind: 'status'; status: 429 | 500 | 529 | 400 | 401 }
  | { kind: 'hang' }
  | { kind: 'reset' }
  | { kind: 'text' }
  /** 200 with a body that is not JSON. */
  | { kind: 'garbage' }
  /** 200 with JSON that is not a Messages response. */
  | { kind: 'shapeless' };

export class FakeAnthropic {
  readonly requests: RecordedRequest[] = [];
  private queue: Behaviour[] = [];
  /** What to do when the queue is empty: answer with this function of the request. */
  fallback: (req: RecordedRequest) => Behaviour = () => ({ kind: 'answer', input: {} });
  private server!: Server;
  private hanging = new Set<ServerResponse>();
  url = '';
  /** Requests being answered now, the most at once, and how many callers hung up before their answer. */
  inFlight = 0;
  maxInFlight = 0;
  abandoned = 0;

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
    this.maxInFlight = 0;
    this.abandoned = 0;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/messages') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not found' } }));
      return;
    }
    const recorded: RecordedRequest = { headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
    this.requests.push(recorded);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    res.once('close', () => {
      this.inFlight--;
      if (!res.writableFinished) this.abandoned++;
    });
    const behaviour = this.queue.shift() ?? this.fallback(recorded);
    switch (behaviour.kind) {
      case 'status': {
        const type = { 429: 'rate_limit_error', 500: 'api_error', 529: 'overloaded_error', 400: 'invalid_request_error', 401: 'authentication_error' }[behaviour.status];
        res.writeHead(behaviour.status, { 'content-type': 'application/json', 'retry-after-ms': '5', 'x-should-retry': behaviour.status >= 429 ? 'true' : 'false' });
        res.end(JSON.stringify({ type: 'error', error: { type, message: `fake ${type}` } }));
        return;
      }
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
        this.reply(res, recorded, [{ type: 'text', text: 'I would rather not.' }], 'end_turn');
        return;
      case 'answer': {
        if (behaviour.delayMs) {
          const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
          await Promise.race([new Promise((r) => setTimeout(r, behaviour.delayMs)), closed]);
          if (res.destroyed) return;
        }
        this.reply(res, recorded, [{ type: 'tool_use', id: `toolu_${this.requests.length}`, name: recorded.body.tools[0]!.name, input: behaviour.input }], 'tool_use', behaviour.usage);
      }
    }
  }

  private reply(res: ServerResponse, req: RecordedRequest, content: unknown[], stop: string, usage = { input_tokens: 1200, output_tokens: 300 }): void {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_fake_${this.requests.length}` });
    res.end(JSON.stringify({
      id: `msg_${this.requests.length}`,
      type: 'message',
      role: 'assistant',
      model: req.body.model,
      content,
      stop_reason: stop,
      stop_sequence: null,
      usage: { ...usage, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    }));
  }
}
