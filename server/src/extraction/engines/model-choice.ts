import type { DocumentClassifier } from '../../classification/classifier.js';
import { ApiError } from '../../http/api-error.js';
import type { EngineAnswer, EngineInput, ExtractionEngine, TokenPlan, FileFacts } from './engine.js';

/**
 * The models a server offers, each its own engine: a request's `model` (one of them), else its route's default, else
 * the server's. Refusing any other model is done before anything is reserved (`assertModel`).
 */
export class ModelChoice implements ExtractionEngine {
  readonly name: ExtractionEngine['name'];

  constructor(
    private readonly engines: ReadonlyMap<string, ExtractionEngine>,
    readonly defaultModel: string,
    private readonly routeModels: Readonly<Record<string, string>> = {},
  ) {
    const first = engines.get(defaultModel);
    if (!first) throw new Error(`no engine for the default model ${defaultModel}`);
    this.name = first.name;
  }

  /** The models a request may name. */
  get models(): string[] {
    return [...this.engines.keys()];
  }

  /**
   * The engine that serves a request on `route` that asked for `model` (or none): 400 invalid_request for a model
   * this server does not offer, before anything is reserved.
   */
  engineFor(route: string, model: string | undefined): ExtractionEngine {
    const engine = this.engines.get(model ?? this.routeModels[route] ?? this.defaultModel);
    if (engine) return engine;
    throw unavailableModel(model ?? '', this.models);
  }

  /** The engine for a request to `engine`: a ModelChoice chooses; any other engine serves only requests naming none. */
  static resolve(engine: ExtractionEngine, route: string, model: string | undefined): ExtractionEngine {
    if (engine instanceof ModelChoice) return engine.engineFor(route, model);
    if (model !== undefined) throw unavailableModel(model, []);
    return engine;
  }

  /** As an engine of its own: the server's default model. */
  plan(input: Parameters<ExtractionEngine['plan']>[0]): TokenPlan {
    return this.engineFor('', undefined).plan(input);
  }

  readsNatively(file: FileFacts): boolean {
    return this.engineFor('', undefined).readsNatively?.(file) ?? false;
  }

  extract(input: EngineInput): Promise<EngineAnswer> {
    return this.engineFor('', undefined).extract(input);
  }

  classifier(): DocumentClassifier {
    return this.engineFor('', undefined).classifier();
  }
}

function unavailableModel(model: string, offered: string[]): ApiError {
  const list = offered.length ? offered.join(', ') : 'no choice of model';
  return new ApiError('invalid_request', `The model ${model} is not available here; this server offers ${list}.`, {
    errors: [{ path: '/body/model', message: `must be one of ${list}` }],
  });
}
