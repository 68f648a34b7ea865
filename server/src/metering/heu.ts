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
