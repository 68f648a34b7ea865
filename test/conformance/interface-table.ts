// The interface document (../shared/interface.md), one row per field, written by reading it and nothing else.
// `path` is where the field sits in the answer's JSON body: `a.b` is a member, `a[]` every element of an array.
// `type` is the interface's type; `nullable` marks a field whose absence the product decisions answer as `null`
// (an extracted value the document does not state, or a timestamp of something that has not happened).

export type FieldType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'uuid' | 'url';
export type Credential = 'x-api-key' | 'bearer';

export interface Row {
  /** `METHOD /path` as the interface writes it. */
  route: string;
  path: string;
  type: FieldType;
  credential: Credential;
  nullable?: boolean;
}

const extract = (name: string) => `POST /v1/extract/${name}`;
const KEY: Credential = 'x-api-key';
const BEARER: Credential = 'bearer';

/** The envelope of every single-call route other than renewal: data, model, usage.{inputTokens, outputTokens}. */
const envelope = (route: string): Row[] => [
  { route, path: 'data', type: 'object', credential: KEY },
  { route, path: 'model', type: 'string', credential: KEY },
  { route, path: 'usage.inputTokens', type: 'number', credential: KEY },
  { route, path: 'usage.outputTokens', type: 'number', credential: KEY },
];

const fields = (route: string, list: Array<[string, FieldType]>): Row[] =>
  list.map(([path, type]) => ({ route, path: `data.${path}`, type, credential: KEY, nullable: true }));

const lineItem = (at: string): Array<[string, FieldType]> => [
  [`${at}`, 'array'], [`${at}[].description`, 'string'], [`${at}[].quantity`, 'number'], [`${at}[].unitPrice`, 'number'], [`${at}[].amount`, 'number'],
];

/** Renewal `data` members other than documentKindGuess are {value, sourceQuote}. */
const grounded = (route: string, list: Array<[string, FieldType]>): Row[] => list.flatMap(([name, type]) => [
  { route, path: `data.${name}`, type: 'object' as FieldType, credential: KEY },
  { route, path: `data.${name}.value`, type, credential: KEY, nullable: true },
  { route, path: `data.${name}.sourceQuote`, type: 'string' as FieldType, credential: KEY, nullable: true },
]);

const RENEWAL = extract('renewal');
const BATCH = extract('batch');

export const INTERFACE_ROWS: Row[] = [
  ...envelope(extract('job-posting')),
  ...fields(extract('job-posting'), [
    ['title', 'string'], ['company', 'string'], ['location', 'string'], ['employmentType', 'string'],
    ['salaryRange.min', 'number'], ['salaryRange.max', 'number'], ['salaryRange.currency', 'string'], ['salaryRange.period', 'string'],
    ['requirements', 'array'], ['requirements[]', 'string'], ['responsibilities', 'array'], ['responsibilities[]', 'string'],
    ['benefits', 'array'], ['benefits[]', 'string'], ['remote', 'boolean'], ['postedDate', 'string'],
  ]),
  ...envelope(extract('meeting-notes')),
  ...fields(extract('meeting-notes'), [
    ['title', 'string'], ['date', 'string'], ['attendees', 'array'], ['attendees[]', 'string'], ['topicsDiscussed', 'array'],
    ['topicsDiscussed[]', 'string'], ['decisions', 'array'], ['decisions[]', 'string'], ['actionItems', 'array'],
    ['actionItems[].owner', 'string'], ['actionItems[].task', 'string'], ['actionItems[].dueDate', 'string'],
    ['openQuestions', 'array'], ['openQuestions[]', 'string'],
  ]),
  ...envelope(extract('invoice')),
  ...fields(extract('invoice'), [
    ['invoiceNumber', 'string'], ['issueDate', 'string'], ['dueDate', 'string'], ['vendor', 'object'], ['vendor.name', 'string'],
    ['vendor.address', 'string'], ['vendor.taxId', 'string'], ['customer', 'object'], ['customer.name', 'string'], ['customer.address', 'string'],
    ...lineItem('lineItems'), ['subtotal', 'number'], ['tax', 'number'], ['total', 'number'], ['currency', 'string'],
  ]),
  ...envelope(extract('contract')),
  ...fields(extract('contract'), [
    ['title', 'string'], ['parties', 'array'], ['parties[].name', 'string'], ['parties[].role', 'string'], ['effectiveDate', 'string'],
    ['expirationDate', 'string'], ['governingLaw', 'string'], ['totalValue', 'number'], ['currency', 'string'],
    ['terminationClauses', 'array'], ['terminationClauses[]', 'string'], ['renewalClauses', 'array'], ['renewalClauses[]', 'string'],
    ['keyObligations', 'array'], ['keyObligations[]', 'string'],
  ]),
  ...envelope(extract('receipt')),
  ...fields(extract('receipt'), [
    ['merchant', 'string'], ['address', 'string'], ['date', 'string'], ['time', 'string'], ...lineItem('items'), ['subtotal', 'number'],
    ['tax', 'number'], ['tip', 'number'], ['total', 'number'], ['currency', 'string'], ['paymentMethod', 'string'],
  ]),
  ...envelope(extract('custom')),

  // Renewal extraction result: top-level fields, data, the stored document record.
  { route: RENEWAL, path: 'document_id', type: 'uuid', credential: KEY },
  { route: RENEWAL, path: 'vendor_renewal_id', type: 'uuid', credential: KEY },
  { route: RENEWAL, path: 'overall_status', type: 'string', credential: KEY },
  { route: RENEWAL, path: 'data', type: 'object', credential: KEY },
  { route: RENEWAL, path: 'model', type: 'string', credential: KEY },
  { route: RENEWAL, path: 'usage', type: 'object', credential: KEY },
  { route: RENEWAL, path: 'usage.inputTokens', type: 'number', credential: KEY },
  { route: RENEWAL, path: 'usage.outputTokens', type: 'number', credential: KEY },
  { route: RENEWAL, path: 'document', type: 'object', credential: KEY },
  { route: RENEWAL, path: 'data.documentKindGuess', type: 'string', credential: KEY },
  ...grounded(RENEWAL, [
    ['vendorName', 'string'], ['product', 'string'], ['billingAmount', 'number'], ['currency', 'string'], ['billingFrequency', 'string'],
    ['seatCount', 'number'], ['contractStartDate', 'string'], ['contractEndDate', 'string'], ['renewalDate', 'string'],
    ['noticePeriodDays', 'number'], ['noticePeriodText', 'string'], ['autoRenewalLanguage', 'string'], ['autoRenewal', 'boolean'],
    ['committedSpend', 'number'], ['paymentTermsDays', 'number'], ['priceEscalationText', 'string'],
  ]),
  { route: RENEWAL, path: 'document.id', type: 'uuid', credential: KEY },
  { route: RENEWAL, path: 'document.vendorRenewalId', type: 'uuid', credential: KEY },
  { route: RENEWAL, path: 'document.filename', type: 'string', credential: KEY },
  { route: RENEWAL, path: 'document.mediaType', type: 'string', credential: KEY },
  { route: RENEWAL, path: 'document.byteSize', type: 'number', credential: KEY },
  { route: RENEWAL, path: 'document.documentKindGuess', type: 'string', credential: KEY },
  { route: RENEWAL, path: 'document.extraction', type: 'object', credential: KEY },
  { route: RENEWAL, path: 'document.model', type: 'string', credential: KEY },
  { route: RENEWAL, path: 'document.createdAt', type: 'string', credential: KEY },

  // Batch result envelope (no top-level model).
  { route: BATCH, path: 'results', type: 'array', credential: KEY },
  { route: BATCH, path: 'results[].id', type: 'string', credential: KEY },
  { route: BATCH, path: 'results[].ok', type: 'boolean', credential: KEY },
  { route: BATCH, path: 'results[ok].data', type: 'object', credential: KEY },
  { route: BATCH, path: 'results[failed].error', type: 'object', credential: KEY },
  { route: BATCH, path: 'results[failed].error.code', type: 'string', credential: KEY },
  { route: BATCH, path: 'results[failed].error.message', type: 'string', credential: KEY },
  { route: BATCH, path: 'usage', type: 'object', credential: KEY },
  { route: BATCH, path: 'usage.inputTokens', type: 'number', credential: KEY },
  { route: BATCH, path: 'usage.outputTokens', type: 'number', credential: KEY },

  // Keys.
  { route: 'POST /v1/keys', path: 'key', type: 'string', credential: BEARER },
  { route: 'POST /v1/keys', path: 'prefix', type: 'string', credential: BEARER },
  { route: 'POST /v1/keys', path: 'id', type: 'uuid', credential: BEARER },
  { route: 'POST /v1/keys', path: 'name', type: 'string', credential: BEARER },
  { route: 'POST /v1/keys', path: 'createdAt', type: 'string', credential: BEARER },
  { route: 'POST /v1/keys', path: 'idempotent', type: 'boolean', credential: BEARER },
  { route: 'GET /v1/keys', path: 'keys', type: 'array', credential: KEY },
  { route: 'GET /v1/keys', path: 'keys[].id', type: 'uuid', credential: KEY },
  { route: 'GET /v1/keys', path: 'keys[].prefix', type: 'string', credential: KEY },
  { route: 'GET /v1/keys', path: 'keys[].name', type: 'string', credential: KEY },
  { route: 'GET /v1/keys', path: 'keys[].lastUsedAt', type: 'string', credential: KEY, nullable: true },
  { route: 'GET /v1/keys', path: 'keys[].createdAt', type: 'string', credential: KEY },
  { route: 'GET /v1/keys', path: 'keys[].revokedAt', type: 'string', credential: KEY, nullable: true },

  // Account summary.
  ...([
    ['plan', 'string'], ['status', 'string'], ['heuUsed', 'number'], ['heuLimit', 'number'], ['activeKeyCount', 'number'],
    ['periodStart', 'string'], ['hasBillingCustomer', 'boolean'],
  ] as Array<[string, FieldType]>).map(([path, type]): Row => ({ route: 'GET /v1/account', path, type, credential: KEY })),
  ...([['currentPeriodEnd', 'string'], ['cancelAt', 'string'], ['priorPlan', 'string'], ['subscriptionEndedAt', 'string']] as Array<[string, FieldType]>)
    .map(([path, type]): Row => ({ route: 'GET /v1/account', path, type, credential: KEY, nullable: true })),

  // Billing.
  { route: 'POST /v1/billing/checkout', path: 'url', type: 'url', credential: BEARER },
];
