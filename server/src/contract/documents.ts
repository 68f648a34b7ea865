import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The compiled contract, read once: served byte for byte and used for validation and routing. */
export const OPENAPI_YAML_PATH = fileURLToPath(new URL('../../../generated/openapi.yaml', import.meta.url));
export const OPENAPI_JSON_PATH = fileURLToPath(new URL('../../../generated/openapi.json', import.meta.url));

export const openapiJsonBytes: Buffer = readFileSync(OPENAPI_JSON_PATH);
export const openapiYamlBytes: Buffer = readFileSync(OPENAPI_YAML_PATH);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OpenApiDocument = { paths: Record<string, Record<string, any>>; components: Record<string, any> };
export const openapiDocument: OpenApiDocument = JSON.parse(openapiJsonBytes.toString('utf8'));
