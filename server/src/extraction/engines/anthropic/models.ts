/**
 * What each Claude model accepts, from Anthropic's documentation (each row names its page). Every request the engine
 * sends is built from this table, so a setting a model refuses with a 400 is never sent to it. A model id not listed
 * here gets UNKNOWN_MODEL: the most conservative settings (no thinking or effort parameters, no forced tool, no
 * structured outputs, no prompt caching), and a warning at start.
 */

export interface ModelPrices {
  /** Dollars per million tokens. */
  input: number;
  output: number;
  /** 5-minute cache writes. */
  cacheWrite: number;
  cacheRead: number;
}

export interface ModelCapabilities {
  id: string;
  /** Whether the row comes from the documentation (false: an id this service does not know). */
  known: boolean;
  /** `tool_choice` of type `tool` or `any` is accepted (the 5.5 family and Fable 5.1 answer 400). */
  forcedToolChoice: boolean;
  /**
   * The `thinking` setting that turns thinking off or to its lowest, or null when none may be sent (thinking always
   * on, or a model without adaptive thinking where leaving `thinking` out means no thinking).
   */
  thinkingOff: { type: 'between_tools' } | { type: 'disabled' } | null;
  /**
   * The highest effort at which `thinkingOff` may be sent, when the model limits it (Haiku 5.5 accepts
   * `thinking: disabled` at effort low to high only); above it thinking is left on (adaptive) and the effort is kept.
   */
  thinkingOffMaxEffort: 'high' | null;
  /** Thinking is on unless turned off; its tokens count toward `max_tokens`. */
  thinksByDefault: boolean;
  /** `output_config.effort` is accepted. */
  effort: boolean;
  /** `output_config.format` (JSON outputs) and strict tools are accepted. */
  structuredOutputs: boolean;
  /** The shortest prefix the prompt cache keeps, in tokens; null when not documented (then nothing is marked). */
  cacheMinTokens: number | null;
  /**
   * The most input tokens one image costs, and so one PDF page's image (a PDF page is billed as an image and its
   * text): an image larger than the model reads is scaled down until it fits (vision page, "Evaluate image size").
   */
  imageTokens: number;
  contextTokens: number;
  maxOutputTokens: number;
  prices: ModelPrices | null;
  /** The documentation page(s) the row comes from. */
  source: string;
}

const DOCS = 'https://platform.claude.com/docs/en';

/**
 * Images, from the vision page (https://platform.claude.com/docs/en/build-with-claude/vision, "Evaluate image
 * size"): current models read images up to 2576 px on the long edge, up to about 4,784 tokens an image (Sonnet 5.5
 * bills up to 4,784); earlier ones (Haiku 4.5) up to 1568 px, about 1,600 tokens. PDF pages are billed as an image
 * each plus their text, with the same limits (https://platform.claude.com/docs/en/build-with-claude/pdf-support:
 * "subject to the same limitations and considerations as other vision tasks").
 */
const HIGH_RES_IMAGE_TOKENS = 4784;
const STANDARD_IMAGE_TOKENS = 1600;

/**
 * Sampling parameters (temperature, top_p, top_k), assistant prefill and `thinking: {type: "enabled"}` budgets are
 * refused by every 5.x model (Sonnet 5 migration notes, Sonnet 5.5 migration guide): the engine sends none of them to
 * any model, so they need no column.
 */
export const MODEL_TABLE: readonly ModelCapabilities[] = [
  {
    id: 'claude-sonnet-5-5',
    known: true,
    // "leaves out five settings that return a 400 error: thinking budgets, sampling parameters, assistant prefill,
    // forced tool choice, and thinking: {type: disabled}"; between_tools is the lowest thinking setting.
    forcedToolChoice: false,
    thinkingOff: { type: 'between_tools' },
    thinkingOffMaxEffort: null,
    thinksByDefault: true,
    effort: true,
    structuredOutputs: true,
    // 512 tokens: the Sonnet 5 / 5.5 comparison of cacheable minimums (the prompt-caching page itself is not in the
    // stored docs corpus; 512 is below our ~1,000-token system prompt either way).
    cacheMinTokens: 512,
    imageTokens: HIGH_RES_IMAGE_TOKENS,
    contextTokens: 1_000_000,
    maxOutputTokens: 128_000,
    // Cache reads: the migration guide says $0.10, half the Sonnet 5 rate (the overview page still shows $0.20).
    prices: { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.1 },
    source: `${DOCS}/models/sonnet-5-5/migration-guide, ${DOCS}/models/sonnet-5-5/whats-new-sonnet-5-5, ${DOCS}/models/sonnet-5-5/overview`,
  },
  {
    id: 'claude-opus-5-5',
    known: true,
    // Thinking cannot be disabled ("Adaptive (always on)"); forced tool_choice returns 400; default effort medium.
    forcedToolChoice: false,
    thinkingOff: null,
    thinkingOffMaxEffort: null,
    thinksByDefault: true,
    effort: true,
    structuredOutputs: true,
    // The 5.5 family caches prefixes from 512 tokens, as Opus 5 did (prompt caching's minimum table; the Haiku 5.5
    // comparison lists 512 against Haiku 4.5's 4,096).
    cacheMinTokens: 512,
    imageTokens: HIGH_RES_IMAGE_TOKENS,
    contextTokens: 1_000_000,
    maxOutputTokens: 128_000,
    // ${DOCS}/models/opus-5-5/overview, Pricing: 5m cache write $5, cache read $0.20 (0.05x input, not the standard
    // 0.1x).
    prices: { input: 4, output: 20, cacheWrite: 5, cacheRead: 0.2 },
    source: `${DOCS}/models/opus-5-5/overview (pricing, cache read $0.20), ${DOCS}/models/overview (Opus 5.5 column)`,
  },
  {
    id: 'claude-haiku-5-5',
    known: true,
    // Migration checklist from Haiku 4.5: adaptive thinking on by default, `thinking: disabled` accepted at low to
    // high effort, no sampling parameters, `refusal` stop reason; forced tool use is not in its list of 400s, but
    // this engine never forces a tool, so the conservative value costs nothing.
    forcedToolChoice: false,
    thinkingOff: { type: 'disabled' },
    // "thinking: disabled accepted at low to high effort": at xhigh or max it is a 400, so thinking stays on there.
    thinkingOffMaxEffort: 'high',
    thinksByDefault: true,
    effort: true,
    structuredOutputs: true,
    // "Minimum cacheable prompt: 512 tokens" (4,096 on Haiku 4.5), ${DOCS}/models/haiku-5-5/overview.
    cacheMinTokens: 512,
    imageTokens: HIGH_RES_IMAGE_TOKENS,
    contextTokens: 1_000_000,
    maxOutputTokens: 128_000,
    // Prompts up to 100,000 tokens (documents here stay below: 200,000 characters).
    prices: { input: 0.1, output: 0.5, cacheWrite: 0.125, cacheRead: 0.01 },
    source: `${DOCS}/models/haiku-5-5/overview, ${DOCS}/models/haiku-5-5/migration-guide`,
  },
  {
    id: 'claude-fable-5-1',
    known: true,
    // "Adaptive (always on)"; forced tool choice is refused like Opus 5.5 (models overview).
    forcedToolChoice: false,
    thinkingOff: null,
    thinkingOffMaxEffort: null,
    thinksByDefault: true,
    effort: true,
    structuredOutputs: true,
    // "the 512-token cache minimum carries over" from Fable 5 (${DOCS}/models/fable-5-1/overview).
    cacheMinTokens: 512,
    imageTokens: HIGH_RES_IMAGE_TOKENS,
    contextTokens: 1_000_000,
    maxOutputTokens: 128_000,
    // ${DOCS}/models/fable-5-1/overview: input and output as Fable 5, cache reads cut to a quarter: $0.25 (0.025x).
    prices: { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 0.25 },
    source: `${DOCS}/models/fable-5-1/overview (pricing, cache read $0.25), ${DOCS}/models/overview (Fable 5.1 column)`,
  },
  {
    id: 'claude-sonnet-5',
    known: true,
    // Legacy. Adaptive thinking on by default, `disabled` accepted, manual budgets and sampling parameters 400;
    // forced tool choice still accepted; cache minimum 1,024.
    forcedToolChoice: true,
    thinkingOff: { type: 'disabled' },
    thinkingOffMaxEffort: null,
    thinksByDefault: true,
    effort: true,
    structuredOutputs: true,
    cacheMinTokens: 1024,
    imageTokens: HIGH_RES_IMAGE_TOKENS,
    contextTokens: 1_000_000,
    maxOutputTokens: 128_000,
    prices: { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 },
    source: `${DOCS}/models/sonnet-5/overview`,
  },
  {
    id: 'claude-haiku-4-5',
    known: true,
    // Extended thinking (off unless enabled), no effort parameter, forced tool choice accepted, cache minimum 4,096.
    forcedToolChoice: true,
    thinkingOff: null,
    thinkingOffMaxEffort: null,
    thinksByDefault: false,
    effort: false,
    structuredOutputs: true,
    cacheMinTokens: 4096,
    // Not a high-resolution model: up to 1568 px on the long edge, about 1,600 tokens an image.
    imageTokens: STANDARD_IMAGE_TOKENS,
    contextTokens: 200_000,
    maxOutputTokens: 64_000,
    prices: { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
    source: `${DOCS}/models/overview (Haiku 4.5 column), ${DOCS}/build-with-claude/structured-outputs`,
  },
];

/** Settings for a model this service has no row for: nothing that any current model refuses. */
export function unknownModel(id: string): ModelCapabilities {
  return {
    id,
    known: false,
    forcedToolChoice: false,
    thinkingOff: null,
    thinkingOffMaxEffort: null,
    // Assume it may think: its tokens then count toward max_tokens, which the budget allows for.
    thinksByDefault: true,
    effort: false,
    structuredOutputs: false,
    cacheMinTokens: null,
    // Reserve images at the most any current model bills for one.
    imageTokens: HIGH_RES_IMAGE_TOKENS,
    contextTokens: 200_000,
    maxOutputTokens: 8192,
    prices: null,
    source: 'none: not in the capability table',
  };
}

/** The row of a model id (dated snapshots such as `claude-haiku-4-5-20251001` read as their family). */
export function capabilitiesOf(id: string): ModelCapabilities {
  const row = MODEL_TABLE.find((m) => id === m.id || id.startsWith(`${m.id}-2`));
  return row ? { ...row, id } : unknownModel(id);
}

/** Dollars for a usage on a model, from its published prices; null when the prices are unknown. */
export function dollarsFor(caps: ModelCapabilities, usage: { inputTokens: number; outputTokens: number; cacheReadInputTokens?: number; cacheCreationInputTokens?: number }): number | null {
  const p = caps.prices;
  if (!p) return null;
  return (usage.inputTokens * p.input + usage.outputTokens * p.output + (usage.cacheCreationInputTokens ?? 0) * p.cacheWrite + (usage.cacheReadInputTokens ?? 0) * p.cacheRead) / 1_000_000;
}
