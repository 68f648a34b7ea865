import { openapiDocument } from './documents.js';

export type SecurityScheme = 'ApiKeyAuth' | 'BearerAuth' | 'CalendarFeedAuth';

export interface ContractRoute {
  method: string;
  template: string;
  operationId: string;
  /** The schemes any one of which admits the caller; empty for public routes. */
  security: SecurityScheme[];
}

interface PathEntry {
  template: string;
  pattern: RegExp;
  operations: Map<string, ContractRoute>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

const entries: PathEntry[] = Object.entries(openapiDocument.paths).map(([template, item]) => {
  const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
  const operations = new Map<string, ContractRoute>();
  for (const method of METHODS) {
    const op = item[method];
    if (!op) continue;
    const requirements: Record<string, unknown>[] = op.security ?? [];
    const security = requirements.flatMap((r) => Object.keys(r)) as SecurityScheme[];
    operations.set(method.toUpperCase(), { method: method.toUpperCase(), template, operationId: op.operationId, security });
  }
  return { template, pattern, operations };
})
  // A literal segment wins over a parameter: /v1/renewals/calendar.ics is not /v1/renewals/{id}.
  .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));

export type RouteLookup = { kind: 'found'; route: ContractRoute } | { kind: 'method_not_allowed'; allow: string[] } | { kind: 'not_found' };

/** Finds the contract's operation for a request, or says why there is none (404, or 405 with `Allow`). */
export function lookupRoute(method: string, path: string): RouteLookup {
  const entry = entries.find((e) => e.pattern.test(path));
  if (!entry) return { kind: 'not_found' };
  const m = method.toUpperCase() === 'HEAD' && !entry.operations.has('HEAD') ? 'GET' : method.toUpperCase();
  const route = entry.operations.get(m);
  if (route) return { kind: 'found', route };
  const allow = [...entry.operations.keys()];
  if (allow.includes('GET')) allow.push('HEAD');
  return { kind: 'method_not_allowed', allow };
}
