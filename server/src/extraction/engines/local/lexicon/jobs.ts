// Words of job postings, each concept once, by language: field labels, list headings, kinds of employment and pay periods.
import { labels } from './words.js';

export const JOB_TITLE_LABELS = labels({
  en: ['job title', 'title', 'position', 'role', 'job', 'vacancy', 'position title', 'post'],
  fr: ['intitulé du poste', 'poste', 'titre du poste'], es: ['puesto', 'cargo', 'vacante', 'título del puesto'], it: ['posizione', 'ruolo', 'titolo'],
  pt: ['cargo', 'vaga', 'função'], nl: ['functie', 'functietitel', 'vacature'], de: ['stelle', 'position', 'stellenbezeichnung', 'jobtitel'], sv: ['tjänst', 'befattning', 'roll'],
  no: ['stilling', 'stillingstittel'], da: ['stilling', 'jobtitel'], fi: ['tehtävä', 'tehtävänimike'], pl: ['stanowisko'], cs: ['pozice', 'pracovní pozice'], hu: ['pozíció', 'munkakör'],
  tr: ['pozisyon', 'iş unvanı'], id: ['posisi', 'jabatan'], vi: ['vị trí', 'chức danh'], zh: ['职位', '職位', '岗位', '职位名称'], ja: ['職種', '募集職種', 'ポジション'],
  ko: ['직무', '모집 직무', '포지션'], ar: ['المسمى الوظيفي', 'الوظيفة'], el: ['θέση'],
});

export const COMPANY_LABELS = labels({
  en: ['company', 'employer', 'organisation', 'organization', 'hiring company', 'company name', 'firm', 'client'],
  fr: ['entreprise', 'société', 'employeur'], es: ['empresa', 'compañía', 'empleador'], it: ['azienda', 'società', 'datore di lavoro'], pt: ['empresa', 'empregador'],
  nl: ['bedrijf', 'werkgever', 'organisatie'], de: ['unternehmen', 'firma', 'arbeitgeber'], sv: ['företag', 'arbetsgivare'], no: ['selskap', 'arbeidsgiver', 'bedrift'],
  da: ['virksomhed', 'arbejdsgiver'], fi: ['yritys', 'työnantaja'], pl: ['firma', 'pracodawca'], cs: ['společnost', 'zaměstnavatel'], hu: ['cég', 'munkáltató'],
  tr: ['şirket', 'işveren'], id: ['perusahaan'], vi: ['công ty'], zh: ['公司', '公司名称', '企业'], ja: ['会社名', '企業名'], ko: ['회사', '회사명'], ar: ['الشركة'], el: ['εταιρεία'],
});

export const LOCATION_LABELS = labels({
  en: ['location', 'based in', 'job location', 'office', 'where', 'city', 'place of work', 'work location', 'location s'],
  fr: ['lieu', 'lieu de travail', 'localisation', 'ville'], es: ['ubicación', 'lugar de trabajo', 'localidad', 'ciudad'], it: ['sede', 'luogo di lavoro', 'località'],
  pt: ['local', 'local de trabalho', 'localização', 'cidade'], nl: ['locatie', 'standplaats', 'werklocatie', 'plaats'], de: ['standort', 'arbeitsort', 'einsatzort', 'ort'],
  sv: ['ort', 'placering', 'arbetsort'], no: ['sted', 'arbeidssted'], da: ['arbejdssted', 'lokation'], fi: ['sijainti', 'työpaikka', 'paikkakunta'],
  pl: ['lokalizacja', 'miejsce pracy'], cs: ['místo výkonu práce', 'lokalita', 'místo'], hu: ['munkavégzés helye', 'helyszín'], tr: ['konum', 'lokasyon', 'çalışma yeri'],
  id: ['lokasi', 'penempatan'], vi: ['địa điểm', 'nơi làm việc'], zh: ['工作地点', '地点'], ja: ['勤務地'], ko: ['근무지', '근무 지역'], ar: ['الموقع', 'مكان العمل'],
  el: ['τοποθεσία'],
});

export const EMPLOYMENT_TYPE_LABELS = labels({
  en: ['type', 'employment type', 'job type', 'hours', 'contract', 'contract type', 'employment', 'schedule', 'position type', 'work type', 'engagement'],
  fr: ['type de contrat', 'contrat'], es: ['tipo de contrato', 'jornada', 'contrato'], it: ['tipo di contratto', 'contratto'], pt: ['tipo de contrato', 'regime'],
  nl: ['dienstverband', 'type dienstverband', 'contract'], de: ['anstellungsart', 'beschäftigungsart', 'vertragsart', 'arbeitszeit'], sv: ['anställningsform', 'omfattning'],
  no: ['stillingstype', 'ansettelsesform'], da: ['ansættelsesform'], fi: ['työsuhde', 'työsuhteen tyyppi'], pl: ['rodzaj umowy', 'forma zatrudnienia', 'wymiar pracy'],
  cs: ['typ úvazku', 'úvazek'], hu: ['foglalkoztatás jellege'], tr: ['çalışma şekli', 'istihdam türü'], id: ['tipe pekerjaan', 'jenis pekerjaan'], vi: ['hình thức làm việc'],
  zh: ['工作性质', '雇佣类型'], ja: ['雇用形態'], ko: ['고용 형태'], ar: ['نوع الوظيفة'], el: ['τύπος απασχόλησης'],
});

export const PAY_LABELS = labels({
  en: ['salary', 'pay', 'compensation', 'rate', 'wage', 'salary range', 'pay range', 'remuneration', 'hourly rate', 'base salary', 'pay rate', 'day rate', 'package'],
  fr: ['salaire', 'rémunération'], es: ['salario', 'sueldo', 'remuneración'], it: ['retribuzione', 'stipendio', 'ral'], pt: ['salário', 'remuneração'],
  nl: ['salaris', 'salarisindicatie', 'beloning'], de: ['gehalt', 'vergütung', 'jahresgehalt', 'lohn'], sv: ['lön'], no: ['lønn'], da: ['løn'], fi: ['palkka'],
  pl: ['wynagrodzenie', 'widełki'], cs: ['mzda', 'plat'], hu: ['fizetés', 'bér'], tr: ['maaş', 'ücret'], id: ['gaji'], vi: ['mức lương', 'lương'], zh: ['薪资', '薪酬', '工资'],
  ja: ['給与', '年収'], ko: ['급여', '연봉'], ar: ['الراتب'], el: ['μισθός', 'αποδοχές'],
});

export const POSTED_LABELS = labels({
  en: ['posted', 'date posted', 'posted on', 'published', 'posting date', 'date', 'listed', 'date published', 'posted date'],
  fr: ['publié le', 'date de publication'], es: ['publicado', 'fecha de publicación'], it: ['pubblicato', 'data di pubblicazione'], pt: ['publicado em', 'data de publicação'],
  nl: ['geplaatst', 'datum geplaatst'], de: ['veröffentlicht', 'veröffentlicht am'], sv: ['publicerad'], no: ['publisert'], da: ['opslået'], fi: ['julkaistu'],
  pl: ['data publikacji', 'opublikowano'], cs: ['zveřejněno'], hu: ['közzétéve'], tr: ['yayın tarihi'], id: ['tanggal posting'], vi: ['ngày đăng'], zh: ['发布日期'],
  ja: ['掲載日'], ko: ['게시일'], ar: ['تاريخ النشر'], el: ['ημερομηνία δημοσίευσης'],
});

export const WORKPLACE_LABELS = labels({
  en: ['workplace', 'remote', 'work model', 'work arrangement', 'workplace type', 'work mode', 'location type', 'arrangement'],
  fr: ['télétravail', 'mode de travail'], es: ['modalidad', 'modalidad de trabajo'], it: ['modalità di lavoro'], pt: ['modelo de trabalho', 'modalidade'],
  nl: ['werkvorm', 'thuiswerken'], de: ['arbeitsmodell', 'homeoffice'], sv: ['distansarbete'], pl: ['tryb pracy', 'model pracy'], cs: ['forma práce'],
  tr: ['çalışma modeli'], id: ['sistem kerja'], zh: ['办公方式'], ja: ['勤務形態'], ko: ['근무 형태'],
});

export const REQUIREMENT_HEADINGS = labels({
  en: ['requirements', 'qualifications', 'what we re looking for', 'what we are looking for', 'essential', 'you have', 'must have', 'must haves', 'skills', 'about you',
    'who you are', 'what you bring', 'what you ll bring', 'what you will bring', 'required', 'requirements and qualifications', 'experience', 'your profile',
    'minimum qualifications', 'you ll need', 'you will need', 'we need', 'skills and experience', 'ideal candidate', 'key requirements', 'candidate profile'],
  fr: ['profil recherché', 'profil', 'compétences', 'exigences', 'qualifications requises', 'votre profil'], es: ['requisitos', 'perfil', 'buscamos', 'perfil del candidato'],
  it: ['requisiti', 'profilo', 'competenze richieste', 'cosa cerchiamo'], pt: ['requisitos', 'perfil', 'qualificações', 'o que procuramos'],
  nl: ['functie eisen', 'functie-eisen', 'wat vragen wij', 'wat wij vragen', 'profiel', 'jouw profiel', 'eisen'], de: ['anforderungen', 'ihr profil', 'dein profil', 'profil', 'qualifikationen', 'was du mitbringst', 'was sie mitbringen'],
  sv: ['krav', 'kvalifikationer', 'vi söker dig som', 'din profil'], no: ['kvalifikasjoner', 'krav', 'vi ser etter'], da: ['kvalifikationer', 'krav', 'vi forventer'],
  fi: ['vaatimukset', 'odotamme sinulta', 'pätevyysvaatimukset'], pl: ['wymagania', 'oczekujemy', 'nasze wymagania', 'czego oczekujemy'], cs: ['požadavky', 'požadujeme', 'co očekáváme'],
  hu: ['elvárások', 'követelmények', 'amit elvárunk'], tr: ['aranan nitelikler', 'gereksinimler', 'nitelikler'], id: ['persyaratan', 'kualifikasi'], vi: ['yêu cầu', 'yêu cầu công việc'],
  zh: ['任职要求', '岗位要求', '职位要求'], ja: ['応募資格', '必須スキル', '求める人物像'], ko: ['자격 요건', '지원 자격', '필수 요건'], ar: ['المتطلبات', 'المؤهلات'], el: ['απαιτήσεις', 'προσόντα'],
});

export const RESPONSIBILITY_HEADINGS = labels({
  en: ['responsibilities', 'duties', 'what you ll do', 'what you will do', 'the role', 'your role', 'key tasks', 'day to day', 'in this role', 'in this role you will',
    'your responsibilities', 'key responsibilities', 'main duties', 'tasks', 'you will', 'role', 'what the job involves', 'job duties', 'your day', 'the job'],
  fr: ['missions', 'vos missions', 'responsabilités', 'description du poste', 'vos responsabilités'], es: ['funciones', 'responsabilidades', 'tus funciones', 'tareas'],
  it: ['mansioni', 'responsabilità', 'attività', 'cosa farai'], pt: ['responsabilidades', 'atividades', 'funções', 'o que você vai fazer'],
  nl: ['taken', 'verantwoordelijkheden', 'wat ga je doen', 'functieomschrijving'], de: ['aufgaben', 'ihre aufgaben', 'deine aufgaben', 'verantwortlichkeiten', 'das erwartet dich'],
  sv: ['arbetsuppgifter', 'ansvarsområden', 'om tjänsten'], no: ['arbeidsoppgaver', 'ansvarsområder'], da: ['arbejdsopgaver', 'ansvarsområder'],
  fi: ['tehtävät', 'työtehtävät', 'vastuualueet'], pl: ['obowiązki', 'zakres obowiązków', 'twoje zadania', 'zadania'], cs: ['náplň práce', 'povinnosti', 'co budete dělat'],
  hu: ['feladatok', 'főbb feladatok', 'feladataid'], tr: ['sorumluluklar', 'görevler', 'iş tanımı'], id: ['tanggung jawab', 'deskripsi pekerjaan', 'tugas'],
  vi: ['mô tả công việc', 'trách nhiệm', 'nhiệm vụ'], zh: ['岗位职责', '工作职责', '职位描述', '工作内容'], ja: ['業務内容', '仕事内容', '職務内容'], ko: ['담당 업무', '주요 업무'],
  ar: ['المسؤوليات', 'المهام'], el: ['αρμοδιότητες', 'καθήκοντα'],
});

export const BENEFIT_HEADINGS = labels({
  en: ['benefits', 'perks', 'we offer', 'what we offer', 'why join', 'why join us', 'perks and benefits', 'benefits and perks', 'what s in it for you', 'what you get', 'our offer',
    'we provide', 'rewards', 'you ll get', 'you will get', 'why work with us'],
  fr: ['avantages', 'nous offrons', 'ce que nous offrons', 'ce que nous proposons'], es: ['beneficios', 'ofrecemos', 'qué ofrecemos'], it: ['benefit', 'offriamo', 'cosa offriamo'],
  pt: ['benefícios', 'oferecemos', 'o que oferecemos'], nl: ['wat bieden wij', 'wij bieden', 'arbeidsvoorwaarden'], de: ['wir bieten', 'das bieten wir', 'unser angebot', 'benefits', 'vorteile'],
  sv: ['vi erbjuder', 'förmåner'], no: ['vi tilbyr', 'goder'], da: ['vi tilbyder', 'fordele'], fi: ['tarjoamme', 'edut'], pl: ['oferujemy', 'benefity', 'co oferujemy'],
  cs: ['nabízíme', 'benefity', 'co nabízíme'], hu: ['amit kínálunk', 'juttatások', 'kínálunk'], tr: ['yan haklar', 'sunduklarımız'], id: ['benefit', 'fasilitas', 'yang kami tawarkan'],
  vi: ['quyền lợi', 'phúc lợi'], zh: ['福利待遇', '福利'], ja: ['福利厚生', '待遇'], ko: ['복리후생', '혜택'], ar: ['المزايا'], el: ['παροχές', 'προσφέρουμε'],
});

/** Kinds of employment in words, by the closed set they map to (phrases, matched as whole words). */
export const EMPLOYMENT_TYPE_WORDS: Record<'internship' | 'part_time' | 'temporary' | 'contract' | 'full_time', string[]> = {
  internship: ['intern', 'internship', 'werkstudent', 'werkstudentin', 'praktikum', 'stagiaire', 'offre de stage', 'prácticas', 'becario', 'tirocinio', 'stagista', 'estágio',
    'estagiário', 'stagiair', 'praktikant', 'harjoittelu', 'harjoittelija', 'staż', 'stażysta', 'praktyki', 'stáž', 'gyakornok', 'stajyer', 'magang', 'thực tập', '实习',
    'インターン', '인턴'],
  part_time: ['part time', 'part-time', 'parttime', 'teilzeit', 'temps partiel', 'media jornada', 'tiempo parcial', 'tempo parziale', 'meio período', 'tempo parcial', 'deeltijd',
    'deltid', 'osa-aikainen', 'niepełny etat', 'pół etatu', 'částečný úvazek', 'részmunkaidő', 'yarı zamanlı', 'paruh waktu', 'bán thời gian', '兼职', 'パートタイム', 'アルバイト',
    '파트타임'],
  temporary: ['temporary', 'temp', 'fixed term', 'fixed-term', 'seasonal', 'cover', 'befristet', 'cdd', 'contrato temporal', 'tempo determinato', 'contrato temporário',
    'tijdelijk', 'visstidsanställning', 'vikariat', 'midlertidig', 'määräaikainen', 'na czas określony', 'na dobu určitou', 'határozott idejű', 'geçici', 'kontrak sementara',
    'tạm thời', '临时', '期間限定', '계약직'],
  contract: ['contract', 'contractor', 'freelance', 'b2b', 'consultant', 'consultancy', 'freelancer', 'autónomo', 'zzp', 'umowa zlecenie', 'kontrakt b2b', 'serbest çalışan',
    'pekerja lepas', '自由职业', 'フリーランス', '프리랜서'],
  full_time: ['full time', 'full-time', 'fulltime', 'permanent', 'vollzeit', 'unbefristet', 'fte', 'cdi', 'temps plein', 'tiempo completo', 'jornada completa', 'contrato indefinido',
    'tempo pieno', 'tempo indeterminato', 'tempo integral', 'voltijd', 'vast contract', 'vaste baan', 'heltid', 'tillsvidareanställning', 'fast anställning', 'fast ansettelse',
    'fastansættelse', 'fuldtid', 'kokoaikainen', 'vakituinen', 'pełny etat', 'pełen etat', 'umowa o pracę', 'plný úvazek', 'teljes munkaidő', 'tam zamanlı', 'penuh waktu',
    'toàn thời gian', '全职', '正社員', 'フルタイム', '정규직'],
};

/**
 * Pay periods, by the closed set they map to: `units` follow a figure's `per`, `/` or its other languages' words
 * (`/Monat`, `par mois`, `por hora`, `za godzinę`), `words` say the period alone (`hourly`, `mensuel`, `jährlich`, `年収`).
 */
export const PAY_PERIOD_WORDS: Record<'hour' | 'day' | 'week' | 'month' | 'year', { units: string[]; words: string[] }> = {
  hour: { units: ['hour', 'hr', 'h', 'stunde', 'std', 'heure', 'hora', 'ora', 'uur', 'timme', 'tim', 'time', 'tunti', 'godzinę', 'godz', 'hodinu', 'hod', 'óra', 'saat', 'jam', 'giờ'],
    words: ['hourly', 'ph', 'stündlich', 'horaire', 'stundenlohn', 'tuntipalkka', 'godzinowa', 'hodinová', 'órabér', 'saatlik', '时薪', '時給', '시급'] },
  day: { units: ['day', 'tag', 'jour', 'día', 'giorno', 'dia', 'dag', 'päivä', 'dzień', 'den', 'nap', 'gün', 'hari', 'ngày'],
    words: ['daily', 'day rate', 'per diem', 'tagessatz', 'täglich', 'journalier', 'tjm', 'diario', 'giornaliero', 'dagtarief', 'dagpris', 'päiväpalkka', 'dniówka', '日薪', '日給', '일급'] },
  week: { units: ['week', 'woche', 'semaine', 'semana', 'settimana', 'vecka', 'uke', 'uge', 'viikko', 'tydzień', 'týden', 'hét', 'hafta', 'minggu', 'tuần'],
    words: ['weekly', 'wöchentlich', 'hebdomadaire', 'semanal', 'settimanale', 'wekelijks', 'viikoittain', 'tygodniowo', 'haftalık', '周薪', '週給', '주급'] },
  month: { units: ['month', 'mo', 'monat', 'mois', 'mes', 'mese', 'mês', 'maand', 'mnd', 'månad', 'mån', 'måned', 'md', 'kuukausi', 'kk', 'miesiąc', 'mies', 'mc', 'měsíc', 'hó', 'hónap', 'ay', 'bulan', 'tháng'],
    words: ['monthly', 'pcm', 'monatlich', 'brutto monatlich', 'mensuel', 'mensuelle', 'mensual', 'mensile', 'mensal', 'maandelijks', 'per maand', 'månadslön', 'månedsløn', 'månedslønn', 'kuukausipalkka',
      'miesięcznie', 'měsíčně', 'havi', 'havonta', 'aylık', 'bulanan', 'hàng tháng', '月薪', '月給', '월급', 'mensuales', 'mensais', 'mensuels', 'mensili'] },
  year: { units: ['year', 'annum', 'yr', 'jahr', 'an', 'année', 'año', 'anno', 'ano', 'jaar', 'år', 'vuosi', 'rok', 'év', 'yıl', 'tahun', 'năm'],
    words: ['annual', 'annually', 'p a', 'pa', 'yearly', 'jährlich', 'jahresgehalt', 'brutto', 'annuel', 'annuelle', 'anual', 'annuo', 'annua', 'ral', 'jaarlijks', 'bruto per jaar', 'årslön', 'årsløn', 'årslønn',
      'vuosipalkka', 'rocznie', 'ročně', 'éves', 'évente', 'yıllık', 'tahunan', 'hàng năm', '年薪', '年収', '연봉', 'anuales', 'anuais', 'annuels', 'annuali'] },
};

/** Words between a figure and its period's unit (`per hour`, `/Monat`, `par mois`, `pro Jahr`, `za godzinę`, `al mese`, `i måneden`). */
export const PER_WORDS = ['per', 'a', 'an', 'each', 'pro', 'je', 'par', 'por', 'al', 'à', 'au', 'por', 'ao', 'p', 'i', 'om', 'w', 'za', 'na', 'havonta', 'başına', 'mỗi', '每'];

/** Where the work is done, in other languages than English: fully remote, or on site (hybrid counts as on site). */
export const WORKPLACE_WORDS = {
  remote: ['télétravail', 'à distance', 'full remote', 'remoto', 'teletrabajo', 'da remoto', 'telelavoro', 'thuiswerken', 'op afstand', 'homeoffice', 'home-office', 'mobiles arbeiten',
    'distansarbete', 'fjernarbeid', 'fjernarbejde', 'etätyö', 'praca zdalna', 'zdalnie', 'práce z domova', 'na dálku', 'távmunka', 'uzaktan', 'kerja jarak jauh', 'từ xa', '远程', 'リモート',
    '재택', 'عن بعد', 'εξ αποστάσεως'],
  onSite: ['hybride', 'híbrido', 'ibrido', 'hybryda', 'hybrydowo', 'hibrit', 'hibrid', 'sur site', 'presencial', 'in sede', 'op locatie', 'vor ort', 'på plats', 'på kontoret', 'stacjonarnie',
    'stacjonarna', 'na místě', 'helyszíni', 'ofiste', 'di kantor', 'tại văn phòng', '混合办公', '现场办公', 'ハイブリッド', '出社', '하이브리드'],
};
