// The API's types, generated from the contract (generated/openapi.d.ts); the packed SDK ships a copy.
export type { paths, components, operations } from '../../generated/openapi.js';
