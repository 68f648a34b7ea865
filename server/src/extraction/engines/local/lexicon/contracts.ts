// Words of contracts and subscription terms, each concept once, by language: party roles, the term's start and end, the
// value, governing law, clause headings (termination, renewal, obligations), notice periods and automatic renewal.
import { labels } from './words.js';

/** Roles a party is named by (`Lessor: ...`, `Auftragnehmer: ...`, `Zamawiający: ...`, `甲方: ...`). */
export const PARTY_ROLES = labels({
  en: ['lessor', 'lessee', 'landlord', 'tenant', 'licensor', 'licensee', 'client', 'customer', 'provider', 'service provider', 'supplier', 'vendor', 'contractor', 'consultant', 'buyer',
    'seller', 'purchaser', 'employer', 'employee', 'company', 'agency', 'distributor', 'manufacturer', 'lender', 'borrower', 'disclosing party', 'receiving party', 'recipient', 'discloser',
    'partner', 'owner', 'subcontractor', 'reseller', 'franchisor', 'franchisee', 'guarantor', 'investor', 'publisher', 'author', 'artist', 'sponsor'],
  fr: ['bailleur', 'preneur', 'locataire', 'prestataire', 'fournisseur', 'vendeur', 'acheteur', 'employeur', 'salarié', 'mandant', 'mandataire', 'concédant', 'licencié',
    'partie divulgatrice', 'partie réceptrice'],
  es: ['arrendador', 'arrendatario', 'cliente', 'proveedor', 'prestador', 'contratista', 'contratante', 'vendedor', 'comprador', 'empleador', 'trabajador', 'licenciante', 'licenciatario'],
  it: ['locatore', 'conduttore', 'committente', 'fornitore', 'appaltatore', 'venditore', 'acquirente', 'datore di lavoro', 'lavoratore', 'licenziante', 'licenziatario'],
  pt: ['locador', 'locatário', 'contratada', 'contratado', 'fornecedor', 'prestador', 'empregador', 'empregado'],
  nl: ['verhuurder', 'huurder', 'opdrachtgever', 'opdrachtnemer', 'leverancier', 'koper', 'verkoper', 'werkgever', 'werknemer', 'licentiegever', 'licentienemer'],
  de: ['vermieter', 'mieter', 'auftraggeber', 'auftragnehmer', 'lieferant', 'käufer', 'verkäufer', 'arbeitgeber', 'arbeitnehmer', 'lizenzgeber', 'lizenznehmer', 'kunde', 'anbieter',
    'dienstleister'],
  sv: ['hyresvärd', 'hyresgäst', 'beställare', 'leverantör', 'köpare', 'säljare', 'arbetsgivare', 'arbetstagare', 'uppdragsgivare'],
  no: ['utleier', 'leietaker', 'oppdragsgiver', 'leverandør', 'kjøper', 'selger', 'arbeidsgiver', 'arbeidstaker'],
  da: ['udlejer', 'lejer', 'køber', 'sælger', 'arbejdsgiver', 'medarbejder'],
  fi: ['vuokranantaja', 'vuokralainen', 'tilaaja', 'toimittaja', 'ostaja', 'myyjä', 'työnantaja', 'työntekijä'],
  pl: ['wynajmujący', 'najemca', 'zamawiający', 'wykonawca', 'dostawca', 'sprzedający', 'kupujący', 'pracodawca', 'pracownik', 'zleceniodawca', 'zleceniobiorca', 'licencjodawca',
    'licencjobiorca'],
  cs: ['pronajímatel', 'nájemce', 'objednatel', 'zhotovitel', 'dodavatel', 'prodávající', 'kupující', 'zaměstnavatel', 'zaměstnanec', 'poskytovatel'],
  hu: ['bérbeadó', 'bérlő', 'megrendelő', 'vállalkozó', 'szállító', 'eladó', 'vevő', 'munkáltató', 'munkavállaló', 'megbízó', 'megbízott'],
  tr: ['kiraya veren', 'kiracı', 'alıcı', 'satıcı', 'işveren', 'yüklenici', 'hizmet sağlayıcı', 'müşteri'],
  id: ['pihak pertama', 'pihak kedua', 'penyewa', 'pemberi sewa', 'penyedia jasa', 'pengguna jasa', 'penjual', 'pembeli', 'pemberi kerja'],
  vi: ['bên a', 'bên b', 'bên cho thuê', 'bên thuê', 'bên bán', 'bên mua'],
  zh: ['甲方', '乙方', '出租人', '承租人', '委托方', '受托方', '卖方', '买方'],
  ja: ['委託者', '受託者', '売主', '買主', '賃貸人', '賃借人'],
  ko: ['임대인', '임차인', '매도인', '매수인'],
  ar: ['الطرف الأول', 'الطرف الثاني', 'المؤجر', 'المستأجر'],
  el: ['εκμισθωτής', 'μισθωτής', 'εργοδότης', 'εργαζόμενος', 'πάροχος'],
});

/** The start of a term, in the languages beyond English (routes add their own English words). */
export const TERM_START_LABELS = labels({
  fr: ['date de début', 'début', "date d'effet", 'date d effet', "date d'entrée en vigueur", 'entrée en vigueur', 'prise d effet'],
  es: ['fecha de inicio', 'inicio', 'fecha de entrada en vigor', 'vigencia desde'], it: ['data di inizio', 'inizio', 'decorrenza', 'data di decorrenza'],
  pt: ['data de início', 'início', 'vigência a partir de'], nl: ['startdatum', 'ingangsdatum', 'aanvangsdatum', 'ingang'],
  de: ['beginn', 'vertragsbeginn', 'laufzeitbeginn', 'startdatum', 'mietbeginn', 'gültig ab'], sv: ['startdatum', 'avtalsstart', 'gäller från'], no: ['startdato', 'oppstart'],
  da: ['startdato', 'ikrafttrædelse'], fi: ['alkamispäivä', 'voimaantulo'], pl: ['data rozpoczęcia', 'obowiązuje od', 'data wejścia w życie'], cs: ['datum zahájení', 'platnost od', 'účinnost od'],
  hu: ['kezdő dátum', 'hatálybalépés', 'kezdete'], tr: ['başlangıç tarihi', 'yürürlük tarihi'], id: ['tanggal mulai', 'berlaku mulai'], vi: ['ngày bắt đầu', 'ngày hiệu lực'],
  zh: ['开始日期', '生效日期', '起始日期'], ja: ['開始日', '契約開始日', '発効日'], ko: ['시작일', '계약 시작일', '효력 발생일'], ar: ['تاريخ البدء', 'تاريخ السريان'], el: ['ημερομηνία έναρξης', 'έναρξη'],
});

/** The end of a term, in the languages beyond English. */
export const TERM_END_LABELS = labels({
  fr: ['date de fin', 'fin', "date d'expiration", 'date d expiration', 'échéance du contrat'], es: ['fecha de fin', 'fecha de finalización', 'fecha de vencimiento', 'vigencia hasta'],
  it: ['data di fine', 'data di scadenza', 'scadenza'], pt: ['data de término', 'término', 'data de fim', 'vigência até'], nl: ['einddatum', 'afloopdatum'],
  de: ['ende', 'vertragsende', 'laufzeitende', 'enddatum', 'mietende', 'gültig bis'], sv: ['slutdatum', 'avtalsslut', 'gäller till'], no: ['sluttdato', 'utløpsdato'],
  da: ['slutdato', 'udløbsdato'], fi: ['päättymispäivä', 'voimassa asti'], pl: ['data zakończenia', 'obowiązuje do', 'data wygaśnięcia'], cs: ['datum ukončení', 'platnost do'],
  hu: ['záró dátum', 'lejárat', 'lejárat dátuma'], tr: ['bitiş tarihi', 'sona erme tarihi'], id: ['tanggal berakhir'], vi: ['ngày kết thúc', 'ngày hết hạn'],
  zh: ['结束日期', '到期日期', '终止日期'], ja: ['終了日', '契約終了日', '満了日'], ko: ['종료일', '계약 종료일', '만료일'], ar: ['تاريخ الانتهاء'], el: ['ημερομηνία λήξης'],
});

/** The date a subscription or contract renews. */
export const RENEWAL_DATE_LABELS = labels({
  en: ['renewal date', 'auto renewal date', 'next renewal', 'next renewal date', 'renews on', 'renewal on', 'renewal'],
  fr: ['date de renouvellement', 'prochain renouvellement'], es: ['fecha de renovación', 'próxima renovación'], it: ['data di rinnovo', 'prossimo rinnovo'],
  pt: ['data de renovação', 'próxima renovação'], nl: ['verlengingsdatum'], de: ['verlängerungsdatum', 'nächste verlängerung'], sv: ['förnyelsedatum'], no: ['fornyelsesdato'],
  da: ['fornyelsesdato'], fi: ['uusimispäivä'], pl: ['data odnowienia'], cs: ['datum obnovení'], hu: ['megújítás dátuma'], tr: ['yenileme tarihi'], id: ['tanggal perpanjangan'],
  vi: ['ngày gia hạn'], zh: ['续订日期', '续约日期'], ja: ['更新日'], ko: ['갱신일'], ar: ['تاريخ التجديد'], el: ['ημερομηνία ανανέωσης'],
});

/** The value of a contract, in the languages beyond English. */
export const CONTRACT_VALUE_LABELS = labels({
  en: ['contract sum'], fr: ['montant total', 'prix total', 'valeur du contrat', 'prix', 'rémunération', 'montant du marché'],
  es: ['importe total', 'precio total', 'valor del contrato', 'precio', 'importe del contrato'],
  it: ['importo totale', 'corrispettivo', 'valore del contratto', 'prezzo'], pt: ['valor total', 'valor do contrato', 'preço'], nl: ['totale waarde', 'contractwaarde', 'vergoeding', 'prijs', 'aanneemsom'],
  de: ['gesamtwert', 'vertragswert', 'vergütung', 'gesamtpreis', 'preis', 'auftragssumme', 'auftragswert'], sv: ['avtalsvärde', 'ersättning', 'pris'], no: ['kontraktsverdi', 'vederlag'], da: ['kontraktsværdi', 'vederlag'],
  fi: ['sopimuksen arvo', 'hinta', 'korvaus'], pl: ['wartość umowy', 'wynagrodzenie', 'cena'], cs: ['celková cena', 'cena'], hu: ['szerződés értéke', 'díj', 'vállalkozói díj'],
  tr: ['sözleşme bedeli', 'toplam bedel'], id: ['nilai kontrak', 'nilai perjanjian'], vi: ['giá trị hợp đồng'], zh: ['合同金额', '合同总价'], ja: ['契約金額'], ko: ['계약 금액'],
  ar: ['قيمة العقد'], el: ['συμβατικό τίμημα', 'αξία σύμβασης'],
});

export const GOVERNING_LAW_LABELS = labels({
  en: ['governing law', 'applicable law', 'jurisdiction', 'law'], fr: ['droit applicable', 'loi applicable', 'juridiction'], es: ['ley aplicable', 'legislación aplicable', 'jurisdicción'],
  it: ['legge applicabile', 'foro competente'], pt: ['lei aplicável', 'foro'], nl: ['toepasselijk recht', 'rechtskeuze'], de: ['anwendbares recht', 'gerichtsstand', 'rechtswahl'],
  sv: ['tillämplig lag'], no: ['lovvalg'], da: ['lovvalg'], fi: ['sovellettava laki'], pl: ['prawo właściwe'], cs: ['rozhodné právo'], hu: ['irányadó jog'], tr: ['uygulanacak hukuk'],
  id: ['hukum yang berlaku'], vi: ['luật áp dụng'], zh: ['适用法律'], ja: ['準拠法'], ko: ['준거법'], ar: ['القانون الواجب التطبيق'], el: ['εφαρμοστέο δίκαιο'],
});

/** A legal system named by its adjective (`English law`, `deutsches Recht`, `droit français`): the jurisdiction's English name. */
export const LAW_BY_ADJECTIVE: [RegExp, string][] = [
  [/\bdeutsche[ms]?\s+recht/i, 'Germany'], [/\bösterreichische[ms]?\s+recht/i, 'Austria'], [/\bschweizer(?:ische[ms]?)?\s+recht/i, 'Switzerland'], [/\bdroit\s+français/i, 'France'],
  [/\bdroit\s+belge/i, 'Belgium'], [/\bdroit\s+suisse/i, 'Switzerland'], [/\bdroit\s+luxembourgeois/i, 'Luxembourg'], [/\b(?:derecho|legislación)\s+español/i, 'Spain'],
  [/\b(?:diritto|legge)\s+italian/i, 'Italy'], [/\b(?:direito|lei)\s+portugu[eê]s/i, 'Portugal'], [/\b(?:direito|lei)\s+brasileir/i, 'Brazil'], [/\bnederlands\s+recht/i, 'the Netherlands'],
  [/\bsvensk\s+(?:lag|rätt)/i, 'Sweden'], [/\bnorsk\s+(?:lov|rett)/i, 'Norway'], [/\bdansk\s+(?:lov|ret)/i, 'Denmark'], [/\bsuomen\s+lak/i, 'Finland'], [/\bprawo\s+polskie|\bprawa\s+polskiego/i, 'Poland'],
  [/\bčesk(?:é|ého)\s+práv/i, 'Czech Republic'], [/\bmagyar\s+jog/i, 'Hungary'], [/\btürk\s+hukuk/i, 'Turkey'], [/\bhukum\s+(?:negara\s+)?(?:republik\s+)?indonesia/i, 'Indonesia'],
  [/\bpháp\s+luật\s+việt\s+nam/i, 'Vietnam'], [/中华人民共和国法律|中國法律|中国法律/, 'China'], [/日本法/, 'Japan'], [/대한민국\s*법/, 'South Korea'],
];

export const TERMINATION_HEADINGS = labels({
  en: ['termination', 'terminate', 'default and termination', 'term and termination', 'cancellation', 'ending', 'ending the agreement', 'ending this agreement', 'end of the agreement', 'exit'],
  fr: ['résiliation', 'durée et résiliation', 'fin du contrat'], es: ['terminación', 'rescisión', 'resolución', 'resolución del contrato'], it: ['recesso', 'risoluzione', 'recesso e risoluzione'],
  pt: ['rescisão', 'resolução', 'denúncia'], nl: ['beëindiging', 'opzegging', 'duur en beëindiging'], de: ['kündigung', 'laufzeit und kündigung', 'beendigung', 'vertragsbeendigung'],
  sv: ['uppsägning', 'avtalstid och uppsägning'], no: ['oppsigelse'], da: ['opsigelse', 'ophør'], fi: ['irtisanominen', 'sopimuksen päättyminen'], pl: ['rozwiązanie umowy', 'wypowiedzenie'],
  cs: ['ukončení smlouvy', 'výpověď'], hu: ['felmondás', 'megszűnés', 'a szerződés megszűnése'], tr: ['fesih', 'sözleşmenin feshi'], id: ['pengakhiran', 'pemutusan'],
  vi: ['chấm dứt hợp đồng'], zh: ['终止', '合同终止'], ja: ['解除', '契約の解除', '解約'], ko: ['해지', '계약 해지'], ar: ['الإنهاء', 'إنهاء العقد'], el: ['καταγγελία', 'λύση'],
});

export const RENEWAL_HEADINGS = labels({
  en: ['renewal', 'renewals', 'extension', 'renewal term', 'option to renew'], fr: ['renouvellement', 'reconduction', 'tacite reconduction'], es: ['renovación', 'prórroga'],
  it: ['rinnovo', 'proroga'], pt: ['renovação', 'prorrogação'], nl: ['verlenging'], de: ['verlängerung', 'vertragsverlängerung'], sv: ['förlängning'], no: ['fornyelse', 'forlengelse'],
  da: ['fornyelse', 'forlængelse'], fi: ['uusiminen', 'jatkaminen'], pl: ['przedłużenie', 'odnowienie'], cs: ['prodloužení'], hu: ['megújítás', 'meghosszabbítás'], tr: ['yenileme', 'uzatma'],
  id: ['perpanjangan'], vi: ['gia hạn'], zh: ['续约', '续期'], ja: ['更新', '契約更新'], ko: ['갱신', '계약 갱신'], ar: ['التجديد'], el: ['ανανέωση'],
});

export const OBLIGATION_HEADINGS = labels({
  en: ['obligations', 'obligation', 'responsibilities', 'covenants', 'duties', 'lessee s obligations', 'undertakings'],
  fr: ['obligations', 'obligations des parties'], es: ['obligaciones'], it: ['obblighi'], pt: ['obrigações'], nl: ['verplichtingen'], de: ['pflichten', 'verpflichtungen'],
  sv: ['skyldigheter', 'åtaganden'], no: ['forpliktelser', 'plikter'], da: ['forpligtelser'], fi: ['velvollisuudet', 'velvoitteet'], pl: ['obowiązki', 'zobowiązania'], cs: ['povinnosti'],
  hu: ['kötelezettségek'], tr: ['yükümlülükler'], id: ['kewajiban'], vi: ['nghĩa vụ'], zh: ['义务'], ja: ['義務'], ko: ['의무'], ar: ['الالتزامات'], el: ['υποχρεώσεις'],
});

/** Words that name a document an agreement (`Agreement`, `Dienstleistungsvertrag`, `Umowa`, `合同`), matched anywhere in a title line. */
export const AGREEMENT_WORDS = ['agreement', 'contract', 'lease', 'addendum', 'memorandum', 'nda', 'terms', 'deed', 'licence', 'license', 'engagement letter',
  'contrat', 'convention', 'bail', 'contrato', 'convenio', 'contratto', 'accordo', 'acordo', 'overeenkomst', 'vertrag', 'vereinbarung', 'avtal', 'avtale', 'aftale', 'kontrakt',
  'sopimus', 'umowa', 'smlouva', 'szerződés', 'sözleşme', 'perjanjian', 'kontrak', 'hợp đồng', '合同', '协议', '協議', '契約書', '契約', '계약서', 'عقد', 'اتفاقية', 'σύμβαση', 'συμφωνητικό'];

/** Labels of a notice period (`Notice period: 30 days`, `Kündigungsfrist: 3 Monate`, `Préavis : 30 jours`). */
export const NOTICE_LABELS = labels({
  en: ['notice period', 'notice', 'cancellation notice', 'notice required', 'termination notice', 'notice of non renewal'], fr: ['préavis', 'délai de préavis'],
  es: ['preaviso', 'plazo de preaviso'], it: ['preavviso', 'termine di preavviso'], pt: ['aviso prévio', 'pré aviso', 'prazo de aviso prévio'], nl: ['opzegtermijn'],
  de: ['kündigungsfrist'], sv: ['uppsägningstid'], no: ['oppsigelsestid', 'oppsigelsesfrist'], da: ['opsigelsesvarsel', 'opsigelsesfrist'], fi: ['irtisanomisaika'],
  pl: ['okres wypowiedzenia'], cs: ['výpovědní lhůta', 'výpovědní doba'], hu: ['felmondási idő'], tr: ['ihbar süresi', 'fesih bildirim süresi'], id: ['masa pemberitahuan'],
  vi: ['thời hạn báo trước'], zh: ['通知期', '提前通知期'], ja: ['解約予告期間', '予告期間'], ko: ['해지 통지 기간'], ar: ['فترة الإشعار'], el: ['προθεσμία καταγγελίας'],
});

/** Words of notice and cancellation in other languages than English, for sentences that state a notice period. */
export const NOTICE_WORDS = ['kündig', 'préavis', 'résili', 'preaviso', 'preavviso', 'disdetta', 'aviso prévio', 'opzeg', 'uppsäg', 'oppsig', 'opsig', 'irtisano', 'wypowiedz',
  'výpověď', 'výpovědi', 'felmond', 'fesih', 'ihbar', 'pemberitahuan', 'báo trước', '通知', '予告', '통지', 'إشعار', 'καταγγελ'];

/** Units of a period, by language: what `3 Monate`, `30 jours`, `2 semanas`, `30日`, `3개월` count. */
export const PERIOD_UNITS: Record<'day' | 'week' | 'month', string[]> = {
  day: ['days', 'day', 'tage', 'tagen', 'tag', 'jours', 'jour', 'días', 'día', 'dias', 'dia', 'giorni', 'giorno', 'dagen', 'dag', 'dagar', 'dager', 'dage', 'päivää', 'päivä', 'dni', 'dnů', 'dní',
    'dny', 'nap', 'napon', 'gün', 'hari', 'ngày', '日', '天', '일', 'يوما', 'يومًا', 'يوم', 'أيام', 'ημέρες', 'ημερών'],
  week: ['weeks', 'week', 'wochen', 'woche', 'semaines', 'semaine', 'semanas', 'semana', 'settimane', 'settimana', 'weken', 'veckor', 'vecka', 'uker', 'uke', 'uger', 'uge', 'viikkoa',
    'viikko', 'tygodnie', 'tygodni', 'tydzień', 'týdny', 'týdnů', 'hét', 'hetet', 'hafta', 'minggu', 'tuần', '週間', '周', '주', 'أسابيع', 'εβδομάδες'],
  month: ['months', 'month', 'monate', 'monaten', 'monat', 'mois', 'meses', 'mes', 'mesi', 'mese', 'maanden', 'maand', 'månader', 'månad', 'måneder', 'måned', 'kuukautta', 'kuukausi',
    'miesiące', 'miesięcy', 'miesiąc', 'měsíce', 'měsíců', 'hónap', 'ay', 'bulan', 'tháng', 'ヶ月', 'か月', 'カ月', '个月', '個月', '개월', 'أشهر', 'شهر', 'μήνες', 'μηνών'],
};

/** Automatic renewal said in other languages than English: renews by itself, or does not. */
export const AUTO_RENEWAL_PHRASES = {
  yes: ['verlängert sich automatisch', 'verlängert sich stillschweigend', 'automatisch verlängert', 'se renouvelle automatiquement', 'renouvelé automatiquement', 'tacite reconduction',
    'reconduit tacitement', 'se renueva automáticamente', 'renovará automáticamente', 'prórroga automática', 'si rinnova automaticamente', 'tacitamente rinnovato', 'rinnovo tacito',
    'renova-se automaticamente', 'renovado automaticamente', 'renovação automática', 'wordt automatisch verlengd', 'stilzwijgend verlengd', 'förlängs automatiskt', 'fornyes automatisk',
    'forlænges automatisk', 'fornyes automatisk', 'uusiutuu automaattisesti', 'jatkuu automaattisesti', 'przedłuża się automatycznie', 'ulega automatycznemu przedłużeniu',
    'automaticky prodlužuje', 'automaticky prodlouží', 'automatikusan megújul', 'automatikusan meghosszabbodik', 'otomatik olarak yenilenir', 'kendiliğinden uzar',
    'diperpanjang secara otomatis', 'otomatis diperpanjang', 'tự động gia hạn', '自动续订', '自动续约', '自動更新', '자동 갱신', '자동으로 갱신', 'يتجدد تلقائيا', 'يتجدد تلقائيًا',
    'ανανεώνεται αυτόματα'],
  no: ['verlängert sich nicht automatisch', 'keine automatische verlängerung', 'ne se renouvelle pas automatiquement', 'sans tacite reconduction', 'no se renueva automáticamente',
    'non si rinnova automaticamente', 'não se renova automaticamente', 'wordt niet automatisch verlengd', 'förlängs inte automatiskt', 'fornyes ikke automatisk', 'forlænges ikke automatisk',
    'nie przedłuża się automatycznie', 'neprodlužuje automaticky', 'nem újul meg automatikusan', 'otomatik olarak yenilenmez', 'tidak diperpanjang secara otomatis',
    'không tự động gia hạn', '不自动续', '自動更新しない', '자동 갱신되지 않', 'لا يتجدد تلقائيا', 'δεν ανανεώνεται αυτόματα'],
};

/** Words of a price or fee in other languages than English (`Der Preis beträgt ...`, `Le montant annuel ...`). */
export const PRICE_WORDS = ['preis', 'gebühr', 'betrag', 'prix', 'tarif', 'montant', 'precio', 'importe', 'cuota', 'prezzo', 'canone', 'importo', 'preço', 'valor', 'mensalidade',
  'prijs', 'bedrag', 'pris', 'belopp', 'beløp', 'beløb', 'hinta', 'cena', 'kwota', 'opłata', 'částka', 'ár', 'díj', 'fiyat', 'ücret', 'tutar', 'harga', 'biaya', 'giá', 'phí',
  '价格', '费用', '料金', '価格', '금액', '요금', 'السعر', 'الرسوم', 'τιμή'];

/** How often a subscription is billed, in other languages than English. */
export const BILLING_PERIOD_WORDS: Record<'monthly' | 'quarterly' | 'annual', string[]> = {
  monthly: ['monatlich', 'pro monat', 'je monat', 'mensuel', 'mensuelle', 'par mois', 'mensual', 'al mes', 'por mes', 'mensile', 'al mese', 'mensal', 'por mês', 'maandelijks',
    'per maand', 'månadsvis', 'per månad', 'i måneden', 'per måned', 'om måneden', 'kuukausittain', 'kuukaudessa', 'miesięcznie', 'za miesiąc', 'měsíčně', 'havonta', 'havi', 'aylık',
    'bulanan', 'per bulan', 'hàng tháng', '每月', '月額', '毎月', '매월', '월'],
  quarterly: ['vierteljährlich', 'quartalsweise', 'pro quartal', 'trimestriel', 'par trimestre', 'trimestral', 'trimestrale', 'per kwartaal', 'kvartalsvis', 'per kvartal',
    'neljännesvuosittain', 'kwartalnie', 'čtvrtletně', 'negyedévente', 'üç aylık', 'triwulanan', 'hàng quý', '每季度', '四半期ごと', '분기별'],
  annual: ['jährlich', 'pro jahr', 'je jahr', 'annuel', 'annuelle', 'par an', 'anual', 'al año', 'por año', 'annuale', 'all anno', "all'anno", 'por ano', 'jaarlijks', 'per jaar',
    'årligen', 'per år', 'årlig', 'om året', 'vuosittain', 'vuodessa', 'rocznie', 'za rok', 'ročně', 'évente', 'éves', 'yıllık', 'tahunan', 'per tahun', 'hàng năm', '每年', '年額',
    '毎年', '매년', '연간'],
};

/** What a subscription counts, in other languages than English (`25 Nutzer`, `40 utilisateurs`, `10 licencias`). */
export const SEAT_WORDS = ['nutzer', 'benutzer', 'lizenzen', 'arbeitsplätze', 'utilisateurs', 'licences', 'postes', 'usuarios', 'licencias', 'puestos', 'utenti', 'licenze',
  'usuários', 'licenças', 'gebruikers', 'licenties', 'användare', 'licenser', 'brukere', 'lisenser', 'brugere', 'käyttäjää', 'käyttäjälle', 'lisenssiä', 'użytkowników',
  'licencji', 'stanowisk', 'uživatelů', 'licencí', 'felhasználó', 'felhasználói', 'kullanıcı', 'lisans', 'pengguna', 'lisensi', 'người dùng', '用户', '個ユーザー', 'ユーザー',
  'ライセンス', '명', '사용자', 'مستخدم', 'مستخدمين', 'χρήστες'];

/** The word a subscription is named after (`Ihr Abonnement Cloudhafen Business`, `votre abonnement Nuvola Pro`). */
export const SUBSCRIPTION_WORDS = ['abonnement', 'abo', 'abonnemang', 'suscripción', 'abbonamento', 'assinatura', 'subskrypcja', 'předplatné', 'előfizetés', 'abonelik', 'langganan',
  'gói', 'lisenssi'];

/** Words that say what kind of commercial document it is, in other languages than English (by the renewal route's closed set). */
export const DOCUMENT_KIND_WORDS: Record<'amendment' | 'order_form' | 'renewal_notice' | 'master_agreement' | 'terms_of_service' | 'quote', string[]> = {
  amendment: ['nachtrag', 'änderungsvereinbarung', 'avenant', 'adenda', 'emendamento', 'aditivo', 'aanvulling', 'tillägg', 'tillæg', 'aneks', 'dodatek ke smlouvě', 'módosítás', 'tadil', 'adendum'],
  order_form: ['bestellformular', 'auftragsformular', 'bon de commande', 'formulario de pedido', 'orden de compra', 'modulo d ordine', 'ordem de compra', 'bestelformulier', 'beställning',
    'zamówienie', 'objednávka', 'megrendelőlap', 'sipariş formu', 'formulir pesanan', 'đơn đặt hàng', '订购单', '注文書', '주문서'],
  renewal_notice: ['verlängerung', 'verlängerungsmitteilung', 'renouvellement', 'avis de renouvellement', 'renovación', 'aviso de renovación', 'rinnovo', 'avviso di rinnovo', 'renovação',
    'verlenging', 'förnyelse', 'fornyelse', 'uusiminen', 'odnowienie', 'prodloužení', 'megújítás', 'yenileme', 'perpanjangan', 'gia hạn', '续订', '续约', '更新のお知らせ', '갱신 안내'],
  master_agreement: ['rahmenvertrag', 'contrat cadre', 'contrato marco', 'contratto quadro', 'contrato quadro', 'raamovereenkomst', 'ramavtal', 'rammeavtale', 'rammeaftale',
    'puitesopimus', 'umowa ramowa', 'rámcová smlouva', 'keretszerződés', 'çerçeve sözleşme', 'perjanjian induk', 'hợp đồng khung', '框架协议', '基本契約', '기본계약'],
  terms_of_service: ['allgemeine geschäftsbedingungen', 'agb', 'nutzungsbedingungen', 'conditions générales', 'términos y condiciones', 'condiciones generales', 'condizioni generali',
    'termos de uso', 'termos e condições', 'algemene voorwaarden', 'allmänna villkor', 'vilkår', 'käyttöehdot', 'regulamin', 'obchodní podmínky', 'általános szerződési feltételek',
    'kullanım koşulları', 'syarat dan ketentuan', 'điều khoản', '服务条款', '利用規約', '이용약관'],
  quote: ['angebot', 'kostenvoranschlag', 'devis', 'presupuesto', 'cotización', 'preventivo', 'orçamento', 'offerte', 'offert', 'tilbud', 'tarjous', 'oferta', 'nabídka', 'árajánlat',
    'teklif', 'penawaran', 'báo giá', '报价单', '見積書', '견적서'],
};
