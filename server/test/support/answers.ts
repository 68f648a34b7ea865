// Answers that meet a schema, for the fake model to return.
type Schema = Record<string, unknown>;

/** The "nothing found" answer of a schema: nulls, empty lists, nested objects filled the same way. */
export function emptyAnswer(schema: Schema): unknown {
  if (Array.isArray(schema.anyOf)) {
    const options = schema.anyOf as Schema[];
    if (options.some((o) => o.type === 'null')) return null;
    return emptyAnswer(options[0]!);
  }
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      // A member left out of `required` is left out of the answer (a structured-output schema's way of saying null).
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const required = Array.isArray(schema.required) ? new Set(schema.required as string[]) : null;
      return Object.fromEntries(Object.entries(props).filter(([k]) => !required || required.has(k)).map(([k, v]) => [k, emptyAnswer(v)]));
    }
    case 'array': return [];
    case 'string': return '';
    case 'number': case 'integer': return 0;
    case 'boolean': return false;
    default: return null;
  }
}
