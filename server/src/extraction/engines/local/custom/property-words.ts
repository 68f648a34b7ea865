// What a caller's property is called, in words a document might use as its label.

const STOP = new Set(['the', 'a', 'an', 'of', 'in', 'on', 'and', 'or', 'for', 'to', 'is', 'has', 'as', 'at', 'with', 'yyyy', 'mm', 'dd', 'hh', 'iso', 'one', 'line', 'format', 'e', 'g', 'eg', 'if', 'any', 'its', 'their', 'full', 'value', 'number', 'text', 'string', 'hours', 'this', 'that', 'please', 'kindly', 'your', 'our', 'you', 'will', 'we', 'll', 're', 'nr', 'nbr', 'no']);

/** Description words too general to tie a label to one property on their own (`date` is in every date's description). */
const GENERIC = new Set(['date', 'time', 'amount', 'name', 'code', 'type', 'list', 'id', 'day', 'year', 'month', 'item', 'per', 'total', 'count', 'price', 'cost', 'person', 'who', 'where', 'when', 'what', 'how', 'used', 'given', 'shown', 'stated', 'written', 'printed', 'document']);

/** Label words that mean the same as a property word. */
const SYNONYMS: Record<string, string[]> = {
  date: ['when', 'on', 'dated', 'day'],
  time: ['when', 'at', 'starts', 'start'],
  start: ['starts', 'begins', 'from', 'doors'],
  end: ['ends', 'until', 'finishes'],
  venue: ['where', 'location', 'place', 'address'],
  location: ['where', 'venue', 'place', 'address', 'based', 'point'],
  address: ['location', 'property', 'where', 'street'],
  host: ['hosted', 'organizer', 'organiser', 'organised', 'organized', 'presented', 'by'],
  capacity: ['max', 'maximum', 'seats', 'places', 'spaces'],
  rent: ['price', 'rental', 'month', 'pcm'],
  deposit: ['security', 'bond'],
  available: ['availability', 'move', 'from'],
  phone: ['tel', 'telephone', 'mobile', 'cell', 'call'],
  email: ['mail', 'e-mail'],
  recipient: ['ship', 'deliver', 'consignee', 'to', 'addressee'],
  sender: ['from', 'shipper', 'ship'],
  tracking: ['tracking', 'waybill', 'awb'],
  carrier: ['courier', 'shipped', 'via', 'service'],
  package: ['packages', 'parcels', 'parcel', 'pieces', 'boxes'],
  items: ['contents', 'content', 'lines', 'products'],
  contact: ['contact', 'agent', 'landlord', 'enquiries', 'inquiries'],
  price: ['cost', 'fee', 'amount', 'rate'],
  total: ['amount', 'sum'],
  company: ['employer', 'organisation', 'organization', 'firm'],
  bedroom: ['beds', 'bed', 'bedrooms'],
  quantity: ['qty', 'units', 'pcs', 'count'],
  bathroom: ['baths', 'bath', 'bathrooms'],
  pet: ['pets', 'animals'],
  estimated: ['expected', 'eta', 'est'],
  delivery: ['arrival', 'delivered', 'arrives'],
  ship: ['shipped', 'dispatched', 'dispatch', 'sent'],
  name: ['called', 'title'],
  instructor: ['tutor', 'teacher', 'trainer', 'led', 'taught', 'coach', 'lecturer', 'presenter'],
  topic: ['syllabus', 'agenda', 'curriculum', 'outline', 'modules', 'programme', 'program', 'covers', 'content'],
  session: ['classes', 'lessons', 'weeks', 'meetings'],
  mileage: ['odometer', 'miles', 'km', 'kilometres'],
  feature: ['features', 'extras', 'equipment', 'highlights', 'amenities'],
  ingredient: ['need', 'shopping', 'ingredients'],
  street: ['location', 'address', 'road'],
  step: ['method', 'instructions', 'directions', 'preparation'],
  serving: ['serves', 'portions', 'yield', 'makes'],
  seller: ['contact', 'owner', 'vendor'],
  free: ['tickets', 'admission', 'entry', 'price', 'cost'],
};

const IDENTIFIER_WORDS = new Set(['number', 'no', 'nr', 'num', 'id', 'ref', 'reference', 'code']);
/** `Employee No:`, `PO #`, `Ref.`: a label asking for an identifier. */
const IDENTIFIER_LABEL = /(?:^|[^\p{L}])(?:no|nr|nbr|num|number|id|ref|#)\.?(?:$|[^\p{L}])|#/iu;

export const stem = (w: string) => {
  // British and American spellings read alike (labour/labor, colour/color, favourite/favorite).
  const s = w.length >= 6 ? w.toLowerCase().replace(/(?<=[^aeo])our/g, 'or') : w.toLowerCase();
  if (s.length > 4 && s.endsWith('ies')) return `${s.slice(0, -3)}y`;
  if (s.length > 5 && s.endsWith('ing')) return s.slice(0, -3);
  if (s.length > 4 && s.endsWith('ed')) return s.slice(0, -2);
  if (s.length > 3 && s.endsWith('s') && !s.endsWith('ss')) return s.slice(0, -1);
  return s;
};

/** Words of a property name: `estimatedDelivery` -> estimated, delivery; `is_free` -> free. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w && !['is', 'has', 'num', 'no'].includes(w));
}

export function descriptionWords(description: unknown): string[] {
  if (typeof description !== 'string') return [];
  // `Total price of the stay, excluding city tax`: what a description rules out is no evidence for the property.
  const kept = description.replace(/\b(?:excluding|excludes|excl\.?|except|without|not\s+including|other\s+than|net\s+of)\b[^.;,]*/gi, ' ');
  return kept.toLowerCase().split(/[^\p{L}]+/u).filter((w) => w.length > 2 && !STOP.has(w));
}

export interface Vocabulary {
  /** Stems of the name's words and their synonyms (strong evidence). */
  strong: Set<string>;
  /** Stems of the description's words (weaker evidence). */
  weak: Set<string>;
  nameStems: string[];
  /** The property is an identifier (`employeeNumber`, `orderId`, `taxCode`), so labels saying `No.` or `Ref` fit it. */
  identifier: boolean;
  /** Description stems that are not generic: `arrival` in `Arrival date, YYYY-MM-DD`. */
  specific: Set<string>;
}

export function vocabulary(name: string, description: unknown): Vocabulary {
  const words = nameWords(name);
  const strong = new Set<string>();
  for (const w of words) {
    strong.add(stem(w));
    for (const s of SYNONYMS[stem(w)] ?? SYNONYMS[w] ?? []) strong.add(stem(s));
  }
  const weak = new Set(descriptionWords(description).map(stem));
  const specific = new Set([...weak].filter((w) => !GENERIC.has(w) && !strong.has(w)));
  const identifier = words.some((w) => IDENTIFIER_WORDS.has(w));
  return { strong, weak, specific, nameStems: words.filter((w) => !STOP.has(w)).map(stem), identifier };
}

const wordMatch = (a: string, set: Set<string>) => set.has(a) || [...set].some((b) => b.length >= 3 && a.length >= 3 && (a.startsWith(b) || b.startsWith(a)) && Math.min(a.length, b.length) >= 3 && Math.abs(a.length - b.length) <= 4);

/** How well a label names the property: 0 to 1, weighted toward the name's own words. */
export function labelScore(label: string, v: Vocabulary): number {
  return scoreParts(label, v).score;
}

/** Whether the label names the property by its name or synonyms, not only by its description's words. */
export const namesProperty = (label: string, v: Vocabulary, min: number) => scoreParts(label, v).byName >= min;

/**
 * Whether the label holds one of the property's own words other than a generic one (of its name, or a specific word
 * of its description): `Policy eff` names policyEffectiveDate, `Plate` a registration described as `Licence plate`;
 * a bare `Date` only says it is some date (a sibling may be named by it better).
 */
export function namesByOwnWord(label: string, v: Vocabulary): boolean {
  const own = new Set([...v.nameStems.filter((n) => !GENERIC.has(n)), ...v.specific]);
  return label.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w && !STOP.has(w)).map(stem).some((w) => wordMatch(w, own));
}

/** Scores already computed per property vocabulary: every property looks at every label, and siblings look again. */
const scored = new WeakMap<Vocabulary, Map<string, { score: number; byName: number }>>();

function scoreParts(label: string, v: Vocabulary): { score: number; byName: number } {
  let seen = scored.get(v);
  if (!seen) { seen = new Map(); scored.set(v, seen); }
  let parts = seen.get(label);
  if (!parts) {
    // `Llegada / Arrival`: a label given in two languages (or two names) names what either half names.
    const halves = label.split(/\s+\/\s+/);
    parts = halves.length > 1 ? halves.map((h) => scorePartsUncached(h, v)).reduce((a, b) => (b.score > a.score ? b : a)) : scorePartsUncached(label, v);
    // `Employee No` fits employeeNumber better than employeeName, and `Employee` the other way round.
    if (IDENTIFIER_LABEL.test(label) !== v.identifier) parts = { score: parts.score * 0.85, byName: parts.byName * 0.85 };
    seen.set(label, parts);
  }
  return parts;
}

function scorePartsUncached(label: string, v: Vocabulary): { score: number; byName: number } {
  // A stop word the property's own name uses is a word of the label too (`Line` for lines, `No.` aside).
  const words = expandInitials(label.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w && (!STOP.has(w) || v.nameStems.includes(stem(w)))), v.nameStems).map(stem);
  if (words.length === 0) return { score: 0, byName: 0 };
  let score = 0;
  for (const w of words) score += wordMatch(w, new Set(v.nameStems)) ? 1 : wordMatch(w, v.strong) ? 0.8 : wordMatch(w, v.weak) ? 0.5 : 0;
  // How much of the name the label covers; a synonym of the whole name (`Where` for venue) covers it too.
  const covered = words.some((w) => wordMatch(w, v.strong) && !wordMatch(w, new Set(v.nameStems))) && v.nameStems.length === 1
    ? 1
    : v.nameStems.filter((n) => words.some((w) => wordMatch(w, new Set([n])))).length / Math.max(1, v.nameStems.length);
  const byName = (score / words.length) * 0.7 + covered * 0.3;
  // A label made only of the description's own specific words (`Arrival` for checkIn described as `Arrival date`,
  // `Vet` for one described as `Veterinarian ...`) names the property too, a little less surely than its name.
  // More of the description's words matched is surer: `Vehicle registration` for one described as `Vehicle registration
  // number` beats a sibling `vehicle` that explains only half of the label.
  const bySpecific = v.specific.size > 0 && words.every((w) => wordMatch(w, v.specific) || abbreviates(w, v.specific)) ? Math.min(0.8, 0.5 + 0.1 * words.length) : 0;
  return { score: Math.max(byName, bySpecific), byName };
}

/** Single letters standing for the name's words: `W/O nr.` for workOrderNumber, `P.O.` for purchaseOrder. */
function expandInitials(words: string[], nameStems: string[]): string[] {
  const initials = nameStems.map((n) => n[0]).join('');
  if (nameStems.length < 2 || !words.some((w) => w.length === 1)) return words;
  for (let i = 0; i + 1 < words.length; i++) {
    let j = i;
    while (j < words.length && words[j]!.length === 1) j++;
    const run = words.slice(i, j).join('');
    const at = run.length >= 2 ? initials.indexOf(run) : -1;
    if (at >= 0) return [...words.slice(0, i), ...nameStems.slice(at, at + run.length), ...words.slice(j)];
    i = j;
  }
  return words;
}

/** A label word that is the start of a longer description word (`vet` for `veterinarian`, `qty` excluded: needs 3+ letters). */
const abbreviates = (w: string, set: Set<string>) => w.length >= 3 && [...set].some((b) => b.length > w.length + 2 && b.startsWith(w));

export const wordsMatch = wordMatch;
