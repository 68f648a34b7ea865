import type { DocumentClassifier } from '../../../classification/classifier.js';
import { CHARS_PER_PAGE } from '../../../documents/limits.js';
import { ApiError } from '../../../http/api-error.js';
import { assembleEvidence } from '../../evidence/assemble.js';
import { calibrationFamily } from '../../evidence/thresholds.js';
import type { FoundEvidenceMap } from '../../evidence/found.js';
import { checkAnswer } from '../../schemas/answer-checker.js';
import type { EngineAnswer, EngineInput, ExtractionEngine, FileFacts, PlanInput, TokenPlan } from '../engine.js';
import { askSchema } from './ask-schema.js';
import { CascadeClassifier } from './cascade-classifier.js';
import { memberOfPointer, memberPointer, membersOf, vouches, WHOLE } from './members.js';

/**
 * The offline engine first, a model for the rest. The offline engine answers the document; each top-level member of
 * its answer whose values all have a calibrated confidence of at least `keep` (members.ts) is kept, and the model is
 * asked, in one call, for the other members only, with the offline values as hints it may overrule (ask-schema.ts).
 * A document whose every member the offline engine vouches for costs no model call.
 *
 * The model is any ExtractionEngine (Claude, an OpenAI-compatible server): the cascade calls its `extract` with a
 * narrower schema and reads its `{data, found}` like any engine's. It takes the model engine's name, so that the
 * service treats the answer as that engine's (its default threshold, its classifier); `answeredBy` tells, member by
 * member, which engine answered, for the evidence (`engine`) and for each value's calibration.
 */
export class CascadeEngine implements ExtractionEngine {
  readonly name: ExtractionEngine['name'];
  private classifying: DocumentClassifier | undefined;

  constructor(readonly offline: ExtractionEngine, readonly model: ExtractionEngine, readonly keep: number) {
    this.name = model.name;
  }

  /**
   * What the model call may cost (its whole-schema plan bounds the narrower call), or what the offline engine may cost
   * when that is more: the reservation covers either outcome. A file the model reads itself is read offline as text
   * too, at its pages' most characters.
   */
  plan(input: PlanInput): TokenPlan {
    const model = this.model.plan(input);
    const textChars = input.file ? input.file.pages * CHARS_PER_PAGE : input.textChars;
    const offline = this.offline.plan({ task: input.task, schema: input.schema, text: input.text, ...(textChars !== undefined ? { textChars } : {}) });
    return { wanted: Math.max(model.wanted, offline.wanted), least: Math.max(model.least, offline.least) };
  }

  /** The model's own reading of files (Claude's PDFs and images): the offline engine reads the text the service read. */
  readsNatively(file: FileFacts): boolean {
    return this.model.readsNatively?.(file) ?? false;
  }

  /** The offline classifier first, the model's when the offline one is not sure enough (cascade-classifier.ts). */
  classifier(): DocumentClassifier {
    this.classifying ??= new CascadeClassifier(this.offline.classifier(), this.model.classifier(), this.keep);
    return this.classifying;
  }

  async extract(input: EngineInput): Promise<EngineAnswer> {
    const { file: _file, ...textOnly } = input;
    const offline = await this.offline.extract(textOnly);
    const kind = input.task.kind;
    const { scored } = assembleEvidence({ kind, engine: calibrationFamily(this.offline.name), data: offline.data, schema: input.schema, found: offline.found ?? {}, text: input.text, minConfidence: 0 });
    const members = membersOf(input.schema);
    const whole = members.length === 1 && members[0] === WHOLE;
    const data = offline.data as Record<string, unknown> | null;
    const asked = members.filter((m) => {
      const pointer = memberPointer(m);
      const value = whole ? data : data?.[m];
      return !vouches(value, scored.filter((s) => memberOfPointer(s.pointer, whole) === pointer), this.keep, kind === 'renewal');
    });
    const answeredBy = Object.fromEntries(members.map((m) => [memberPointer(m), asked.includes(m) ? this.model.name : this.offline.name]));
    // Every value vouched for: the offline answer, at the offline engine's cost, and no model call.
    if (asked.length === 0) return { ...offline, answeredBy };

    const answer = await this.model.extract({ ...input, schema: askSchema(input.schema, asked, offline.data) });
    const merged = whole ? answer.data : merge(members, asked, data ?? {}, answer.data as Record<string, unknown>);
    const found = pick(offline.found ?? {}, (p) => answeredBy[memberOfPointer(p, whole)] === this.offline.name);
    Object.assign(found, pick(answer.found ?? {}, (p) => answeredBy[memberOfPointer(p, whole)] === this.model.name));
    // Each part met its schema; the whole must meet the answer's (a caller's schema may tie members together).
    const check = checkAnswer(input.schema, merged);
    if (!check.ok) throw new ApiError('upstream_error', 'The model answered fields that do not fit with those the offline engine found.');
    // The model was called: its usage and its name (the offline pass costs nothing more, as reading text does not).
    return { data: merged, found, model: answer.model, usage: answer.usage, answeredBy };
  }
}

/** The offline members kept and the model's asked members, in the schema's order (any other member of the offline answer after). */
function merge(members: string[], asked: string[], offline: Record<string, unknown>, model: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of members) {
    const value = asked.includes(m) ? model[m] : offline[m];
    if (value !== undefined) out[m] = value;
  }
  for (const [k, v] of Object.entries(offline)) if (!(k in out) && !members.includes(k)) out[k] = v;
  return out;
}

function pick(found: FoundEvidenceMap, keep: (pointer: string) => boolean): FoundEvidenceMap {
  return Object.fromEntries(Object.entries(found).filter(([p]) => keep(p)));
}
