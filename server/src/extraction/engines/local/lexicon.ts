// Every word list more than one part of the offline engine (or the renewal store) uses, each listed once. Routes build
// their patterns from these; a route may add words of its own on top (said where it does), never keep a second copy.

// ---- Organisations ----------------------------------------------------------------------------------------------

/** Legal forms written as abbreviations (`Acme Inc.`, `Nordlicht GmbH`, `Brightwater B.V.`, `Kovac Digital GmbH & Co. KG`). */
export const LEGAL_FORM_ABBREVIATIONS = [
  'Inc', 'LLC', 'L.L.C', 'Ltd', 'LLP', 'LP', 'PLC', 'plc', 'Corp', 'Co', 'Pty', 'GmbH', 'AG', 'KG', 'AB', 'AS', 'A/S', 'ApS', 'Oy',
  'BV', 'B.V', 'NV', 'N.V', 'SA', 'S.A', 'SAS', 'SARL', 'SL', 'S.L', 'Srl', 'S.r.l', 'SpA', 'S.p.A',
  'Sdn Bhd', 'Sdn. Bhd', 'Bhd', 'S/B', 'Pte', 'Pvt', 'Tbk', // Malaysia, Singapore, India, Indonesia
];
/** Legal forms written as words (`Acme Holdings Limited`). */
export const LEGAL_FORM_WORDS = ['Incorporated', 'Limited', 'Corporation', 'Company'];
export const LEGAL_FORMS = [...LEGAL_FORM_ABBREVIATIONS, ...LEGAL_FORM_WORDS];
/**
 * Forms that name a company only with other evidence: `Co`/`Company` are also ordinary words and `Denver, CO` is a
 * state; the line-end test (`legalFormEnd`) leaves them out.
 */
const WEAK_LEGAL_FORMS = new Set(['Co', 'Company']);
/** Words that end many organisation names without being a legal form (`Quillstone Cloud Holdings`, `Harbor Bistro`). */
export const ORGANISATION_WORDS = [
  'Group', 'Holdings', 'Partners', 'Labs', 'Studio', 'Technologies', 'Systems', 'Solutions', 'Logistics', 'Software',
  'Agency', 'University', 'Hospital', 'Clinic', 'Restaurant', 'Bistro', 'Hotel',
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** A form as a pattern, and its upper-case spelling (`LTD`, `GMBH`, `LIMITED`) where that is no other word. */
const spellings = (forms: string[]) =>
  [...new Set(forms.flatMap((f) => (f.replace(/[^A-Za-z]/g, '').length >= 3 ? [f, f.toUpperCase()] : [f])))]
    .sort((a, b) => b.length - a.length)
    .map(escape);

/** Alternation of every legal form's spelling (for `new RegExp`), longest first. */
export const LEGAL_FORM_SOURCE = `(?:${spellings(LEGAL_FORMS).join('|')})`;
/** Alternation of legal forms and organisation words (`Penwright Software Inc.`, `Harbor Bistro`). */
export const ORGANISATION_END_SOURCE = `(?:${spellings([...LEGAL_FORMS, ...ORGANISATION_WORDS]).join('|')})`;

/** Alternation of the legal forms that name a company alone (no `Co`/`Company`). */
export const LEGAL_FORM_STRONG_SOURCE = `(?:${spellings(LEGAL_FORMS.filter((f) => !WEAK_LEGAL_FORMS.has(f))).join('|')})`;
/**
 * A name ending in a legal form (`Acme B.V.`, `Nordlicht GmbH`, `NORTHGATE HOUSING CO-OPERATIVE LTD`): an organisation.
 * Two capitals after a comma are a place's region (`Reno, NV`, `Calgary, AB`, `Adelaide, SA`), not a form.
 */
export const LEGAL_FORM_END = new RegExp(String.raw`(?<!,\s*)\b${LEGAL_FORM_STRONG_SOURCE}\.?$|(?<=,\s*)\b(?![A-Z]{2}$)${LEGAL_FORM_STRONG_SOURCE}\.?$`);
/** A word of an organisation's name anywhere in a text (`Acme Ltd`, `Lumen Labs`, `Acme, Inc.`). */
export const ORGANISATION_WORD = new RegExp(String.raw`\b${ORGANISATION_END_SOURCE}\b\.?`);
/** Legal forms in a lower-cased name, dots optional (`b.v`, `b v`, `bv`): what the renewal store ignores in a vendor. */
export const LEGAL_FORM_LOWER = new RegExp(
  String.raw`\b(?:${[...new Set(LEGAL_FORMS.map((f) => f.toLowerCase()))].sort((a, b) => b.length - a.length).map((f) => escape(f).replace(/\\\./g, '[.\\s]?')).join('|')})\b\.?`,
  'g',
);

// ---- People -----------------------------------------------------------------------------------------------------

/** Honorifics written as abbreviations, with or without a full stop (`Dr. Helen Park`, `Mr Ortiz`). */
export const HONORIFIC_ABBREVIATIONS = ['Mr', 'Mrs', 'Ms', 'Mx', 'Dr', 'Prof', 'Rev', 'Hon'];
/** Honorifics that are words (`Dame Sarah Lane`). */
export const HONORIFIC_WORDS = ['Miss', 'Sir', 'Dame'];
export const HONORIFICS = [...HONORIFIC_ABBREVIATIONS, ...HONORIFIC_WORDS];
/** Alternation of honorifics (for `new RegExp`; add the `i` flag where case does not matter). */
export const HONORIFIC_SOURCE = `(?:${HONORIFICS.join('|')})`;

// ---- Party role labels (label keys: lower case, words only) ------------------------------------------------------

/** Labels of the party that sells or bills (`From:`, `Vendor:`, `Remit to:`). */
export const VENDOR_LABELS = [
  'vendor', 'vendor name', 'supplier', 'seller', 'sold by', 'provider', 'service provider', 'licensor', 'from', 'issued by',
  'bill from', 'invoice from', 'payee', 'remit to', 'sender',
];
/** Labels of the party that buys or is billed (`Bill To:`, `Customer:`, `Licensee:`). */
export const CUSTOMER_LABELS = [
  'customer', 'customer name', 'client', 'client name', 'bill to', 'billed to', 'bill to customer', 'invoice to', 'invoiced to',
  'sold to', 'billing address', 'to', 'recipient', 'buyer', 'licensee', 'subscriber', 'kunde', 'rechnungsempfänger',
];

// ---- Tax numbers ------------------------------------------------------------------------------------------------

/** Labels of a party's tax or business number (`VAT No:`, `USt-IdNr.:`, `ABN:`, `GSTIN:`). */
export const TAX_ID_LABELS = ['tax id', 'tax no', 'tax number', 'vat no', 'vat number', 'vat id', 'vat reg no', 'vat registration no', 'vat registration number', 'vat reg', 'ust idnr', 'ust id', 'ust id nr', 'business number', 'abn', 'gst no', 'gst number', 'gst hst no', 'gst reg no', 'ein', 'tin', 'steuernummer', 'steuer nr', 'tax registration', 'tax registration no', 'company tax id', 'siret', 'nif', 'cif', 'vat', 'tax reg no', 'bn', 'gstin', 'tva intracom', 'federal tax id'];

// ---- Totals labels, per language (label keys) ---------------------------------------------------------------------

export const SUBTOTAL_LABELS = [
  'subtotal', 'sub total', 'net amount', 'net total', 'net', 'amount before tax', 'total before tax', 'total excl vat', 'total excluding vat',
  'total excl tax', 'total net', 'merchandise total', 'items total', 'subtotal excl vat',
  'taxable value', 'taxable amount', // India (GST invoices)
  'nettobetrag', 'zwischensumme', 'summe netto', 'zwischensumme netto', 'nettosumme', // de
  'total ht', 'sous total', // fr
  'base imponible', 'importe neto', // es
  'subtotale', 'imponibile', // it
];
export const TAX_LABELS = [
  'tax', 'sales tax', 'vat', 'hst', 'gst', 'pst', 'qst', 'tax total', 'total tax', 'vat amount', 'tax amount', 'gst hst', 'state tax', 'taxes',
  'vat total', 'total taxes', 'total tax amount', 'taxes total',
  'igst', 'cgst', 'sgst', 'utgst', // India: integrated, central, state and union-territory GST
  'mwst', 'ust', 'mehrwertsteuer', 'umsatzsteuer', // de
  'tva', // fr
  'iva', // es, it
];
/** Words that make a label a tax when it has more words (`VAT 20%`, `BTW 21%`), unless it is a tax number's. */
export const TAX_WORDS = ['tax', 'vat', 'gst', 'hst', 'igst', 'cgst', 'sgst', 'utgst', 'mwst', 'ust', 'tva', 'iva', 'btw', 'moms', 'mva'];
/** A total that is the amount to pay, over a plain `Total`. */
export const TOTAL_STRONG_LABELS = [
  'grand total', 'total due', 'total amount', 'invoice total', 'total payable', 'amount payable', 'total to pay', 'total incl vat',
  'total including vat', 'total inc vat', 'total incl tax', 'total amount due', 'total rounded', 'rounded total', 'total after rounding',
  'gesamtbetrag', 'total brutto', 'rechnungsbetrag', // de
  'total ttc', 'montant total', 'total a payer', 'net a payer', // fr
  'importe total', 'total a pagar', // es
  'totale complessivo', 'importo totale', 'totale da pagare', // it
  'valor total', 'valor a pagar', // pt ('total a pagar' is listed under es)
];
export const TOTAL_LABELS = ['total', 'amount due', 'balance due', 'total eur', 'total usd', 'total gbp', 'gesamt', 'summe', 'totale'];
export const TIP_LABELS = ['tip', 'tips', 'gratuity', 'tip amount', 'mancia', 'propina', 'pourboire', 'trinkgeld', 'gorjeta'];

// ---- Letters and mails ------------------------------------------------------------------------------------------

/** Salutations that open a letter or mail, by language: the line they start is no title, letterhead or name. */
export const GREETINGS = [
  'hi', 'hello', 'hey', 'dear', 'good morning', 'good afternoon', 'good evening', 'greetings', 'to whom it may concern', 'all', // en
  'bonjour', 'bonsoir', 'salut', 'cher', 'chère', 'chers', 'madame', 'monsieur', 'mesdames', // fr
  'hallo', 'guten tag', 'guten morgen', 'liebe', 'lieber', 'sehr geehrte', 'sehr geehrter', 'servus', 'moin', // de
  'hola', 'estimado', 'estimada', 'estimados', 'buenos días', 'buenas tardes', // es
  'buongiorno', 'buonasera', 'ciao', 'gentile', 'gentili', 'caro', 'cara', 'egregio', // it
  'olá', 'ola', 'bom dia', 'boa tarde', 'prezado', 'prezada', 'prezados', // pt
  'beste', 'geachte', 'hoi', 'goedemorgen', 'goedemiddag', // nl
  'hej', 'hei', 'kære', 'bästa', 'kjære', 'god morgon', 'god dag', // sv no da
  'hyvä', 'moi', 'terve', // fi
  'dzień dobry', 'szanowni', 'szanowny', 'szanowna', 'witam', // pl
  'dobrý den', 'vážený', 'vážená', 'vážení', // cs
  'tisztelt', 'kedves', 'jó napot', // hu
  'sayın', 'merhaba', 'değerli', // tr
  'selamat pagi', 'selamat siang', 'halo', 'yth', 'dengan hormat', // id
  'kính gửi', 'xin chào', 'chào', // vi
  '尊敬的', '您好', '你好', 'お世話になっております', 'いつもお世話になっております', '拝啓', '안녕하세요', '안녕하십니까',
  'مرحبا', 'السلام عليكم', 'عزيزي', 'عزيزتي', 'السادة', 'αγαπητέ', 'αγαπητή', 'αγαπητοί', 'καλημέρα', 'αξιότιμε',
];
/** How a mail's own note introduces what it carries (`Please find our invoice below.`, `Anbei das Protokoll.`). */
export const MAIL_NOTE_OPENERS = [
  'please find', 'please see', 'please note', 'attached', 'see below', 'below are', 'below is', 'here are', 'here is', 'fyi', 'forwarding', 'sharing',
  'ci-joint', 'ci joint', 'veuillez trouver', 'vous trouverez', 'anbei', 'im anhang', 'beigefügt', 'adjunto', 'le envío', 'te envío', 'en adjunto',
  'in allegato', 'allego', 'em anexo', 'segue', 'segue em anexo', 'bijgevoegd', 'in de bijlage', 'hierbij', 'w załączeniu', 'przesyłam', 'bifogat',
  'vedlagt', 'liitteenä', 'v příloze', 'mellékelten', 'ekte', 'terlampir', 'đính kèm', '附件', '添付', '첨부',
];
