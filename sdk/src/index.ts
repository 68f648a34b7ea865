export { DocExtract, type ClientOptions, type CallOptions, type CreatedKey, type DocumentInput, type Evidence, type Extraction, type ExtractOptions, type KeyExtractInput, type ReplayedKey, type Usage, type WithheldValue,
  type RenewalQuery, type Classification, type AutoExtraction, type AutoPart, type ClassifyOptions, type AutoOptions, type ExtractionKind, type RenewalUpdate, type StoredDocument, type VendorRenewal, type VendorRenewalDetail, type VendorRenewalList,
  type Job, type JobOf, type JobRoute, type JobStatus, type JobResultOf, type JobRequest, type JobBatchRequest, type JobQuery, type WaitOptions } from './client.js';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookHeaders } from './webhooks.js';
export { mediaTypeOf, type FileInput, type FileBytes, type FileMediaType } from './files.js';
export { DocExtractError, PlanLimitExceededError, RateLimitError, InvalidRequestError, AuthenticationError, type ErrorCode } from './errors.js';
export type { components, paths, operations } from './contract.js';
