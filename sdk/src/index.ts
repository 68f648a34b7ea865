export { DocExtract, type ClientOptions, type CallOptions, type CreatedKey, type DocumentInput, type Evidence, type Extraction, type ExtractOptions, type KeyExtractInput, type ReplayedKey, type Usage, type WithheldValue,
  type RenewalQuery, type Classification, type AutoExtraction, type AutoPart, type ClassifyOptions, type AutoOptions, type ExtractionKind, type RenewalUpdate, type StoredDocument, type VendorRenewal, type VendorRenewalDetail, type VendorRenewalList } from './client.js';
export { mediaTypeOf, type FileInput, type FileBytes, type FileMediaType } from './files.js';
export { DocExtractError, PlanLimitExceededError, RateLimitError, InvalidRequestError, AuthenticationError, type ErrorCode } from './errors.js';
export type { components, paths, operations } from './contract.js';
