import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}

/** Prices by model id. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * OpenAI's published prices for the models most used for extraction (https://platform.openai.com/docs/pricing, as of
 * mid-2026; standard tier, no batch or cache discount). Prices change: MODEL_PRICES_FILE overrides any row and adds
 * others. A model in no row (a self-hosted one: Ollama, vLLM, llama.cpp, LM Studio) costs 0.
 */
export const BUILT_IN_PRICES: PriceTable = {
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
};

const priceFile = z.record(z.string().min(1), z.object({ input: z.number().min(0), output: z.number().min(0) }).strict());

/** The built-in table with the operator's file (MODEL_PRICES_FILE) over it; a file that cannot be used is named. */
export function loadPrices(file: string | undefined): PriceTable {
  if (!file) return BUILT_IN_PRICES;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`MODEL_PRICES_FILE ${file}: cannot read it as JSON (${(e as Error).message})`);
  }
  const parsed = priceFile.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`MODEL_PRICES_FILE ${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')} (expected {"model-id": {"input": dollars per million tokens, "output": ...}})`);
  }
  return { ...BUILT_IN_PRICES, ...parsed.data };
}

/**
 * The price of a model: its own row, else the row of the longest id it extends with a dash (a dated snapshot such as
 * `gpt-4.1-mini-2025-04-14` reads as `gpt-4.1-mini`), else 0 (a model this table does not price, as self-hosted ones).
 */
export function priceOf(table: PriceTable, model: string): ModelPrice & { known: boolean } {
  const own = table[model];
  if (own) return { ...own, known: true };
  const family = Object.keys(table).filter((id) => model.startsWith(`${id}-`)).sort((a, b) => b.length - a.length)[0];
  return family ? { ...table[family]!, known: true } : { input: 0, output: 0, known: false };
}

/** Dollars for a usage at a price. */
export const dollarsAt = (price: ModelPrice, usage: { inputTokens: number; outputTokens: number }): number =>
  (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
