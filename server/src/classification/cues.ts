/**
 * The evidence each kind of document leaves, as a reader would name it: its title (in the first lines, in the
 * languages partners write in), the labels of its fields, its vocabulary, and its structure. Each cue is general
 * knowledge of the document type, never a phrase of one document. Letters OCR confuses are tolerated where a cue is
 * a single word that scans misread (`lnvoice`, `Invoce`, `RECElPT`).
 */

export type Kind = 'invoice' | 'receipt' | 'contract' | 'job-posting' | 'meeting-notes' | 'renewal';
export type Label = Kind | 'other';

export interface Cue {
  re: RegExp;
  weight: number;
  /** `title`: a line among the first ones (the document's heading); `text`: anywhere in what is read. */
  where: 'title' | 'text';
  /** Counted once per match, up to this many times (default once). */
  max?: number;
}

const t = (re: RegExp, weight: number): Cue => ({ re, weight, where: 'title' });
const x = (re: RegExp, weight: number, max = 1): Cue => ({ re, weight, where: 'text', max });

// Letters scans confuse: i/l/1 and o/0 in the words that matter most.
const I = '[il1|]';

export const CUES: Record<Label, Cue[]> = {
  invoice: [
    t(new RegExp(`\\b(?:tax\\s+|commercial\\s+|proforma\\s+|vat\\s+)?${I}nvo${I}?ce\\b`, 'i'), 7),
    t(/\b(?:factura|facture|fattura|fatura|faktura|rechnung|rekening|nota fiscal|請求書)\b|請求書/i, 7),
    x(new RegExp(`\\b${I}nvo${I}?ce\\s*(?:no\\.?|number|num|#|nr\\.?|date|id)\\b`, 'i'), 4),
    x(/\b(?:rechnungs(?:nummer|datum|nr)|n[ºo°]\s*(?:de\s+)?factur[ae]|numero fattura|data fattura|date de facturation|fecha de (?:factura|emisi[oó]n))\b/i, 4),
    x(/\bbill(?:ed)?\s+to\b|\binvoice\s+to\b|\bsold\s+to\b|\brechnungsempf[aä]nger\b|\bfactur[ée] [aà]\b|\bspett\.?le\b/i, 3),
    x(/\b(?:due\s+date|payment\s+due|date\s+due|f[aä]llig(?:keit)?|zahlbar bis|[ée]ch[ée]ance|vencimiento|scadenza|vencimento)\b/i, 3),
    x(/\b(?:amount|balance|total)\s+(?:due|payable|owing)\b|\bplease\s+(?:pay|remit)\b|\bremit(?:tance)?\b/i, 3),
    x(/\b(?:payment\s+terms|terms:\s*net|net\s+\d{1,2}\s+days|zahlungsbedingungen|zahlungsziel|conditions de paiement|condiciones de pago)\b/i, 2),
    x(/\b(?:iban|swift|bic|sort\s+code|account\s+(?:no|number)|routing|bankverbindung|bank details|coordonn[ée]es bancaires)\b/i, 2),
    x(/\b(?:vat\s*(?:no|reg|number|id)|gst\s*(?:no|reg|number|in)|abn|ust-?id(?:nr)?|steuer-?nr|tax\s*id|ein|cnpj|p\.?\s*iva|btw|tva|nif|cif|siret)\b/i, 1),
    x(/\b(?:purchase\s+order|po)\s*(?:no\.?|number|#|ref)\b/i, 1),
    x(/\b(?:qty|quantity|unit\s+price|rate|menge|einzelpreis|cantidad|quantit[ée]|prix unitaire)\b/i, 1),
  ],
  receipt: [
    t(/\b(?:receipt|rece[il1]pt|sales\s+receipt|kassenbon|kassenbeleg|quittung|bon|recibo|reçu|ricevuta|scontrino|cupom fiscal|ticket de caisse|tax receipt)\b|領収書|レシート/i, 6),
    // Consumer tax receipts: Brazil's NFC-e and its printed "documento auxiliar", Italy's documento commerciale.
    t(/\b(?:nota fiscal de consumidor|nfc-e|documento auxiliar|documento commerciale|cupom)\b/i, 8),
    x(/\b(?:beleg(?:-?nr)?|bon-?nr|ticket\s*(?:no|nr|#)|receipt\s*(?:no|#|number))\b/i, 2),
    x(/\b(?:gegeben|r[üu]ckgeld|wechselgeld|troco|valor pago|forma de pagamento|cambio|rendu|monnaie|resto|vuelto|tendered|amount paid|paid by)\b/i, 2),
    x(/\d{1,4}[./-]\d{1,2}[./-]\d{2,4},?\s+(?:\d{1,2}:\d{2})/, 2),
    x(/^\s*[-=*_~.]{12,}\s*$/m, 1),
    // The till's last lines: the total, then how it was paid.
    x(/^[^\S\n]*(?:total|summe|totale|totaal|total a pagar)\b[^\n]*\n(?:[^\n]*\n){0,2}?[^\S\n]*(?:cash|card|visa|master\s*card|amex|debit|credit|eftpos|bar|esp[eè]ces|efectivo|contanti|ec-karte|girocard|gegeben|paid)\b/im, 3),
    x(/\b(?:cash|change|chg|tendered|card\s+(?:no|type)|visa|master\s*card|mastercard|amex|maestro|debit|credit|eftpos|contactless|apple\s*pay|google\s*pay|bar|esp[eè]ces|efectivo|contanti|dinheiro|girocard|ec-karte|pix|nets|paynow)\b/i, 2, 2),
    x(/(?:\*{2,}|x{4,}|#{4,})\s*\d{4}\b/i, 2),
    x(/\b(?:thank\s+you|thanks\s+for|danke|merci|gracias|grazie|obrigad[oa]|vielen dank|come again|see you)\b|ありがとう/i, 2),
    x(/\b(?:store|shop|branch|filiale|loja|tienda)\s*(?:#|no\.?|nr\.?)\s*\d+|\bcashier\b|\bserver\b|\btable\s*\d+|\bguests?\b|\bcovers?\b|\bkasse\b|\bregister\b|\bterminal\b|\btill\b|\bop[ée]rat(?:or|eur)\b|\bcaixa\b|\bcaja\b/i, 2),
    x(/\b(?:tip|gratuity|trinkgeld|pourboire|propina|service\s+charge)\b/i, 2),
    x(/\b(?:approved|auth(?:orization)?\s*(?:code|#|no)|trans(?:action)?\s*(?:#|id|no)|ref\s*#|approval)\b/i, 2),
    x(/\b(?:[01]?\d|2[0-3]):[0-5]\d\b/, 1),
    x(/\b(?:items?\s+sold|no\.?\s+of\s+items|item\s+count|total\s+items|artikel|articles)\b/i, 2),
    x(/\b(?:pump|litres|liters|gallons|fuel|unleaded|diesel)\b/i, 2),
    x(/\b(?:total|summe|gesamt|totale|totaal|合計)\b/i, 1),
  ],
  contract: [
    t(/\b(?:agreement|contract|lease|sublease|tenancy|memorandum of understanding|terms of (?:employment|engagement|service)|statement of (?:main )?terms|deed|licen[cs]e agreement|vertrag|vereinbarung|contrato|contrat|contratto|convenio|acuerdo|overeenkomst)\b/i, 6),
    x(/\b(?:between|by and between|entre|zwischen|tra)\b[\s\S]{0,400}?\b(?:and|et|y|und|e)\b/i, 1),
    x(/\bthe\s+parties\b|\bparties\b\s*[:\n]|\beach\s+party\b|\bparty\s+[ab]\b|\bdie parteien\b|\blas partes\b|\bles parties\b/i, 3),
    x(/\b(?:hereinafter|hereby|hereto|hereunder|whereas|witnesseth|in witness whereof|now,? therefore)\b/i, 3),
    x(/\bshall\b/i, 1, 4),
    x(/\bgoverned\s+by\b|\bgoverning\s+law\b|\blaws\s+of\b|\bjurisdiction\b|\banwendbares recht\b|\bley aplicable\b|\bdroit applicable\b/i, 3),
    x(/\b(?:terminat(?:e|ion)|indemnif|liabilit|confidential(?:ity)?|warrant(?:y|ies)|force majeure|assignment|severab|entire agreement|notices?)\b/i, 1, 4),
    x(/\b(?:effective\s+date|commencement\s+date|term\s+of\s+(?:this|the)\s+agreement|initial\s+term)\b/i, 2),
    x(/\b(?:signature|signed|for and on behalf of|authori[sz]ed signatory|unterschrift|firma)\b/i, 2),
    x(/\b(?:landlord|tenant|lessor|lessee|licensor|licensee|employer|employee|contractor|consultant|client|supplier|distributor|sponsor|organi[sz]er|hirer|venue)\b/i, 1, 2),
    x(/^\s*\d{1,2}\.\d{1,2}\.?\s+[A-Z]/m, 1),
  ],
  'job-posting': [
    t(/\b(?:we(?:'|’)?re\s+hiring|we\s+are\s+hiring|is\s+hiring|now\s+hiring|join\s+(?:our|the)\s+team|job\s+(?:title|opening|posting|advert|description)|vacancy|vacancies|careers?|stellenanzeige|stellenangebot|wir suchen|offre d'emploi|oferta de empleo|vacature|praktikum|internship)\b/i, 6),
    t(/\b(?:engineer|developer|manager|analyst|designer|intern|nurse|barista|chef|associate|assistant|coordinator|technician|mechanic|writer|supervisor|lead|specialist|consultant|officer|director|administrator|scientist|architect|accountant|driver|cook|cashier|clerk|representative|operator|receptionist|teacher)\b.{0,60}$/i, 2),
    x(/\b(?:responsibilities|what you(?:'|’)ll do|what you will do|your role|the role|in this role|about the (?:role|job|position)|duties|key tasks|aufgaben|deine aufgaben|ihre aufgaben|missions|vos missions|funciones|responsabilidades|mansioni)\b/i, 3),
    x(/\b(?:requirements|qualifications|what you(?:'|’)ll bring|what we(?:'|’)re looking for|you(?:'|’)ll need|you will need|you have|about you|skills|must have|nice to have|experience with|years of experience|dein profil|ihr profil|anforderungen|profil recherch[ée]|requisitos|requisiti)\b/i, 3),
    x(/\b(?:benefits|perks|what we offer|we offer|wir bieten|avantages|ofrecemos|beneficios)\b/i, 2),
    x(/\b(?:apply|application|applicants?|candidates?|bewerb|postuler|candidatura|cover letter|resume|cv)\b/i, 2),
    x(/\b(?:salary|compensation|pay|wage|per\s+(?:hour|day|year|annum|month)|\/\s?(?:hr|hour|yr|year)|gehalt|salaire|salario|stipendio|k\s*-\s*\$?\d+k)\b/i, 2),
    x(/\b(?:full[- ]time|part[- ]time|permanent|temporary|fixed[- ]term|freelance|contract role|vollzeit|teilzeit|temps plein|jornada completa|hybrid|remote|on-site|onsite)\b/i, 2),
    x(/^\s*(?:position|role|job|job title|stelle|poste|puesto)\s*:/im, 2),
    x(/\b(?:posted|listed|closing date|applications close|apply by|job (?:id|ref)|ref(?:erence)?\.?\s*(?:no|#)?:)\b/i, 1),
    x(/\b(?:equal opportunity|all genders|diversity|inclusive)\b/i, 1),
  ],
  'meeting-notes': [
    t(/\b(?:minutes|meeting\s+notes|notes|protokoll|sitzungsprotokoll|besprechung|compte[- ]rendu|proc[èe]s-verbal|acta|verbale|notulen|retro(?:spective)?|stand-?up|sync|kick-?off|huddle|debrief|post-incident review|post-mortem|postmortem|review meeting|board meeting|committee meeting|jour fixe|1:1|one-on-one|all-hands)\b|議事録/i, 6),
    x(/\b(?:attendees|attendance|present|participants|in attendance|who|ppl|teilnehmer(?:innen|ende)?|anwesend|participants|asistentes|presenti|aanwezig|directors present|councillors)\s*[:\-]/i, 4),
    x(/\b(?:apologies|absent|regrets|entschuldigt|excus[ée]s)\b/i, 2),
    x(/\b(?:action\s+items?|actions|next\s+steps|follow[- ]ups?|to-?dos?|aufgaben|ma[ßs]nahmen|actions? [àa] mener|acciones|owner|due)\b/i, 3),
    x(/\b(?:decisions?|decided|agreed|resolved|beschl(?:uss|[üu]sse)|d[ée]cisions?|acuerdos|decisioni)\b/i, 3),
    x(/\b(?:agenda|tagesordnung|ordre du jour|orden del d[ií]a)\b/i, 1),
    x(/\b(?:chair(?:ed)?|facilitator|note\s*taker|minutes taken|scribe|secretary|moderat(?:or|ion))\b/i, 2),
    x(/\b(?:discussed|discussion|open questions?|parking lot|next meeting|meeting (?:held|closed|opened)|went well|to improve)\b/i, 2),
  ],
  renewal: [
    t(/\b(?:order\s+form|renewal|subscription|master subscription agreement|service order|order schedule|bestellformular|renouvellement|renovaci[oó]n)\b/i, 6),
    x(/\bsubscri(?:ption|bed|ber)s?\b|\babonnement\b|\bsuscripci[oó]n\b/i, 3, 2),
    x(/\b(?:auto(?:matically)?[- ]?renew(?:s|al|ed)?|renews?\s+automatically|will\s+(?:automatically\s+)?renew|renewal\s+(?:term|date|notice)|non-renewal|verl[aä]ngert sich)\b/i, 4),
    // A subscription that renews itself: the terms the renewal route exists to track, whatever the document's title.
    x(/\bsubscri(?:ption|bed)\b[\s\S]{0,600}?\b(?:renews?|renewal|auto-?renew)|\brenew(?:s|al)?\b[\s\S]{0,600}?\bsubscription\b/i, 6),
    x(/\brenew(?:s|al|ed)?\b/i, 2),
    x(/\b(?:seats?|named\s+users?|users|licen[cs]es|agents?|plan|edition|tier|instances)\b/i, 1, 2),
    x(/\b(?:per\s+(?:user|seat|licen[cs]e)|\/\s?(?:user|seat)|billed\s+(?:annually|monthly|quarterly|yearly)|annual(?:ly)?\s+(?:fee|billing|subscription)|monthly\s+(?:fee|billing|subscription))\b/i, 3),
    x(/\b(?:subscription\s+term|initial\s+term|current\s+term|term\s+(?:start|end)s?|service\s+period|billing\s+period)\b/i, 2),
    x(/\b(?:cancel(?:lation)?|opt[- ]out|notice\s+of\s+(?:non-)?renewal|k[üu]ndigung)\b/i, 2),
    x(/\b(?:saas|cloud|platform|software|app|hosted|api|portal|workspace)\b/i, 1),
    x(/\b(?:price\s+(?:increase|escalat|uplift)|uplift|list price|discount)\b/i, 1),
  ],
  other: [
    t(/\b(?:purchase\s+order|bestellung|bon de commande|orden de compra)\b/i, 9),
    t(/\b(?:booking|reservation|reserva|prenotazione|buchung)\s*(?:confirmation|confirmed|confirmaci[oó]n|best[aä]tigung)?\b|\bconfirmation of (?:booking|reservation)\b|\bconferma di prenotazione\b/i, 8),
    t(/\b(?:pay\s*slip|payslip|pay\s+stub|earnings statement|salary statement|lohnabrechnung|gehaltsabrechnung|bulletin de (?:paie|salaire)|n[oó]mina)\b/i, 9),
    t(/\bcertificate\b|\bzertifikat\b|\bcertificat\b/i, 8),
    t(/\b(?:itinerary|e-?ticket|electronic ticket|boarding pass|travel confirmation)\b/i, 9),
    t(/\b(?:shipment|shipping|delivery|dispatch)\s+(?:notification|note|confirmation|advice)\b|\bpacking\s+(?:slip|list)\b|\blieferschein\b|\bbill of lading\b|\btracking number\b/i, 9),
    t(/\b(?:recipe|ingredients|serves)\b/i, 8),
    t(/\b(?:for\s+(?:sale|rent|lease)|to\s+let|zu verkaufen|zu vermieten|à vendre|à louer)\b/i, 8),
    t(/\b(?:appointment|termin(?:erinnerung)?|rendez-vous|cita)\b/i, 7),
    t(/\b(?:you(?:'|’)re invited|invitation|einladung|save the date)\b/i, 7),
    t(/\b(?:registration|enrol(?:l)?ment)\s+(?:confirmation|confirmed)\b|\bthank you for (?:enrolling|registering)\b|\bcourse\b/i, 7),
    t(/\b(?:bank|account|card)\s+statement\b|\bkontoauszug\b|\brelev[ée] de compte\b/i, 9),
    t(/\b(?:curriculum vitae|r[ée]sum[ée]|lebenslauf)\b/i, 9),
    t(/\b(?:press release|newsletter|menu|prescription|lab(?:oratory)? report|discharge summary|user (?:guide|manual)|warranty|timesheet|expense report|questionnaire|application form|survey)\b/i, 8),
    t(/\b(?:offer\s+of\s+employment|offer\s+letter|job\s+offer|employment\s+offer)\b/i, 9),
    t(/\b(?:work\s+order|job\s+(?:card|sheet)|werkorder|werkstattauftrag|ordre de r[ée]paration)\b/i, 9),
    t(/\b(?:credit\s+note|gutschrift|avoir|nota de cr[ée]dito)\b/i, 8),
    t(/\b(?:quotation|estimate|angebot|devis|presupuesto|preventivo)\b/i, 5),
    t(/\b(?:policy|terms and conditions|privacy notice)\b/i, 4),
    t(/\b(?:agenda)\b/i, 4),
  ],
};
