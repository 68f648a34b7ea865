import type { components } from './contract.js';

type Kind = components['schemas']['ExtractionKind'];

/**
 * Words that mark each kind of document, with a weight. A cheap classifier for a mixed folder (`docextract batch
 * --kind auto`): it reads the first 3,000 characters, counts each kind's marks, and picks the kind with most; the
 * choice is reported per file, so a wrong guess is visible and the file can be sent again with its kind.
 */
const MARKS: Record<Kind, Array<[RegExp, number]>> = {
  invoice: [[/\binvoice\b/i, 3], [/\bbill(?:ed)? to\b/i, 2], [/\bdue date\b/i, 2], [/\b(?:vat|tax) (?:no|id|number)\b/i, 1], [/\bsubtotal\b/i, 1], [/\bfactura|rechnung|fattura|facture\b/i, 3]],
  receipt: [[/\breceipt\b/i, 3], [/\b(?:cash|change|visa|mastercard|card)\b/i, 1], [/\bthank you\b/i, 1], [/\b\d{1,2}:\d{2}\b/, 1], [/\btotal\b/i, 1], [/\btip\b/i, 1]],
  contract: [[/\bagreement\b/i, 3], [/\bparties\b/i, 2], [/\bgoverned by the laws?\b/i, 3], [/\bshall\b/i, 1], [/\bterminat/i, 1], [/\bwhereas\b/i, 2]],
  'job-posting': [[/\b(?:requirements|responsibilities|qualifications)\b/i, 2], [/\b(?:salary|per hour|per year|a year)\b/i, 2], [/\bapply\b/i, 2], [/\b(?:full[- ]time|part[- ]time|remote|hybrid)\b/i, 2], [/\bwe(?:'re| are) (?:hiring|looking)\b/i, 3]],
  'meeting-notes': [[/\battendees?\b/i, 3], [/\bagenda\b/i, 2], [/\baction items?\b/i, 3], [/\bminutes\b/i, 2], [/\bdecisions?\b/i, 1]],
  renewal: [[/\brenew(?:al|s|ed)?\b/i, 2], [/\border form\b/i, 3], [/\bsubscription\b/i, 2], [/\bnotice\b/i, 1], [/\bseats?\b/i, 1], [/\bauto[- ]?renew/i, 3]],
};

/** The kind of document a text most looks like (`invoice` when nothing marks it). */
export function guessKind(text: string): Kind {
  const head = text.slice(0, 3000);
  let best: Kind = 'invoice';
  let bestScore = 0;
  for (const [kind, marks] of Object.entries(MARKS) as Array<[Kind, Array<[RegExp, number]>]>) {
    const score = marks.reduce((sum, [re, weight]) => sum + (re.test(head) ? weight : 0), 0);
    if (score > bestScore) {
      best = kind;
      bestScore = score;
    }
  }
  return best;
}
