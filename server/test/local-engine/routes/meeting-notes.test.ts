// The offline engine's meeting-notes route: one describe per field of its answer (`whole answer` for a test of several at once),
// each test named for the shape of document it reads.
import { extractFixed } from '../../../src/extraction/engines/local/index.js';

// Documents several fields' tests read, each read once here.
/** reads one person per list item, without the role after a comma or dash, and never an acronym as a name */
function readReadsOnePersonPerListItem() {
  const data = extractFixed('meeting-notes', 'Design Review\n2026-03-18\n\nAttendees:\n- Ana Lima, PM\n- Joe Park - Engineering Lead\n- Mei Chen (Design)\n- Sam O\'Neil, CTO\n');
  return { data };
}

/** reads actions from a pipe table and the meeting date over a printed-on stamp */
function readReadsActionsFromAPipeTable() {
  const data = extractFixed('meeting-notes', [
    'Facilities Committee',
    'Exported 02/06/2026 09:14',
    'Meeting held on 28 May 2026, Boardroom',
    '',
    'Attendees: Noor Haddad, Lars Brandt',
    '',
    'Follow-ups',
    '| Who          | Task                              | By       |',
    '|--------------|-----------------------------------|----------|',
    '| Noor Haddad  | book the fire-safety inspection   | 12 June  |',
    '| Lars Brandt  | collect quotes for new chairs     |          |',
  ].join('\n'));
  return { data };
}

/** skips an organisation letterhead for the title, ends the agenda where numbering restarts, and reads every RESOLVED line */
function readSkipsAnOrganisationLetterheadForThe() {
  const data = extractFixed('meeting-notes', [
    'RIVERSIDE ALLOTMENTS SOCIETY LTD',
    'Annual Committee Meeting',
    'Held on 4 May 2026',
    '',
    'Agenda',
    '1. Plot fees',
    '2. Water supply',
    '',
    '1. The treasurer presented the accounts for the year.',
    'RESOLVED: that plot fees stay at £40.',
    '',
    '2. The water main needs repair before summer.',
    'RESOLVED: that the repair quote of £900 be accepted.',
    '',
    'Carried forward',
    '- Should the society buy a shared rotavator?',
  ].join('\n'));
  return { data };
}

/** lists attendees without honorifics or job words, and strips a MINUTES dash header */
function readListsAttendeesWithoutHonorificsOrJob() {
  const data = extractFixed('meeting-notes', 'MINUTES — Facilities Review\n10 March 2026\n\nAttendees: Dr. Helen Park, Nurse Lead Sam Ortiz, Priya Natarajan');
  return { data };
}


/** German minutes: `Teilnehmer`, `Tagesordnung` with `TOP` items, `Beschlüsse`, `Aufgaben` with `bis` dates, `Offene Punkte` */
function readGermanMinutes() {
  return extractFixed('meeting-notes', [
    'Protokoll Teamrunde Einkauf',
    'Datum: 05.05.2026',
    'Teilnehmer: Lena Brandt, Omar Haddad, Pia Sommer',
    '',
    'Tagesordnung',
    'TOP 1  Lieferantenbewertung',
    'TOP 2  Preisrunde Verpackung',
    'TOP 3  Rahmenvertrag-Verlängerung',
    '',
    'Beschlüsse',
    '- Der Rahmenvertrag mit Kessler wird um ein Jahr verlängert.',
    '',
    'Aufgaben',
    '- Omar Haddad: Angebote für Kartonagen einholen – bis 15.05.',
    '- Pia Sommer: Bewertungsbogen überarbeiten',
    '',
    'Offene Punkte',
    '- Wer übernimmt die Urlaubsvertretung im Juni?',
  ].join('\n'));
}

/** Council minutes: minute references as item numbers, `RESOLVED` lines, an owner with a role in brackets */
function readCouncilMinutes() {
  return extractFixed('meeting-notes', [
    'Elmbridge Green Town Council - Minutes of the Finance Committee',
    'held on Monday 2nd February 2026',
    '',
    'Present: Councillors Ada Reyes (Chair), Tom Wills and Kay Obi',
    '',
    '26/010 Bank reconciliation',
    'RESOLVED that the bank reconciliation for January be approved.',
    '',
    '26/011 Grant applications',
    'Two applications were received.',
    'RESOLVED to award £500 to the Elmbridge Youth Club.',
    '',
    '26/012 Cemetery fees',
    'Discussed. No decision; a report will follow.',
    '',
    'ACTIONS',
    '- Joe Pike (Clerk) to pay the grant by 20th February.',
  ].join('\n'));
}

describe("topicsDiscussed", () => {
  it('reads German `TOP` agenda items, and council minute references as item numbers', () => {
    expect(readGermanMinutes().topicsDiscussed).toEqual(['Lieferantenbewertung', 'Preisrunde Verpackung', 'Rahmenvertrag-Verlängerung']);
    expect(readCouncilMinutes().topicsDiscussed).toEqual(['Bank reconciliation', 'Grant applications', 'Cemetery fees']);
  });
  it('keeps every numbered line of the list as an item, a colon inside one included', () => {
    const data = extractFixed('meeting-notes', 'Committee notes\nDate: 4 March 2026\n\nItems discussed\n1. Fair planning\n2. Treasurer\'s report: balance £3,412.50\n3. Playground quote\n');
    expect(data.topicsDiscussed).toEqual(['Fair planning', 'Treasurer\'s report: balance £3,412.50', 'Playground quote']);
  });

  it('skips an organisation letterhead for the title, ends the agenda where numbering restarts, and reads every RESOLVED line', () => {
    const { data } = readSkipsAnOrganisationLetterheadForThe();
    expect(data.topicsDiscussed).toEqual(['Plot fees', 'Water supply']);
  });

  it('takes numbered item headings as the topics when there is no agenda', () => {
    const data = extractFixed('meeting-notes', 'Parish Hall Committee\nMinutes of 3 June 2026\n\n1. Roof repairs\nThe quote was discussed.\n\n2. Summer fete\nVolunteers are needed.\n');
    expect(data.topicsDiscussed).toEqual(['Roof repairs', 'Summer fete']);
  });
});

describe("attendees", () => {
  it('reads `Teilnehmer:`', () => {
    expect(readGermanMinutes().attendees).toEqual(['Lena Brandt', 'Omar Haddad', 'Pia Sommer']);
  });
  it('leaves a group title (`Councillors`, `Trustees`) out of the first name it leads', () => {
    const data = extractFixed('meeting-notes', 'Minutes of the Trust Board, 4 June 2026\nPresent: Trustees Mary Okonjo (Chair), Liam Byrne and Sara Nystrom\nRESOLVED that the accounts be approved.');
    expect(data.attendees).toEqual(['Mary Okonjo', 'Liam Byrne', 'Sara Nystrom']);
  });

  it('reads one person per list item, without the role after a comma or dash, and never an acronym as a name', () => {
    const { data } = readReadsOnePersonPerListItem();
    expect(data.attendees).toEqual(['Ana Lima', 'Joe Park', 'Mei Chen', 'Sam O\'Neil']);
  });

  it('lists attendees without honorifics or job words, and strips a MINUTES dash header', () => {
    const { data } = readListsAttendeesWithoutHonorificsOrJob();
    expect(data.attendees).toEqual(['Helen Park', 'Sam Ortiz', 'Priya Natarajan']);
  });
});

describe("date", () => {
  it('reads actions from a pipe table and the meeting date over a printed-on stamp', () => {
    const { data } = readReadsActionsFromAPipeTable();
    expect(data.date).toBe('2026-05-28');
  });
});

describe("actionItems", () => {
  it('reads `Aufgaben` with `bis` due dates in the meeting\'s year, and an owner followed by a role in brackets', () => {
    expect(readGermanMinutes().actionItems).toEqual([
      { owner: 'Omar Haddad', task: 'Angebote für Kartonagen einholen', dueDate: '2026-05-15' },
      { owner: 'Pia Sommer', task: 'Bewertungsbogen überarbeiten', dueDate: null },
    ]);
    expect(readCouncilMinutes().actionItems).toEqual([{ owner: 'Joe Pike', task: 'pay the grant', dueDate: '2026-02-20' }]);
  });
  it('reads actions from a pipe table and the meeting date over a printed-on stamp', () => {
    const { data } = readReadsActionsFromAPipeTable();
    expect(data.actionItems).toEqual([
      { owner: 'Noor Haddad', task: 'book the fire-safety inspection', dueDate: '2026-06-12' },
      { owner: 'Lars Brandt', task: 'collect quotes for new chairs', dueDate: null },
    ]);
  });

  it('reads `Name → task, by 24.03.` actions in the meeting\'s year', () => {
    const data = extractFixed('meeting-notes', 'Sprint sync\n10.03.2026\n\nNext steps\n* Lena Vogt → update the release notes, by 24.03.\n* Omar Said -> fix the login bug, by Fri 13.03.\n');
    expect(data.actionItems).toEqual([
      { owner: 'Lena Vogt', task: 'update the release notes', dueDate: '2026-03-24' },
      { owner: 'Omar Said', task: 'fix the login bug', dueDate: '2026-03-13' },
    ]);
  });
});

describe("title", () => {
  it('skips an organisation letterhead for the title, ends the agenda where numbering restarts, and reads every RESOLVED line', () => {
    const { data } = readSkipsAnOrganisationLetterheadForThe();
    expect(data.title).toBe('Annual Committee Meeting');
  });

  it('skips the sent date and trims the date from a subject line title', () => {
    const data = extractFixed('meeting-notes', 'From: Ana Silva <ana@example.com>\nSent: Friday, 15 May 2026 09:02\nSubject: Notes - Product Council, 14 May\n\nHi all, notes from yesterday\'s Product Council (Thursday 14 May 2026).\n\nAttendees: Ana Silva, Rui Costa\n');
    expect([data.title, data.date]).toEqual(['Product Council', '2026-05-14']);
  });

  it('lists attendees without honorifics or job words, and strips a MINUTES dash header', () => {
    const { data } = readListsAttendeesWithoutHonorificsOrJob();
    expect(data.title).toBe('Facilities Review');
  });
});

describe("decisions", () => {
  it('reads `Beschlüsse`, and formal minutes\' `RESOLVED` lines as written', () => {
    expect(readGermanMinutes().decisions).toEqual(['Der Rahmenvertrag mit Kessler wird um ein Jahr verlängert.']);
    expect(readCouncilMinutes().decisions).toEqual(['RESOLVED that the bank reconciliation for January be approved.', 'RESOLVED to award £500 to the Elmbridge Youth Club.']);
  });
  it('skips an organisation letterhead for the title, ends the agenda where numbering restarts, and reads every RESOLVED line', () => {
    const { data } = readSkipsAnOrganisationLetterheadForThe();
    expect(data.decisions).toEqual(['that plot fees stay at £40.', 'that the repair quote of £900 be accepted.']);
  });
});

describe("openQuestions", () => {
  it('reads `Offene Punkte`', () => {
    expect(readGermanMinutes().openQuestions).toEqual(['Wer übernimmt die Urlaubsvertretung im Juni?']);
  });
  it('skips an organisation letterhead for the title, ends the agenda where numbering restarts, and reads every RESOLVED line', () => {
    const { data } = readSkipsAnOrganisationLetterheadForThe();
    expect(data.openQuestions).toEqual(['Should the society buy a shared rotavator?']);
  });
});

describe("whole answer", () => {
  it('reads attendees without roles, headed lists, and action items with owners and due dates', () => {
    const data = extractFixed('meeting-notes', [
      'Meeting notes: Warehouse Safety Review',
      'Date: 9 June 2026',
      'Attendees: Rosa Diaz (Ops), Kwame Asante, Lena Fischer',
      '',
      'Agenda:',
      '- Forklift incidents',
      '- Fire drill results',
      '',
      'Decisions:',
      '- Forklift training becomes mandatory every year.',
      '',
      'Action items:',
      '- Kwame Asante: order new floor markings (due 16 June)',
      '- Lena Fischer to schedule the next drill by 2026-07-01',
      '- Rosa Diaz - update the incident log',
      '',
      'Open questions:',
      '- Who signs off on contractor inductions?',
    ].join('\n'));
    expect(data).toEqual({
      title: 'Warehouse Safety Review',
      date: '2026-06-09',
      attendees: ['Rosa Diaz', 'Kwame Asante', 'Lena Fischer'],
      topicsDiscussed: ['Forklift incidents', 'Fire drill results'],
      decisions: ['Forklift training becomes mandatory every year.'],
      actionItems: [
        { owner: 'Kwame Asante', task: 'order new floor markings', dueDate: '2026-06-16' },
        { owner: 'Lena Fischer', task: 'schedule the next drill', dueDate: '2026-07-01' },
        { owner: 'Rosa Diaz', task: 'update the incident log', dueDate: null },
      ],
      openQuestions: ['Who signs off on contractor inductions?'],
    });
  });

  it('reads one person per list item, without the role after a comma or dash, and never an acronym as a name', () => {
    const {  } = readReadsOnePersonPerListItem();
    expect(extractFixed('meeting-notes', 'Sync\n2026-03-18\n\nAttendees: Ana Lima, Joe Park and Mei Chen').attendees).toEqual(['Ana Lima', 'Joe Park', 'Mei Chen']);
  });
});
