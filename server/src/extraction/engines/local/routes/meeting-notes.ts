// Meeting notes: title, date, attendees, and the headed lists (topics, decisions, actions, questions).
import type { FixedData } from '../engine-types.js';
import { headLines, topLines, type Doc, type Section } from '../segment/document.js';
import { pairs, sectionsFor } from '../segment/lookup.js';
import { clean, dropParens, labelIs, labelKey, stripBullet, trimPunct } from '../segment/text.js';
import { MAIL_HEADER_LABELS } from '../segment/envelope.js';
import { findDates, parseDate } from '../normalise/dates.js';
import { ACTION_HEADINGS, ACTION_TABLE_HEADS, AGENDA_HEADINGS, ATTENDEE_LABELS, DECISION_HEADINGS, DUE_WORDS, HONORIFIC_SOURCE, INLINE_FLAGS, LEGAL_FORM_END, MEETING_DATE_LABELS, MEETING_TITLE_LABELS,
  QUESTION_HEADINGS } from '../lexicon.js';
import { field, finder, list, runTable, type FieldTable, type Recorder } from '../fields/finder.js';
import { at, mapLocated, sectionLines, type Located } from '../fields/located.js';
import { learned } from '../learned/learned-finder.js';

type Notes = FixedData['meeting-notes'];

const TITLE_LABELS = MEETING_TITLE_LABELS;
const DATE_LABELS = MEETING_DATE_LABELS;
const TOPICS = AGENDA_HEADINGS;
const DECISIONS = DECISION_HEADINGS;
const ACTIONS = ACTION_HEADINGS;
const QUESTIONS = QUESTION_HEADINGS;

const escapeWords = (words: string[]) => [...words].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')).join('|');
/** `Decision: ...`, `Beschluss: ...`, `Acción - ...`: a line flagged as one kind of list item, in any language of the lexicon. */
const FLAG = Object.fromEntries(Object.entries(INLINE_FLAGS).map(([k, words]) => [k, new RegExp(`^(?:${escapeWords(words)})\\s*[:：\\-–]\\s*`, 'iu')])) as Record<keyof typeof INLINE_FLAGS, RegExp>;
/** `(due 2026-03-16)`, `by 2026-02-19`, `bis 20.03.`, `do 20 marca`: an action's due date at its end. */
const DUE = new RegExp(String.raw`\s*[([,;–—-]?\s*(?<![\p{L}])(?:${escapeWords(DUE_WORDS)})(?![\p{L}])[:\s]*([^()\]]{3,40}?)\s*[)\]]?\s*\.?$`, 'iu');

const NAME = String.raw`[\p{Lu}][\p{L}'’.-]+(?:\s+(?:van|de|der|von|da|di|le|la|[\p{Lu}][\p{L}'’.-]+)){0,3}`;

const NAME_RE = new RegExp(`^${NAME}$`, 'u');

function isName(s: string): boolean {
  // `PM`, `CTO`: an acronym after a name is a role.
  return NAME_RE.test(s) && s.split(' ').length <= 4 && !/^(?:the|we|all|team|everyone|tbd|none|n\/a)$/i.test(s) && !/^[\p{Lu}]{2,5}$/u.test(s);
}

/** Titles and job words written before a name (`Dr. Helen Park`, `Nurse Lead Sam Ortiz`): a name is the person alone. */
const HONORIFIC = new RegExp(String.raw`^(?:${HONORIFIC_SOURCE}\.?\s+)+`, 'i');
const ROLE_WORDS = new Set(['nurse', 'lead', 'head', 'chair', 'chairperson', 'director', 'manager', 'engineer', 'officer', 'secretary', 'treasurer', 'president', 'vp', 'ceo', 'cfo', 'cto', 'coo', 'cmo', 'designer', 'analyst', 'counsel', 'coordinator', 'supervisor', 'intern', 'consultant', 'facilitator', 'scribe', 'senior', 'junior', 'principal', 'product', 'project', 'program', 'sales', 'marketing', 'finance', 'hr', 'it', 'ops', 'operations', 'team', 'tech', 'technical', 'clinical', 'medical', 'charge', 'councillor', 'councillors', 'cllr', 'cllrs', 'councilor', 'councilors', 'alderman', 'aldermen', 'trustee', 'trustees', 'governor', 'governors', 'directors', 'members', 'member']);

export function personName(s: string): string {
  let n = s.replace(HONORIFIC, '');
  const words = n.split(/\s+/);
  let k = 0;
  while (k < words.length - 2 && ROLE_WORDS.has(words[k]!.toLowerCase().replace(/[.,]$/, ''))) k++;
  n = words.slice(k).join(' ');
  return n;
}

/** Attendee names from one line of names (`A, B and C`), or from a list of one person per item (`- Ana Lima, PM`). */
function names(list: Located<string>[], perItem = false): Located<string>[] {
  const out: Located<string>[] = [];
  for (const raw of list) {
    const text = perItem ? dropParens(raw.value).split(/\s*[,;]\s*|\s+[-–—|]\s+/)[0]! : dropParens(raw.value);
    for (const part of text.split(/\s*[,;]\s*|\s+and\s+|\s*&\s*/)) {
      const n = personName(trimPunct(part.replace(/\s+[-–—]\s+.*$/, '').replace(/\s*[:|].*$/, '')));
      if (n && isName(n) && !out.some((o) => o.value === n)) out.push(mapLocated(raw, n));
    }
  }
  return out;
}

/** A section's items (or its lines, one item each), each read from the section's lines. */
function listOf(s: Section | undefined): Located<string>[] {
  if (!s) return [];
  const lines = sectionLines(s);
  if (s.items.length) return s.items.map((i) => at(clean(i), lines));
  // A heading followed by plain lines (no bullets) lists one item per line.
  return s.body.map(clean).filter(Boolean).map((b) => at(b, lines));
}

function firstSection(doc: Doc, names: string[]): Section | undefined {
  return sectionsFor(doc, names, 'is').find((s) => s.items.length || s.body.length) ?? sectionsFor(doc, names, 'has').find((s) => s.items.length);
}

/** `by 24.03.`, `by Fri 20.03.`: a European day and month after `by`, in the meeting's year. */
function dayMonth(text: string, year: number | null | undefined): string | null {
  const m = /^(?:[A-Za-z]{2,9}\.?,?\s+)?(\d{1,2})\.(\d{1,2})\.?$/.exec(text.trim());
  if (!m || !year) return null;
  return findDates(`${m[1]}.${m[2]}.${year}`)[0]?.iso ?? null;
}

function actionItem(text: string, doc: Doc): Notes['actionItems'][number] {
  let t = clean(text.replace(/^\[[\sxX]?\]\s*/, '').replace(FLAG.action, ''));
  let dueDate: string | null = null;
  // Due date: `(due 2026-03-16)`, `by 2026-02-19`, `- due Friday 3 April`, `deadline: ...`.
  const due = DUE.exec(t);
  if (due) {
    const d = findDates(due[1]!, doc.dateOptions)[0]?.iso ?? dayMonth(due[1]!, doc.dateOptions.year);
    if (d) { dueDate = d; t = clean(t.slice(0, due.index)); }
    else if (/^(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|^(?:eod|eow|end of|next|tomorrow|tbd)/i.test(due[1]!.trim())) t = clean(t.slice(0, due.index));
  }
  let owner: string | null = null;
  let m: RegExpExecArray | null;
  // `Tom Needham (Clerk) to place the order`: a role in brackets may follow the owner's name.
  if ((m = new RegExp(`^(${NAME})(?:\\s*\\([^)]*\\))?\\s*(?:->|=>|[:\\-–—→]|\\bto\\b|\\bwill\\b)\\s*(.+)$`, 'u').exec(t)) && isName(m[1]!)) {
    owner = m[1]!;
    t = m[2]!;
  } else if ((m = new RegExp(`^\\[(${NAME})\\]\\s*(.+)$`, 'u').exec(t))) {
    owner = m[1]!;
    t = m[2]!;
  } else if ((m = new RegExp(`^(.+?)\\s*(?:[-–—]|\\()\\s*(?:owner:?\\s*|assigned to:?\\s*|@)?(${NAME})\\)?\\s*$`, 'u').exec(t)) && isName(m[2]!)) {
    owner = m[2]!;
    t = m[1]!;
  }
  const ownerInline = /\((?:owner|assignee|lead)\s*:\s*([^),]+)/i.exec(t);
  if (!owner && ownerInline) { owner = clean(ownerInline[1]!); t = t.replace(ownerInline[0], ''); }
  return { owner, task: trimPunct(clean(t.replace(/^to\s+/i, ''))).replace(/[.]$/, '') || null, dueDate };
}

const { owner: OWNER_HEADS, task: TASK_HEADS, due: DUE_HEADS } = ACTION_TABLE_HEADS;

/** A table of actions (`| Owner | Action | Due |`, or columns apart by wide gaps) read row by row. */
function actionTable(doc: Doc): Located<Notes['actionItems'][number]>[] {
  const cellsOf = (raw: string) => (raw.includes('|') ? raw.split('|') : raw.split(/\s{2,}|\t/)).map((c) => clean(c)).filter((c, i, all) => c || (i > 0 && i < all.length - 1));
  for (let i = 0; i < doc.lines.length; i++) {
    const head = cellsOf(doc.lines[i]!.raw).map((c) => labelKey(c));
    const col = (heads: string[]) => head.findIndex((c) => heads.includes(c));
    const [owner, task, due] = [col(OWNER_HEADS), col(TASK_HEADS), col(DUE_HEADS)];
    if (owner < 0 || task < 0 || head.length > 5) continue;
    const out: Located<Notes['actionItems'][number]>[] = [];
    for (let j = i + 1; j < doc.lines.length && doc.lines[j]!.text; j++) {
      if (/^[\s|:+-]+$/.test(doc.lines[j]!.raw)) continue; // the rule under the header
      const cells = cellsOf(doc.lines[j]!.raw);
      if (cells.length !== head.length) break;
      const who = personName(cells[owner]!);
      const what = trimPunct(cells[task]!).replace(/[.]$/, '');
      if (!what) continue;
      const when = due >= 0 ? findDates(cells[due]!, doc.dateOptions)[0]?.iso ?? null : null;
      out.push(at({ owner: isName(who) ? who : null, task: what, dueDate: when }, j));
    }
    if (out.length) return out;
  }
  return [];
}

/** The agenda or topics list; without one, minutes' numbered item headings (`1. Treasurer's report`) are the topics. */
/** An agenda item's number: `1.`, `2)`, a council's minute reference `26/031`, German `TOP 3`, `Item 4:`. */
const ITEM_NUMBER = /^\s*(?:\d{1,2}[.)]|\d{1,4}\/\d{1,4}|TOP\s*\d{1,2}[.:]?|item\s+\d{1,2}[.:]?)\s+(?=\S)/i;

function topics(doc: Doc): Located<string>[] {
  // A list, or at least two lines, under the heading: `Discussed. No resolution yet.` is a sentence, not an agenda.
  const section = firstSection(doc, TOPICS);
  const listed = section && (section.items.length || section.body.length > 1) ? listOf(section).map((t) => mapLocated(t, clean(t.value.replace(ITEM_NUMBER, '')))) : [];
  if (listed.length) return listed;
  const numbered = doc.sections.filter((s) => ITEM_NUMBER.test(doc.lines[s.line]!.raw) && s.heading.split(/\s+/).length <= 10);
  return numbered.length >= 2 ? numbered.map((s) => at(clean(s.heading.replace(ITEM_NUMBER, '')), s.line)) : [];
}

/** A letterhead above the title (`NORTHGATE HOUSING CO-OPERATIVE LTD` over `Monthly Board Meeting`) is not the title. */
function titleCandidates(doc: Doc) {
  let nonEmpty = topLines(doc);
  if (nonEmpty.length > 1 && LEGAL_FORM_END.test(nonEmpty[0]!.text) && !doc.kvs.some((kv) => kv.line === nonEmpty[1]!.index)) nonEmpty = nonEmpty.slice(1);
  return nonEmpty[0];
}

/** `Notes - Steering Group, 22 April`: the title without the words and the date around it. */
function bareTitle(title: string): string {
  return clean(title.replace(/^(?:minutes|meeting notes|notes)\s*(?:of\s+(?:the\s+)?|[:\-–—|]\s*)/i, '').replace(/\s*[-–—]\s*(?:minutes|notes)$/i, '')
    .replace(/\s*[-–—,]\s*(?:\d{4}-\d{2}-\d{2}|\d{1,2}(?:st|nd|rd|th)?\s+\p{L}+(?:\s+\d{4})?|\p{L}+\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?|\d{1,2}[./]\d{1,2}(?:[./]\d{2,4})?)$/u, (m) => (findDates(`${m} 2000`).length ? '' : m)));
}

const title = (name: string, pick: (doc: Doc) => Located<string> | null | undefined) => finder<C, string>(name, ({ doc }) => { const t = pick(doc); return t ? mapLocated(t, bareTitle(t.value)) : null; });

/** The first date near the top, but `held on` names the meeting's, and a `Printed 18/03` stamp is not it. */
const dateNearTop = finder<C, string>('date near the top', ({ doc }) => {
  // The top of the document a mail carries: a forwarding mail's `Sent:` date is not the meeting's.
  const top = headLines(doc, 8, { note: true });
  const head = top.map((l) => l.text).join('\n');
  const before = (d: { index: number }) => head.slice(Math.max(0, d.index - 30), d.index);
  const dates = findDates(head, { ...doc.dateOptions, year: null }).filter((d) => !/\b(?:printed|generated|exported|downloaded|updated|revised|created|saved|sent|received)\b[^\n]{0,22}$/i.test(before(d)));
  const d = dates.find((x) => /\b(?:held|took\s+place|convened|meeting)\b[^\n]{0,14}$/i.test(before(x))) ?? dates[0];
  if (!d) return null;
  // The line the date stands on: count the line breaks before it.
  const line = top[head.slice(0, d.index).split('\n').length - 1]!;
  return at(d.iso, line.index, head.slice(d.index, d.end));
});

/** Lines flagged inline anywhere (`Decision: ...`, `Q: ...`), without the flag. */
const inlineList = (doc: Doc, re: RegExp) => doc.lines.map((l) => ({ t: stripBullet(l.raw) ?? l.text, line: l.index })).filter(({ t }) => re.test(t)).map(({ t, line }) => at(clean(t.replace(re, '')), line));

/** The document with the meeting's own year, for action due dates written without one (`by 24.03.`). */
const withMeetingYear = ({ doc, found }: C): Doc => ({ ...doc, dateOptions: { ...doc.dateOptions, year: found.date ? Number(found.date.slice(0, 4)) : doc.year } });

interface C { doc: Doc; found: Partial<Notes> }

export const MEETING_NOTES_FIELDS: FieldTable<C, Notes> = {
  title: field('title', [
    title('labelled title', (doc) => { const kv = pairs(doc, TITLE_LABELS).find((k) => k.value); return kv ? at(kv.value, kv.line) : null; }),
    // The first line, unless it is a date; `Minutes: Board meeting` as a pair on it gives its value.
    title('first line', (doc) => {
      const first = titleCandidates(doc);
      if (!first) return null;
      const kv = doc.kvs.find((k) => k.line === first.index);
      if (!kv) return parseDate(first.text, doc.dateOptions) ? null : at(first.text, first.index);
      return /minutes|meeting|notes/i.test(kv.label) ? at(kv.value, kv.line) : null;
    }),
    // Notes sent as a mail's own text: its subject names the meeting (`Notes - Steering Group, 22 April`), without `RE:`/`FW:`.
    title('e-mail subject', (doc) => {
      const subject = doc.mail.filter((k) => k.line < doc.bodyStart && labelIs(k.key, MAIL_HEADER_LABELS.subject) && k.value).pop();
      if (!subject) return null;
      const bare = subject.value.replace(/^(?:\s*(?:re|aw|sv|antw|odp|r|fwd?|wg|tr|rv|doorst|pd|vs|vb|enc)\s*[:：]\s*)+/i, '');
      return bare ? at(bare, subject.line) : null;
    }),
    learned('meeting-notes:/title'),
  ]),
  date: field('date', [
    finder('labelled date', ({ doc }) => { for (const kv of pairs(doc, DATE_LABELS)) { const d = parseDate(kv.value, { ...doc.dateOptions, year: null }); if (d) return at(d, kv.line); } return null; }),
    dateNearTop,
    learned('meeting-notes:/date'),
  ]),
  attendees: list('name', [
    finder<C, string[]>('attendees pair', ({ doc }) => names(pairs(doc, ATTENDEE_LABELS).filter((kv) => kv.value).map((kv) => at(kv.value, kv.line)))),
    finder<C, string[]>('attendees section', ({ doc }) => { const s = firstSection(doc, ATTENDEE_LABELS); return names(listOf(s), !!s?.items.length); }),
  ]),
  topicsDiscussed: list('statement', [finder<C, string[]>('agenda or numbered headings', ({ doc }) => topics(doc).map((t) => mapLocated(t, t.value.replace(/(?:\s+[-–—]\s*|\s*\()(?:\d+\s*min(?:utes)?|[A-Z][a-z]+)\)?$/, ''))))]),
  decisions: list('statement', [
    // `RESOLVED: ...` under each numbered paragraph: every such one-line section is a decision.
    finder<C, string[]>('resolved lines', ({ doc }) => {
      const resolved = sectionsFor(doc, DECISIONS, 'is').filter((s) => s.items.length === 0 && s.body.length === 1 && doc.kvs.some((kv) => kv.line === s.line));
      return resolved.length > 1 ? resolved.map((s) => at(clean(s.body[0]!), sectionLines(s))) : null;
    }),
    finder<C, string[]>('decisions section', ({ doc }) => listOf(firstSection(doc, DECISIONS))),
    finder<C, string[]>('decision flagged inline', ({ doc }) => inlineList(doc, FLAG.decision)),
    // Formal minutes: `RESOLVED that the minutes be approved.`, `RESOLVED to accept the quotation ...`, as written.
    finder<C, string[]>('RESOLVED lines', ({ doc }) => doc.lines.filter((l) => /^RESOLVED\s+(?:that|to)\b/.test(l.text)).map((l) => at(l.text, l.index))),
  ]),
  actionItems: list('object', [
    finder<C, Notes['actionItems']>('actions section', (c) => listOf(firstSection(c.doc, ACTIONS)).map((t) => mapLocated(t, actionItem(t.value, withMeetingYear(c)))).filter((a) => a.value.task)),
    // Actions flagged inline anywhere (`Action: Priya to ...`, `ACTION - ...`).
    finder<C, Notes['actionItems']>('action flagged inline', (c) => c.doc.lines.map((l) => ({ t: stripBullet(l.raw) ?? l.text, line: l.index })).filter(({ t }) => FLAG.action.test(t) && /\S/.test(t.replace(FLAG.action, ''))).map(({ t, line }) => at(actionItem(t, withMeetingYear(c)), line)).filter((a) => a.value.task)),
    finder<C, Notes['actionItems']>('actions table', (c) => actionTable(withMeetingYear(c))),
  ], { owner: 'name', task: 'statement' }),
  openQuestions: list('statement', [
    finder<C, string[]>('questions section', ({ doc }) => listOf(firstSection(doc, QUESTIONS))),
    finder<C, string[]>('question flagged inline', ({ doc }) => inlineList(doc, FLAG.question)),
  ]),
};

export function extractMeetingNotes(doc: Doc, rec: Recorder = { route: 'meeting-notes' }): Notes {
  return runTable(MEETING_NOTES_FIELDS, { doc, found: {} }, rec);
}
