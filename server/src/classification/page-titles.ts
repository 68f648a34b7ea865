// The titles documents start with, as page splitting reads them (split-pages.ts): a page whose first lines hold one
// starts a document of its own. Each is general knowledge of a type's heading, in the languages partners write in,
// weighted by how surely it names a document (another type's title, `other`, counts too: a payslip's title starts a
// payslip). Classification itself is the learned model's (learned/); these titles only mark where documents start.
// Letters scans confuse (i/l/1) are tolerated in the words that matter most.

const I = '[il1|]';

/** Title patterns with their weights: a title near the start of a line among a page's first ones. */
export const TITLES: Array<[RegExp, number]> = [
  // invoice
  [new RegExp(`\\b(?:tax\\s+|commercial\\s+|proforma\\s+|vat\\s+)?${I}nvo${I}?ce\\b`, 'i'), 7],
  [/\b(?:factura|facture|fattura|fatura|faktura|rechnung|rekening|nota fiscal|請求書)\b|請求書/i, 7],
  // receipt
  [/\b(?:receipt|rece[il1]pt|sales\s+receipt|kassenbon|kassenbeleg|quittung|bon|recibo|reçu|ricevuta|scontrino|cupom fiscal|ticket de caisse|tax receipt)\b|領収書|レシート/i, 6],
  // Consumer tax receipts: Brazil's NFC-e and its printed "documento auxiliar", Italy's documento commerciale.
  [/\b(?:nota fiscal de consumidor|nfc-e|documento auxiliar|documento commerciale|cupom)\b/i, 8],
  // contract
  [/\b(?:agreement|contract|lease|sublease|tenancy|memorandum of understanding|terms of (?:employment|engagement|service)|statement of (?:main )?terms|deed|licen[cs]e agreement|vertrag|vereinbarung|contrato|contrat|contratto|convenio|acuerdo|overeenkomst)\b/i, 6],
  // job-posting
  [/\b(?:we(?:'|’)?re\s+hiring|we\s+are\s+hiring|is\s+hiring|now\s+hiring|join\s+(?:our|the)\s+team|job\s+(?:title|opening|posting|advert|description)|vacancy|vacancies|careers?|stellenanzeige|stellenangebot|wir suchen|offre d'emploi|oferta de empleo|vacature|praktikum|internship)\b/i, 6],
  [/\b(?:engineer|developer|manager|analyst|designer|intern|nurse|barista|chef|associate|assistant|coordinator|technician|mechanic|writer|supervisor|lead|specialist|consultant|officer|director|administrator|scientist|architect|accountant|driver|cook|cashier|clerk|representative|operator|receptionist|teacher)\b.{0,60}$/i, 2],
  // meeting-notes
  [/\b(?:minutes|meeting\s+notes|notes|protokoll|sitzungsprotokoll|besprechung|compte[- ]rendu|proc[èe]s-verbal|acta|verbale|notulen|retro(?:spective)?|stand-?up|sync|kick-?off|huddle|debrief|post-incident review|post-mortem|postmortem|review meeting|board meeting|committee meeting|jour fixe|1:1|one-on-one|all-hands)\b|議事録/i, 6],
  // renewal
  [/\b(?:order\s+form|renewal|subscription|master subscription agreement|service order|order schedule|bestellformular|renouvellement|renovaci[oó]n)\b/i, 6],
  // other
  [/\b(?:purchase\s+order|bestellung|bon de commande|orden de compra)\b/i, 9],
  [/\b(?:booking|reservation|reserva|prenotazione|buchung)\s*(?:confirmation|confirmed|confirmaci[oó]n|best[aä]tigung)?\b|\bconfirmation of (?:booking|reservation)\b|\bconferma di prenotazione\b/i, 8],
  [/\b(?:pay\s*slip|payslip|pay\s+stub|earnings statement|salary statement|lohnabrechnung|gehaltsabrechnung|bulletin de (?:paie|salaire)|n[oó]mina)\b/i, 9],
  [/\bcertificate\b|\bzertifikat\b|\bcertificat\b/i, 8],
  [/\b(?:itinerary|e-?ticket|electronic ticket|boarding pass|travel confirmation)\b/i, 9],
  [/\b(?:shipment|shipping|delivery|dispatch)\s+(?:notification|note|confirmation|advice)\b|\bpacking\s+(?:slip|list)\b|\blieferschein\b|\bbill of lading\b|\btracking number\b/i, 9],
  [/\b(?:recipe|ingredients|serves)\b/i, 8],
  [/\b(?:for\s+(?:sale|rent|lease)|to\s+let|zu verkaufen|zu vermieten|à vendre|à louer)\b/i, 8],
  [/\b(?:appointment|termin(?:erinnerung)?|rendez-vous|cita)\b/i, 7],
  [/\b(?:you(?:'|’)re invited|invitation|einladung|save the date)\b/i, 7],
  [/\b(?:registration|enrol(?:l)?ment)\s+(?:confirmation|confirmed)\b|\bthank you for (?:enrolling|registering)\b|\bcourse\b/i, 7],
  [/\b(?:bank|account|card)\s+statement\b|\bkontoauszug\b|\brelev[ée] de compte\b/i, 9],
  [/\b(?:curriculum vitae|r[ée]sum[ée]|lebenslauf)\b/i, 9],
  [/\b(?:press release|newsletter|menu|prescription|lab(?:oratory)? report|discharge summary|user (?:guide|manual)|warranty|timesheet|expense report|questionnaire|application form|survey)\b/i, 8],
  [/\b(?:offer\s+of\s+employment|offer\s+letter|job\s+offer|employment\s+offer)\b/i, 9],
  [/\b(?:work\s+order|job\s+(?:card|sheet)|werkorder|werkstattauftrag|ordre de r[ée]paration)\b/i, 9],
  [/\b(?:credit\s+note|gutschrift|avoir|nota de cr[ée]dito)\b/i, 8],
  [/\b(?:quotation|estimate|angebot|devis|presupuesto|preventivo)\b/i, 5],
  [/\b(?:policy|terms and conditions|privacy notice)\b/i, 4],
  [/\b(?:agenda)\b/i, 4],
];

/** The lines that can hold the document's title. */
const TITLE_LINES = 8;
/** A title is a short line (or part of one), and its title word stands near its start. */
const TITLE_CHARS = 80;
const TITLE_START = 30;
/** An e-mail's subject line is its title: `Subject:` (and its translations, `Re:`, `Fwd:`) is not part of it. */
const SUBJECT_LABEL = /^(?:(?:subject|betreff|objet|oggetto|asunto|assunto|onderwerp|re|fwd?|aw|wg|tr)\s*(?:\/\s*)?)+:\s*/i;

/** Running prose rather than a heading or a name: three or more of the little words sentences are made of. */
export function isProse(line: string): boolean {
  return (line.match(/\b(?:the|shall|be|by|and|of|in|to|is|are|will|with|for|this|that|or|at|on|from|as|an|a)\b/g) ?? []).length >= 3;
}

/** Title lines: the first lines, each part of a line where a heading stands beside a letterhead apart. */
function titleLines(lines: string[]): string[] {
  return lines.slice(0, TITLE_LINES).flatMap((l) => l.split(/\s{3,}/)).map((l) => l.replace(SUBJECT_LABEL, ''))
    // A sentence is not a title ("Please find attached our invoice."): a title does not end with a full stop. Nor is
    // a numbered clause ("6. Renewal. This Agreement ...") or a line of prose ("This Lease shall be governed by") the
    // title of a document: they are inside one.
    .filter((l) => l.length <= TITLE_CHARS && !/[a-z]{3,}\.$/i.test(l) && !/^\d{1,2}(?:\.\d{1,2})*\.?\s/.test(l) && !/^[a-zäöüéèàçñ]/.test(l) && !isProse(l));
}

/**
 * A title word near the start of its line: "Course fee paid (receipt TAG-1)" is not a receipt's title. A label's value
 * is not a title either ("Fee paid: ..."), except an e-mail's subject, whose label is dropped.
 */
function titleMatch(re: RegExp, titles: string[]): boolean {
  return titles.some((line) => { const m = re.exec(line); return m !== null && m.index <= TITLE_START && !line.slice(0, m.index).includes(':'); });
}

/** The weight of the strongest document title (of any kind, `other` types too) among a text's first lines. */
export function titleWeight(text: string): number {
  const titles = titleLines(text.split('\n').map((l) => l.trim()).filter((l) => l !== ''));
  let best = 0;
  for (const [re, weight] of TITLES) if (weight > best && titleMatch(re, titles)) best = weight;
  return best;
}
