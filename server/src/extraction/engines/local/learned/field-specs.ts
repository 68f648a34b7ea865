// The fixed routes' fields the ranker answers when the rules do not: each field's key, the kind of candidate it takes
// and the words of its name. scripts/fit-ranker.ts learns from the same table that the routes read.
import type { CandidateKind } from './candidates.js';

export interface RankedField { kind: CandidateKind; words: readonly string[] }

export const RANKED_FIELDS = {
  'invoice:/invoiceNumber': { kind: 'id', words: ['invoice', 'number'] },
  'invoice:/issueDate': { kind: 'date', words: ['issue', 'date'] },
  'invoice:/dueDate': { kind: 'date', words: ['due', 'date'] },
  'invoice:/subtotal': { kind: 'money', words: ['subtotal'] },
  'invoice:/tax': { kind: 'money', words: ['tax'] },
  'invoice:/total': { kind: 'money', words: ['total'] },
  'receipt:/date': { kind: 'date', words: ['date'] },
  'receipt:/subtotal': { kind: 'money', words: ['subtotal'] },
  'receipt:/tax': { kind: 'money', words: ['tax'] },
  'receipt:/total': { kind: 'money', words: ['total'] },
  'contract:/effectiveDate': { kind: 'date', words: ['effective', 'date'] },
  'contract:/expirationDate': { kind: 'date', words: ['expiration', 'date'] },
  'contract:/totalValue': { kind: 'money', words: ['total', 'value'] },
  'job-posting:/postedDate': { kind: 'date', words: ['posted', 'date'] },
  'meeting-notes:/date': { kind: 'date', words: ['date'] },
  'renewal:/billingAmount': { kind: 'money', words: ['billing', 'amount'] },
  'renewal:/seatCount': { kind: 'count', words: ['seat', 'count'] },
  'renewal:/contractStartDate': { kind: 'date', words: ['contract', 'start', 'date'] },
  'renewal:/contractEndDate': { kind: 'date', words: ['contract', 'end', 'date'] },
  'renewal:/renewalDate': { kind: 'date', words: ['renewal', 'date'] },
  'renewal:/noticePeriodDays': { kind: 'count', words: ['notice', 'period', 'days'] },
  'renewal:/paymentTermsDays': { kind: 'count', words: ['payment', 'terms', 'days'] },
} as const satisfies Record<string, RankedField>;

export type RankedFieldKey = keyof typeof RANKED_FIELDS;
