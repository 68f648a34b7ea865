import type { EngineUsage, TokenPlan } from '../extraction/engines/engine.js';

/**
 * HEU for reported usage: one per started 1,000 billed tokens, at least one. Every billed token counts alike (cache
 * reads and writes too), so a request costs the same HEU whether or not the provider's prompt cache was hit.
 */
export function heuFor(usage: EngineUsage): number {
  return Math.max(1, Math.ceil(billedTokens(usage) / 1000));
}

export function billedTokens(usage: EngineUsage): number {
  return usage.inputTokens + usage.outputTokens + (usage.cacheReadInputTokens ?? 0) + (usage.cacheCreationInputTokens ?? 0);
}

/** The HEU a token plan reserves: the worst case, and the least the request can run with. */
export function reservationFor(plan: TokenPlan): { wanted: number; least: number } {
  const wanted = Math.max(1, Math.ceil(plan.wanted / 1000));
  return { wanted, least: Math.min(wanted, Math.max(1, Math.ceil(plan.least / 1000))) };
}

/** The tokens an item may bill for the HEU reserved for it. */
export const tokensFor = (heu: number): number => heu * 1000;

/**
 * Tokens in text, for reservations: about 2.5 characters a token on current Claude models (their newer tokenizer
 * counts about 30% more tokens than older ones; the token-counting page is not in the stored docs corpus, so the
 * estimate leans high: a reservation too large is settled down, one too small could not be).
 */
export const claudeTokensIn = (chars: number): number => Math.ceil(chars / 2.5);

/**
 * HEU for reading a file offline (README, "Metering"): 1 per started 10 PDF pages read from their text layer, and 1
 * per page or image read by OCR. Text costs nothing to read.
 */
export function readingHeuFor(read: { textLayerPages: number; ocrPages: number }): number {
  return Math.ceil(read.textLayerPages / 10) + read.ocrPages;
}

/** The most reading a file of this many pages can cost (every page by OCR): what is reserved before it is read. */
export const readingHeuBound = (pages: number): number => pages;
