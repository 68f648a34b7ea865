// Every word list of the offline engine (and the renewal store), each concept listed once: organisations and people
// here, the words of each kind of document by language in lexicon/*.ts (re-exported below). Routes build their patterns
// from these; a route may add words of its own on top (said where it does), never keep a second copy.

// ---- Organisations ----------------------------------------------------------------------------------------------

/** Legal forms written as abbreviations (`Acme Inc.`, `Nordlicht GmbH`, `Brightwater B.V.`, `Kovac Digital GmbH & Co. KG`). */
export const LEGAL_FORM_ABBREVIATIONS = [
  'Inc', 'LLC', 'L.L.C', 'Ltd', 'LLP', 'LP', 'PLC', 'plc', 'Corp', 'Co', 'Pty', 'GmbH', 'AG', 'KG', 'AB', 'AS', 'A/S', 'ApS', 'Oy',
  'BV', 'B.V', 'NV', 'N.V', 'SA', 'S.A', 'SAS', 'SARL', 'SL', 'S.L', 'Srl', 'S.r.l', 'SpA', 'S.p.A',
  'Sdn Bhd', 'Sdn. Bhd', 'Bhd', 'S/B', 'Pte', 'Pvt', 'Tbk', // Malaysia, Singapore, India, Indonesia
  'S.A. de C.V', 'SA de CV', 'S. de R.L. de C.V', 'S. de R.L', 'Ltda', 'EIRELI', 'S.A.S', 'S.A.C', 'S.R.L', // Latin America
  'Sp. z o.o', 'sp. z o.o', 'sp.j', 's.r.o', 'a.s', 'spol. s r.o', 'Kft', 'Zrt', 'Nyrt', 'Bt', 'A.Ş', 'Ltd. Şti', 'AŞ', // Central Europe, Turkey
  'DAC', 'CLG', 'Teoranta', 'OHG', 'e.V', 'ASA', 'Oyj', 'Ab', 'EURL', 'SASU', 'SNC', 'BVBA', 'VOF', 'Lda', 'Unipessoal', 'IKE', // Europe
  'FZE', 'FZCO', 'FZ-LLC', 'WLL', 'W.L.L', 'JSC', 'PJSC', 'K.K', // Gulf, Asia
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

// ---- Words by domain, each concept once (lexicon/*.ts) -------------------------------------------------------------

export * from './lexicon/invoices.js';
export * from './lexicon/meetings.js';
export * from './lexicon/jobs.js';
export * from './lexicon/contracts.js';

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
