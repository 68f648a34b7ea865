// Words of meeting notes and minutes, each concept once, by language: the labels of their title and date, and the
// headings of their lists (attendees, agenda, decisions, actions, open questions), and of an actions table's columns.
import { labels } from './words.js';

export const MEETING_TITLE_LABELS = labels({
  en: ['title', 'meeting', 'subject', 'minutes', 'meeting title', 're', 'topic', 'minutes of', 'meeting name'],
  fr: ['objet', 'réunion', 'titre', 'intitulé'], es: ['asunto', 'reunión', 'título'], it: ['oggetto', 'riunione', 'titolo'], pt: ['assunto', 'reunião', 'título'],
  nl: ['onderwerp', 'vergadering'], de: ['betreff', 'besprechung', 'sitzung', 'titel', 'thema'], sv: ['ämne', 'möte'], no: ['emne', 'møte'], da: ['emne', 'møde'],
  fi: ['aihe', 'kokous'], pl: ['temat', 'spotkanie'], cs: ['předmět', 'schůzka', 'jednání'], hu: ['tárgy', 'megbeszélés'], tr: ['konu', 'toplantı'],
  id: ['perihal', 'rapat', 'judul'], vi: ['chủ đề', 'cuộc họp'], zh: ['会议名称', '會議名稱', '会议主题', '主题'], ja: ['会議名', '件名', '議題名'], ko: ['회의명', '회의 제목', '제목'],
  ar: ['الموضوع', 'عنوان الاجتماع'], el: ['θέμα', 'σύσκεψη'],
});

export const MEETING_DATE_LABELS = labels({
  en: ['date', 'meeting date', 'held on', 'when', 'date time', 'date and time', 'held'],
  fr: ['date', 'date de la réunion', 'date et heure'], es: ['fecha', 'fecha de la reunión', 'fecha y hora'], it: ['data', 'data della riunione', 'data e ora'],
  pt: ['data', 'data da reunião'], nl: ['datum', 'datum en tijd'], de: ['datum', 'sitzungsdatum', 'datum und uhrzeit', 'termin'], sv: ['datum', 'mötesdatum'],
  no: ['dato', 'møtedato'], da: ['dato', 'mødedato'], fi: ['päivämäärä', 'aika', 'kokousaika'], pl: ['data', 'data spotkania'], cs: ['datum', 'datum konání'],
  hu: ['dátum', 'időpont'], tr: ['tarih', 'toplantı tarihi'], id: ['tanggal', 'hari tanggal', 'waktu'], vi: ['ngày', 'thời gian', 'ngày họp'],
  zh: ['日期', '会议日期', '時間', '时间'], ja: ['日時', '日付', '開催日'], ko: ['일시', '날짜', '회의 일시'], ar: ['التاريخ', 'تاريخ الاجتماع'], el: ['ημερομηνία'],
});

export const ATTENDEE_LABELS = labels({
  en: ['attendees', 'present', 'participants', 'attendance', 'in attendance', 'attending', 'people', 'who', 'members present', 'invitees', 'attended'],
  fr: ['présents', 'participants', 'présent e s', 'personnes présentes'], es: ['asistentes', 'participantes', 'presentes'], it: ['partecipanti', 'presenti'],
  pt: ['participantes', 'presentes'], nl: ['aanwezig', 'aanwezigen', 'deelnemers'], de: ['teilnehmende', 'teilnehmer', 'teilnehmer innen', 'anwesend', 'anwesende'],
  sv: ['närvarande', 'deltagare'], no: ['til stede', 'deltakere'], da: ['deltagere', 'fremmødte'], fi: ['läsnä', 'osallistujat'],
  pl: ['obecni', 'uczestnicy', 'lista obecności'], cs: ['přítomni', 'účastníci'], hu: ['jelenlévők', 'résztvevők', 'jelen vannak'], tr: ['katılımcılar', 'katılanlar'],
  id: ['peserta', 'hadir', 'yang hadir', 'peserta rapat'], vi: ['thành phần tham dự', 'người tham dự', 'thành viên tham dự'],
  zh: ['参会人员', '出席人员', '与会人员', '參與者', '出席者', '参会者'], ja: ['出席者', '参加者'], ko: ['참석자'], ar: ['الحضور', 'الحاضرون'], el: ['παρόντες', 'συμμετέχοντες'],
});

export const AGENDA_HEADINGS = labels({
  en: ['talked about', 'what we talked about', 'covered', 'topics', 'agenda', 'discussed', 'discussion', 'discussion points', 'items discussed', 'topics discussed', 'agenda items',
    'what we discussed', 'points discussed', 'discussion topics', 'updates', 'main topics'],
  fr: ['ordre du jour', 'points abordés', 'sujets abordés', 'sujets'], es: ['orden del día', 'temas tratados', 'agenda', 'temas'], it: ['ordine del giorno', 'argomenti', 'argomenti trattati'],
  pt: ['pauta', 'ordem do dia', 'assuntos', 'temas discutidos', 'assuntos tratados'], nl: ['agenda', 'agendapunten', 'besproken punten'],
  de: ['tagesordnung', 'themen', 'besprochene punkte', 'tagesordnungspunkte'], sv: ['dagordning', 'ärenden'], no: ['dagsorden', 'saker'], da: ['dagsorden'],
  fi: ['asialista', 'esityslista'], pl: ['porządek obrad', 'tematy', 'omawiane tematy', 'agenda spotkania'], cs: ['program', 'body jednání', 'program jednání'],
  hu: ['napirend', 'napirendi pontok', 'témák'], tr: ['gündem', 'gündem maddeleri'], id: ['topik', 'pokok bahasan', 'agenda rapat'],
  vi: ['nội dung cuộc họp', 'chương trình họp', 'nội dung'], zh: ['议程', '議程', '会议议程', '讨论事项'], ja: ['議題', 'アジェンダ'], ko: ['안건', '회의 안건', '논의 사항'],
  ar: ['جدول الأعمال'], el: ['ημερήσια διάταξη', 'θέματα'],
});

export const DECISION_HEADINGS = labels({
  en: ['decisions', 'decided', 'resolved', 'agreed', 'outcomes', 'decisions made', 'key decisions', 'resolutions', 'agreements', 'we agreed', 'decision'],
  fr: ['décisions', 'décisions prises'], es: ['acuerdos', 'decisiones'], it: ['decisioni', 'delibere'], pt: ['decisões', 'deliberações'],
  nl: ['besluiten', 'besluitenlijst', 'beslissingen'], de: ['beschlüsse', 'beschluss', 'entscheidungen', 'ergebnisse'], sv: ['beslut'], no: ['vedtak', 'beslutninger'],
  da: ['beslutninger'], fi: ['päätökset'], pl: ['decyzje', 'ustalenia'], cs: ['rozhodnutí', 'usnesení'], hu: ['döntések', 'határozatok'], tr: ['kararlar', 'alınan kararlar'],
  id: ['keputusan'], vi: ['quyết định', 'kết luận'], zh: ['决定', '決定', '决议', '決議'], ja: ['決定事項'], ko: ['결정 사항', '결정사항'], ar: ['القرارات'], el: ['αποφάσεις'],
});

export const ACTION_HEADINGS = labels({
  en: ['actions', 'action items', 'next steps', 'to do', 'todo', 'follow ups', 'follow up', 'tasks', 'action points', 'owners', 'actions agreed', 'assignments', 'action', 'follow up items'],
  fr: ['actions', 'actions à mener', 'prochaines étapes', 'tâches'], es: ['acciones', 'tareas', 'próximos pasos', 'pendientes'], it: ['azioni', 'prossimi passi', 'attività'],
  pt: ['ações', 'tarefas', 'próximos passos', 'encaminhamentos'], nl: ['actiepunten', 'acties', 'actielijst', 'vervolgstappen'],
  de: ['aufgaben', 'to dos', 'maßnahmen', 'massnahmen', 'nächste schritte'], sv: ['åtgärder', 'att göra', 'nästa steg', 'uppgifter'], no: ['oppgaver', 'tiltak', 'neste steg', 'aksjoner'],
  da: ['opgaver', 'handlinger', 'næste skridt'], fi: ['toimenpiteet', 'tehtävät', 'seuraavat askeleet'], pl: ['zadania', 'działania', 'następne kroki', 'kolejne kroki'],
  cs: ['úkoly', 'další kroky'], hu: ['feladatok', 'teendők', 'következő lépések'], tr: ['aksiyonlar', 'yapılacaklar', 'sonraki adımlar', 'görevler'],
  id: ['tindak lanjut', 'tugas', 'langkah selanjutnya'], vi: ['công việc cần làm', 'nhiệm vụ', 'các bước tiếp theo'], zh: ['行动项', '待办事项', '下一步', '后续行动'],
  ja: ['アクションアイテム', '次のステップ', '宿題', 'todo'], ko: ['실행 항목', '액션 아이템', '다음 단계', '후속 조치'], ar: ['الإجراءات', 'الخطوات التالية', 'المهام'],
  el: ['ενέργειες', 'επόμενα βήματα'],
});

export const QUESTION_HEADINGS = labels({
  en: ['open questions', 'questions', 'still open', 'open issues', 'open', 'questions still open', 'unanswered', 'unresolved', 'parking lot', 'open items', 'to be decided', 'tbd',
    'outstanding questions', 'open points', 'pending', 'carried forward', 'carried over', 'deferred', 'parked'],
  fr: ['questions ouvertes', 'points ouverts', 'en suspens'], es: ['preguntas abiertas', 'temas pendientes', 'cuestiones abiertas'], it: ['questioni aperte', 'punti aperti', 'domande aperte'],
  pt: ['questões em aberto', 'pontos em aberto', 'pendências'], nl: ['open vragen', 'openstaande punten'], de: ['offene fragen', 'offene punkte'], sv: ['öppna frågor'],
  no: ['åpne spørsmål'], da: ['åbne spørgsmål'], fi: ['avoimet kysymykset'], pl: ['otwarte kwestie', 'otwarte pytania', 'sprawy otwarte'], cs: ['otevřené otázky'],
  hu: ['nyitott kérdések'], tr: ['açık sorular', 'açık konular'], id: ['pertanyaan terbuka', 'hal yang belum selesai'], vi: ['câu hỏi mở', 'vấn đề còn tồn đọng'],
  zh: ['待解决问题', '未决问题', '开放问题'], ja: ['未解決事項', '課題', '懸案事項'], ko: ['미결 사항', '열린 질문', '미해결 질문'], ar: ['أسئلة مفتوحة', 'قضايا معلقة'],
  el: ['ανοιχτά θέματα', 'ανοιχτά ερωτήματα'],
});

/** Column headers of an actions table: who, what, by when. */
export const ACTION_TABLE_HEADS = {
  owner: labels({
    en: ['owner', 'who', 'responsible', 'assignee', 'assigned to', 'person', 'lead', 'name'], fr: ['responsable', 'qui', 'porteur'], es: ['responsable', 'quién'],
    it: ['responsabile', 'chi'], pt: ['responsável', 'quem'], nl: ['eigenaar', 'wie', 'verantwoordelijke'], de: ['verantwortlich', 'wer', 'zuständig'], sv: ['ansvarig', 'vem'],
    no: ['ansvarlig', 'hvem'], da: ['ansvarlig', 'hvem'], fi: ['vastuuhenkilö', 'vastuu', 'kuka'], pl: ['odpowiedzialny', 'osoba', 'kto'], cs: ['odpovědná osoba', 'zodpovídá'],
    hu: ['felelős'], tr: ['sorumlu'], id: ['penanggung jawab', 'pic'], vi: ['người phụ trách', 'phụ trách'], zh: ['负责人', '負責人'], ja: ['担当', '担当者'], ko: ['담당자', '담당'],
    ar: ['المسؤول'], el: ['υπεύθυνος'],
  }),
  task: labels({
    en: ['action', 'task', 'what', 'action item', 'item', 'description', 'to do', 'next step'], fr: ['action', 'tâche', 'quoi'], es: ['acción', 'tarea', 'qué'], it: ['azione', 'attività'],
    pt: ['ação', 'tarefa'], nl: ['actie', 'taak', 'wat'], de: ['aufgabe', 'maßnahme', 'was'], sv: ['åtgärd', 'uppgift'], no: ['oppgave', 'tiltak'], da: ['opgave', 'handling'],
    fi: ['tehtävä', 'toimenpide'], pl: ['zadanie', 'działanie'], cs: ['úkol'], hu: ['feladat'], tr: ['görev', 'aksiyon'], id: ['tugas', 'tindakan'], vi: ['công việc', 'nhiệm vụ'],
    zh: ['任务', '事项', '行动'], ja: ['タスク', '内容'], ko: ['업무', '할 일', '조치'], ar: ['المهمة', 'الإجراء'], el: ['ενέργεια', 'εργασία'],
  }),
  due: labels({
    en: ['due', 'due date', 'due by', 'deadline', 'when', 'by', 'by when', 'target date', 'date'], fr: ['échéance', 'date limite', 'pour le', 'date'], es: ['fecha límite', 'plazo', 'fecha'],
    it: ['scadenza', 'entro', 'data'], pt: ['prazo', 'data'], nl: ['deadline', 'datum', 'wanneer'], de: ['termin', 'bis', 'frist', 'fällig', 'datum'], sv: ['deadline', 'klart', 'datum'],
    no: ['frist', 'dato'], da: ['frist', 'dato'], fi: ['määräaika', 'aikataulu'], pl: ['termin', 'do kiedy'], cs: ['termín'], hu: ['határidő'], tr: ['termin', 'son tarih'],
    id: ['tenggat', 'batas waktu'], vi: ['thời hạn', 'hạn'], zh: ['截止日期', '期限'], ja: ['期限', '期日'], ko: ['기한', '마감일'], ar: ['الموعد النهائي'], el: ['προθεσμία'],
  }),
};

/** Words that flag one line of notes as a decision, an action or a question (`Decision: ...`, `Beschluss: ...`, `Acción: ...`). */
export const INLINE_FLAGS = {
  decision: ['decision', 'decided', 'agreed', 'resolved', 'décision', 'decisión', 'acuerdo', 'decisione', 'decisão', 'besluit', 'beschluss', 'entscheidung', 'beslut', 'vedtak',
    'beslutning', 'päätös', 'decyzja', 'ustalenie', 'rozhodnutí', 'usnesení', 'döntés', 'határozat', 'karar', 'keputusan', 'quyết định', '决定', '決定', '결정', 'قرار', 'απόφαση'],
  action: ['action item', 'action', 'todo', 'ai', 'aktion', 'aufgabe', 'acción', 'tarea', 'azione', 'ação', 'actie', 'åtgärd', 'tiltak', 'handling', 'toimenpide', 'zadanie', 'úkol',
    'feladat', 'aksiyon', 'tindakan', 'hành động', '行动', 'アクション', '조치', 'إجراء', 'ενέργεια'],
  question: ['open question', 'question', 'q', 'offene frage', 'frage', 'question ouverte', 'pregunta', 'domanda', 'pergunta', 'vraag', 'fråga', 'spørsmål', 'spørgsmål', 'kysymys',
    'pytanie', 'otázka', 'kérdés', 'soru', 'pertanyaan', 'câu hỏi', '问题', '質問', '질문', 'سؤال', 'ερώτηση'],
};

/** Words before an action's due date (`by 20 March`, `bis 20.03.`, `d'ici le 20 mars`, `do 20 marca`, `entro il 20 marzo`). */
export const DUE_WORDS = ['due', 'by', 'before', 'deadline', 'until', 'no later than', 'bis', 'bis zum', 'avant le', 'pour le', "d'ici le", 'para el', 'antes del', 'hasta el',
  'entro il', 'entro', 'até', 'voor', 'uiterlijk', 'senast', 'innen', 'senest', 'mennessä', 'do', 'termin', 'határidő', 'hingga', 'trước', 'sampai'];
