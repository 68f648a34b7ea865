import Anthropic from '@anthropic-ai/sdk';
import type { Logger } from 'pino';

/** What the start-up check found for one model. */
export type AccessOutcome = 'ok' | 'key_refused' | 'forbidden' | 'billing' | 'unknown_model' | 'unreachable';

export interface AccessSettings {
  apiKey: string;
  baseUrl: string | undefined;
}

/** The check does not hold the start: it runs beside it, and gives up after this long. */
const CHECK_TIMEOUT_MS = 10_000;

/**
 * Checks ANTHROPIC_API_KEY and each configured model once at start, with the cheapest documented call: the Models
 * API's "Get a Model" (`GET /v1/models/{model_id}`, https://platform.claude.com/docs/en/api/models/retrieve), which
 * reads nothing and bills nothing. A wrong key is then named in the log when the service starts, not discovered by the
 * first caller as a 502. It never stops the service (the provider may be briefly unreachable) and never logs the key:
 * the log line has the status, the provider's error type and message, and its request id.
 */
export async function checkAnthropicAccess(settings: AccessSettings, models: string[], log: Logger): Promise<Record<string, AccessOutcome>> {
  const client = new Anthropic({ apiKey: settings.apiKey, baseURL: settings.baseUrl, maxRetries: 0, timeout: CHECK_TIMEOUT_MS });
  const outcomes: Record<string, AccessOutcome> = {};
  for (const model of models) {
    try {
      const info = await client.models.retrieve(model);
      outcomes[model] = 'ok';
      log.info({ provider: 'anthropic', model, displayName: info.display_name }, 'model provider: ANTHROPIC_API_KEY accepted, model available');
    } catch (e) {
      outcomes[model] = describe(e, model, log);
      // A key refused for one model is refused for all: say it once.
      if (outcomes[model] === 'key_refused' || outcomes[model] === 'billing') {
        for (const other of models) outcomes[other] ??= outcomes[model]!;
        break;
      }
    }
  }
  return outcomes;
}

function describe(e: unknown, model: string, log: Logger): AccessOutcome {
  if (!(e instanceof Anthropic.APIError) || e.status === undefined) {
    log.warn({ provider: 'anthropic', model, error: e instanceof Error ? e.name : typeof e }, 'model provider not reachable at start: the key and model are checked again by the first extraction');
    return 'unreachable';
  }
  const fields = { provider: 'anthropic', model, status: e.status, errorType: e.type ?? null, message: (e.apiMessage ?? '').slice(0, 300), providerRequestId: e.requestID ?? null };
  if (e.status === 401) {
    log.error(fields, 'model provider refused ANTHROPIC_API_KEY (401 authentication_error): set a valid key; every extraction fails (502 upstream_rejected) until then');
    return 'key_refused';
  }
  if (e.status === 402) {
    log.error(fields, 'model provider billing error (402): check the payment details of the Anthropic account of ANTHROPIC_API_KEY; extractions fail (503) until then');
    return 'billing';
  }
  if (e.status === 403) {
    log.error(fields, `model provider: ANTHROPIC_API_KEY may not use ${model} (403 permission_error)`);
    return 'forbidden';
  }
  if (e.status === 404) {
    log.error(fields, `model provider does not know the model ${model} (404): fix ANTHROPIC_MODEL, ANTHROPIC_ALLOWED_MODELS or ANTHROPIC_ROUTE_MODELS`);
    return 'unknown_model';
  }
  log.warn(fields, 'model provider failed the start-up check: the key and model are checked again by the first extraction');
  return 'unreachable';
}
