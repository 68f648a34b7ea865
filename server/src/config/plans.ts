import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { components } from '../../../generated/openapi.js';

export type PlanName = components['schemas']['Plan'];

const planLimits = z.object({
  heuPerMonth: z.number().int().positive(),
  requestsPerMinute: z.number().int().positive(),
}).strict();
export type PlanLimits = z.infer<typeof planLimits>;
export type PlanTable = Record<PlanName, PlanLimits>;

const planTable = z.object({ free: planLimits, starter: planLimits }).strict();

/** The plans the business sells. `PLANS_FILE` may override them (same shape). */
export const DEFAULT_PLANS: PlanTable = {
  free: { heuPerMonth: 100, requestsPerMinute: 10 },
  starter: { heuPerMonth: 10_000, requestsPerMinute: 120 },
};

export function loadPlans(file: string | undefined): PlanTable {
  if (!file) return DEFAULT_PLANS;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`PLANS_FILE ${file}: cannot read it as JSON (${(e as Error).message})`);
  }
  const parsed = planTable.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`PLANS_FILE ${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}
