// The names of the months in the languages the engine reads, as data: each month's names and abbreviations, by
// language. A name that is also an everyday word somewhere (`mar` is the sea in Spanish, `out` English, `maja` a first
// name) counts as a month only with a year beside it (`YEAR_NEEDED`).

type Months = readonly [string[], string[], string[], string[], string[], string[], string[], string[], string[], string[], string[], string[]];

const BY_LANGUAGE: Record<string, Months> = {
  en: [['january', 'jan'], ['february', 'feb'], ['march', 'mar'], ['april', 'apr'], ['may'], ['june', 'jun'], ['july', 'jul'], ['august', 'aug'],
    ['september', 'sep', 'sept'], ['october', 'oct'], ['november', 'nov'], ['december', 'dec']],
  de: [['januar', 'jänner', 'jän'], ['februar', 'feber', 'febr'], ['märz', 'maerz', 'mrz'], ['april'], ['mai'], ['juni'], ['juli'], ['august'],
    ['september'], ['oktober', 'okt'], ['november'], ['dezember', 'dez']],
  fr: [['janvier', 'janv'], ['février', 'févr'], ['mars'], ['avril', 'avr'], ['mai'], ['juin'], ['juillet', 'juil'], ['août'], ['septembre'],
    ['octobre'], ['novembre'], ['décembre', 'déc']],
  es: [['enero', 'ene'], ['febrero'], ['marzo'], ['abril', 'abr'], ['mayo'], ['junio'], ['julio'], ['agosto', 'ago'], ['septiembre', 'setiembre'],
    ['octubre'], ['noviembre'], ['diciembre', 'dic']],
  it: [['gennaio', 'gen'], ['febbraio'], ['marzo'], ['aprile'], ['maggio', 'mag'], ['giugno', 'giu'], ['luglio', 'lug'], ['agosto'], ['settembre', 'set'],
    ['ottobre', 'ott'], ['novembre'], ['dicembre']],
  pt: [['janeiro'], ['fevereiro', 'fev'], ['março'], ['abril'], ['maio'], ['junho'], ['julho'], ['agosto'], ['setembro'], ['outubro', 'out'],
    ['novembro'], ['dezembro']],
  nl: [['januari'], ['februari'], ['maart', 'mrt'], ['april'], ['mei'], ['juni'], ['juli'], ['augustus'], ['september'], ['oktober'], ['november'],
    ['december']],
  sv: [['januari'], ['februari'], ['mars'], ['april'], ['maj'], ['juni'], ['juli'], ['augusti'], ['september'], ['oktober'], ['november'], ['december']],
  no: [['januar'], ['februar'], ['mars'], ['april'], ['mai'], ['juni'], ['juli'], ['august'], ['september'], ['oktober'], ['november'], ['desember', 'des']],
  da: [['januar'], ['februar'], ['marts'], ['april'], ['maj'], ['juni'], ['juli'], ['august'], ['september'], ['oktober'], ['november'], ['december']],
  fi: [['tammikuuta', 'tammikuu'], ['helmikuuta', 'helmikuu'], ['maaliskuuta', 'maaliskuu'], ['huhtikuuta', 'huhtikuu'], ['toukokuuta', 'toukokuu'],
    ['kesäkuuta', 'kesäkuu'], ['heinäkuuta', 'heinäkuu'], ['elokuuta', 'elokuu'], ['syyskuuta', 'syyskuu'], ['lokakuuta', 'lokakuu'],
    ['marraskuuta', 'marraskuu'], ['joulukuuta', 'joulukuu']],
  pl: [['stycznia', 'styczeń'], ['lutego', 'luty'], ['marca', 'marzec'], ['kwietnia', 'kwiecień'], ['maja', 'maj'], ['czerwca', 'czerwiec'],
    ['lipca', 'lipiec'], ['sierpnia', 'sierpień'], ['września', 'wrzesień'], ['października', 'październik'], ['listopada', 'listopad'],
    ['grudnia', 'grudzień']],
  cs: [['ledna', 'leden'], ['února', 'únor'], ['března', 'březen'], ['dubna', 'duben'], ['května', 'květen'], ['června', 'červen'],
    ['července', 'červenec'], ['srpna', 'srpen'], ['září'], ['října', 'říjen'], ['listopadu', 'listopad'], ['prosince', 'prosinec']],
  hu: [['január', 'jan'], ['február', 'febr'], ['március', 'márc'], ['április', 'ápr'], ['május', 'máj'], ['június', 'jún'], ['július', 'júl'],
    ['augusztus', 'aug'], ['szeptember', 'szept'], ['október', 'okt'], ['november', 'nov'], ['december', 'dec']],
  tr: [['ocak'], ['şubat'], ['mart'], ['nisan'], ['mayıs'], ['haziran'], ['temmuz'], ['ağustos'], ['eylül'], ['ekim'], ['kasım'], ['aralık']],
  id: [['januari'], ['februari'], ['maret'], ['april'], ['mei'], ['juni'], ['juli'], ['agustus'], ['september'], ['oktober'], ['november'], ['desember']],
  ms: [['januari'], ['februari'], ['mac'], ['april'], ['mei'], ['jun'], ['julai'], ['ogos'], ['september'], ['oktober'], ['november'], ['disember']],
  ro: [['ianuarie'], ['februarie'], ['martie'], ['aprilie'], ['mai'], ['iunie'], ['iulie'], ['august'], ['septembrie'], ['octombrie'], ['noiembrie'],
    ['decembrie']],
  el: [['ιανουαρίου', 'ιανουάριος'], ['φεβρουαρίου', 'φεβρουάριος'], ['μαρτίου', 'μάρτιος'], ['απριλίου', 'απρίλιος'], ['μαΐου', 'μαίου', 'μάιος'],
    ['ιουνίου', 'ιούνιος'], ['ιουλίου', 'ιούλιος'], ['αυγούστου', 'αύγουστος'], ['σεπτεμβρίου', 'σεπτέμβριος'], ['οκτωβρίου', 'οκτώβριος'],
    ['νοεμβρίου', 'νοέμβριος'], ['δεκεμβρίου', 'δεκέμβριος']],
  // Arabic: the Egyptian and Gulf names, then the Levantine ones.
  ar: [['يناير', 'كانون الثاني'], ['فبراير', 'شباط'], ['مارس', 'آذار'], ['أبريل', 'ابريل', 'إبريل', 'نيسان'], ['مايو', 'أيار'], ['يونيو', 'يونية', 'حزيران'],
    ['يوليو', 'يولية', 'تموز'], ['أغسطس', 'اغسطس', 'آب'], ['سبتمبر', 'أيلول'], ['أكتوبر', 'اكتوبر', 'تشرين الأول'], ['نوفمبر', 'تشرين الثاني'],
    ['ديسمبر', 'كانون الأول']],
  th: [['มกราคม'], ['กุมภาพันธ์'], ['มีนาคม'], ['เมษายน'], ['พฤษภาคม'], ['มิถุนายน'], ['กรกฎาคม'], ['สิงหาคม'], ['กันยายน'], ['ตุลาคม'], ['พฤศจิกายน'],
    ['ธันวาคม']],
};

/** Names that are other words too: read as a month only when a year is written with them. */
export const YEAR_NEEDED = new Set(['mar', 'mac', 'maj', 'maja', 'mei', 'ago', 'set', 'out', 'des', 'dez', 'gen', 'mag', 'giu', 'lug', 'ott', 'dic', 'ene',
  'abr', 'avr', 'mrt', 'okt', 'fev', 'jän', 'mrz', 'febr', 'janv', 'févr', 'juil', 'déc', 'márc', 'ápr', 'máj', 'jún', 'júl', 'szept', 'mart', 'ekim',
  'luty', 'ocak', 'ogos']);

/** Words of English (the only names that also come before the day: `March 14, 2026`), kept apart. */
export const ENGLISH = new Set(BY_LANGUAGE.en!.flat());

/** A name folded for lookup: accents and case gone, Turkish dotless i and Greek final sigma as their plain letters. */
const folded = new Map<string, string>();
export const foldName = (s: string): string => {
  let f = folded.get(s);
  if (f === undefined) {
    f = s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/ı/g, 'i').replace(/ς/g, 'σ').replace(/ł/g, 'l');
    if (folded.size > 5_000) folded.clear();
    folded.set(s, f);
  }
  return f;
};

/** Every name (as written, and folded) with its month number. */
export const MONTH_NUMBERS = new Map<string, number>();
for (const months of Object.values(BY_LANGUAGE)) {
  months.forEach((names, k) => { for (const n of names) { MONTH_NUMBERS.set(n, k + 1); MONTH_NUMBERS.set(foldName(n), k + 1); } });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const alternation = (names: Iterable<string>) => [...new Set(names)].sort((a, b) => b.length - a.length).map(escape).join('|');

/** Every month name, longest first, as an alternation. */
export const MONTH_SOURCE = alternation(MONTH_NUMBERS.keys());
/**
 * Month names that come before the day (`March 14, 2026`, `Mai 14`, `március 14.`): English, and the few languages
 * that write so, longest first (a short list: the pattern is tried at every word of a document).
 */
export const MONTH_FIRST_SOURCE = alternation([...MONTH_NUMBERS.keys()].filter((n) => ENGLISH.has(n) || [...BY_LANGUAGE.de!, ...BY_LANGUAGE.fr!, ...BY_LANGUAGE.es!, ...BY_LANGUAGE.it!, ...BY_LANGUAGE.hu!].flat().some((w) => foldName(w) === foldName(n))));
/** Names of the months in languages other than English: a document that uses one writes its dates day first. */
export const FOREIGN_MONTH_SOURCE = alternation([...MONTH_NUMBERS.keys()].filter((n) => !ENGLISH.has(n) && n.length >= 4 && !YEAR_NEEDED.has(n)));

/** The month a written name stands for. */
export const monthOf = (name: string): number | undefined => MONTH_NUMBERS.get(name.toLowerCase()) ?? MONTH_NUMBERS.get(foldName(name));
