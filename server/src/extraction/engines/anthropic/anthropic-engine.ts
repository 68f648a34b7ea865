import Anthropic from '@anthropic-ai/sdk';
import { ApiError } from '../../../http/api-error.js';
import { checkAnswer, type SchemaIssue } from '../../schemas/answer-checker.js';
import type { EngineAnswer, EngineInput, ExtractionEngine, ExtractionTask } from '../engine.js';
import { SYSTEM_PROMPT, TOOL_DESCRIPTION, TOOL_NAME, userTurn } from './instructions.js';

export interface AnthropicSettings {
  apiKey: string;
  model: string;
  baseUrl: string | undefined;
  /** The whole extraction, retries and repair turn included. */
  timeoutMs: number;
  maxRetries: number;
  maxOutputTokens: number;
}

const TASKS: Record<ExtractionTask['kind'], string> = {
  invoice: 'Extract the invoice.',
  receipt: 'Extract the receipt.',
  contract: 'Extract the contract.',
  'job-posting': 'Extract the job posting.',
  'meeting-notes': 'Extract the meeting notes.',
  renewal: 'Extract the SaaS subscription renewal terms, each value with its verbatim source quote.',
  custom: 'Extract the fields the tool schema describes.',
};

/** Thrown when our own overall deadline passed: 504. */
class DeadlineExceeded extends Error {}

/**
 * Claude through the Anthropic SDK. The route's schema is the input_schema of one tool that tool_choice forces, so
 * the answer is JSON of that shape; the system prompt and tool are cached. The answer is checked with Ajv; a wrong
 * one gets one repair turn showing the errors, then 502.
 */
export class AnthropicEngine implements ExtractionEngine {
  readonly name = 'anthropic' as const;
  private readonly client: Anthropic;

  constructor(private readonly settings: AnthropicSettings) {
    this.client = new Anthropic({
      apiKey: settings.apiKey,
      baseURL: settings.baseUrl,
      maxRetries: settings.maxRetries,
      timeout: settings.timeoutMs,
    });
  }

  async extract(input: EngineInput): Promise<EngineAnswer> {
    const deadline = AbortSignal.timeout(this.settings.timeoutMs);
    const signal = AbortSignal.any([input.signal, deadline]);
    try {
      return await this.converse(input, signal);
    } catch (e) {
      if (input.signal.aborted) throw input.signal.reason ?? e;
      if (deadline.aborted || e instanceof DeadlineExceeded || e instanceof Anthropic.APIConnectionTimeoutError) {
        throw new ApiError('upstream_timeout');
      }
      if (e instanceof ApiError) throw e;
      if (e instanceof Anthropic.APIError) throw new ApiError('upstream_error', `The model provider failed${e.status ? ` (HTTP ${e.status})` : ''}.`);
      throw e;
    }
  }

  private async converse(input: EngineInput, signal: AbortSignal): Promise<EngineAnswer> {
    const tools: Anthropic.Messages.Tool[] = [{
      name: TOOL_NAME,
      description: TOOL_DESCRIPTION,
      input_schema: input.schema as Anthropic.Messages.Tool.InputSchema,
      cache_control: { type: 'ephemeral' },
    }];
    const messages: Anthropic.Messages.MessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: userTurn(input.text, TASKS[input.task.kind]) }] },
    ];
    const usage = { inputTokens: 0, outputTokens: 0 };
    let issues: SchemaIssue[] = [];
    for (let turn = 0; turn < 2; turn++) {
      const response = await readable(this.client.messages.create(
        {
          model: this.settings.model,
          max_tokens: this.settings.maxOutputTokens,
          system: [{ type: 'text', text: SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } }],
          tools,
          tool_choice: { type: 'tool', name: TOOL_NAME },
          messages,
        },
        { signal },
      ));
      usage.inputTokens += response.usage.input_tokens;
      usage.outputTokens += response.usage.output_tokens;
      const call = response.content.find((b): b is Anthropic.Messages.ToolUseBlock => b.type === 'tool_use' && b.name === TOOL_NAME);
      if (call) {
        const check = checkAnswer(input.schema, call.input);
        if (check.ok) return { data: call.input, model: response.model, usage };
        issues = check.issues;
      } else {
        issues = [{ path: '/', message: `no ${TOOL_NAME} call (stop_reason ${response.stop_reason})` }];
      }
      if (turn === 1) break;
      // One repair turn: show the model what was wrong.
      messages.push({ role: 'assistant', content: response.content });
      const feedback = `The input did not match the schema:\n${issues.slice(0, 20).map((i) => `- ${i.path} ${i.message}`).join('\n')}\nCall ${TOOL_NAME} again with every field, corrected.`;
      messages.push({
        role: 'user',
        content: call ? [{ type: 'tool_result', tool_use_id: call.id, is_error: true, content: feedback }] : [{ type: 'text', text: feedback }],
      });
    }
    throw new ApiError('upstream_error', 'The model kept answering outside the schema.');
  }
}

/**
 * The provider's answer, or upstream_error when its body is not a Messages response (not JSON, or the wrong shape):
 * the SDK's own errors (status, connection, abort) pass through to be mapped by `extract`.
 */
async function readable(call: Promise<Anthropic.Messages.Message>): Promise<Anthropic.Messages.Message> {
  let response: Anthropic.Messages.Message;
  try {
    response = await call;
  } catch (e) {
    if (e instanceof Anthropic.AnthropicError || (e instanceof Error && e.name === 'AbortError')) throw e;
    throw new ApiError('upstream_error', 'The model provider answered with a body that could not be read.');
  }
  if (!Array.isArray(response?.content) || typeof response.usage?.input_tokens !== 'number' || typeof response.usage.output_tokens !== 'number') {
    throw new ApiError('upstream_error', 'The model provider answered with a body that could not be read.');
  }
  return response;
}
