import OpenAI from 'openai';

interface Logger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export type AccessOutcome = 'ok' | 'key_refused' | 'forbidden' | 'unknown_model' | 'unreachable';

const CHECK_TIMEOUT_MS = 10_000;

/**
 * The key and the model checked once at start with the Models API's "Retrieve model" (`GET /models/{model}`,
 * https://platform.openai.com/docs/api-reference/models/retrieve), which bills nothing; vLLM, Ollama, llama.cpp and
 * LM Studio serve `/v1/models` too. A wrong key, a model the server does not serve or a server that is down is named
 * in the log when the service starts, not discovered by the first caller as a 502. It never stops the service and
 * never logs the key.
 */
export async function checkOpenAIAccess(settings: { apiKey: string | undefined; baseUrl: string }, model: string, log: Logger): Promise<AccessOutcome> {
  const client = new OpenAI({
    apiKey: settings.apiKey ?? 'none',
    ...(settings.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
    baseURL: settings.baseUrl, organization: null, project: null, maxRetries: 0, timeout: CHECK_TIMEOUT_MS,
  });
  const server = new URL(settings.baseUrl).host;
  try {
    const info = await client.models.retrieve(model);
    log.info({ provider: 'openai', server, model, ownedBy: info.owned_by ?? null }, `model server ${server}: ${settings.apiKey ? 'OPENAI_API_KEY accepted, ' : ''}model ${model} available`);
    return 'ok';
  } catch (e) {
    if (!(e instanceof OpenAI.APIError) || e.status === undefined) {
      log.warn({ provider: 'openai', server, model, error: e instanceof Error ? e.name : typeof e }, `model server ${server} not reachable at start (is it running? check OPENAI_BASE_URL): the model is checked again by the first extraction`);
      return 'unreachable';
    }
    const fields = { provider: 'openai', server, model, status: e.status, errorType: e.type ?? null, errorCode: e.code ?? null, message: ((e.error as { message?: string } | undefined)?.message ?? '').slice(0, 300), providerRequestId: e.requestID ?? null };
    if (e.status === 401) {
      log.error(fields, `model server ${server} refused OPENAI_API_KEY (401): set a valid key; every extraction fails (502 upstream_rejected) until then`);
      return 'key_refused';
    }
    if (e.status === 403) {
      log.error(fields, `model server ${server}: OPENAI_API_KEY may not use ${model} (403)`);
      return 'forbidden';
    }
    if (e.status === 404) {
      log.error(fields, `model server ${server} does not serve the model ${model} (404): fix OPENAI_MODEL (or pull or load the model on the server)`);
      return 'unknown_model';
    }
    log.warn(fields, `model server ${server} failed the start-up check: the model is checked again by the first extraction`);
    return 'unreachable';
  }
}
