// Cards for the DemoBackend test double: the engine's corrections
// (`DocumentCard::correct`, src/card/mod.rs) with its messages, and a small version of
// its question analysis (src/card/question.rs) with the same notes. Simplified: names
// match as whole words of the question, periods as "2018", "FY2018", "FY18" or "Q2".

import type { DocumentCard, DocumentKind, QuestionAnalysis } from './api';
import { CARD_FIELDS, emptyCard, KIND_LABELS, KINDS } from './card';
import { escapeRegExp } from './highlight';

const FIELD_LIST = 'title, organization, aliases, kind, fiscal_year, fiscal_quarter, period_end and date';

function parseKind(text: string): DocumentKind | null {
  const wanted = text.trim().toLowerCase().replace(/[ _]/g, '-');
  const byForm: Record<string, DocumentKind> = {
    '10-k': 'annual-report',
    '10k': 'annual-report',
    annual: 'annual-report',
    '10-q': 'quarterly-report',
    '10q': 'quarterly-report',
    quarterly: 'quarterly-report',
    '8-k': 'current-report',
    '8k': 'current-report',
    earnings: 'earnings-release',
  };
  return byForm[wanted] ?? KINDS.find((k) => k === wanted || KIND_LABELS[k].replace(/ /g, '-') === wanted) ?? null;
}

function isIsoDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** Applies one `field=value` to a copy of `card`; throws the engine's message when it cannot. */
export function correctDemoCard(card: DocumentCard | null, assignment: string): DocumentCard {
  const next = structuredClone(card ?? emptyCard());
  const eq = assignment.indexOf('=');
  if (eq < 0) throw `\`${assignment}\` is not field=value`;
  const name = assignment.slice(0, eq).trim().replace(/-/g, '_');
  const field = CARD_FIELDS.find((f) => f.field === name)?.field;
  if (!field) throw `\`${assignment.slice(0, eq)}\` is not a card field; the fields are ${FIELD_LIST}`;
  const value = assignment.slice(eq + 1).trim();
  const bad = (expected: string) => `${field} cannot be \`${value}\`: ${expected}`;
  const text = value === '' ? null : value;
  switch (field) {
    case 'title':
    case 'organization':
      next[field] = text;
      break;
    case 'aliases':
      next.aliases = value
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
      break;
    case 'kind': {
      const kind = text === null ? null : parseKind(text);
      if (text !== null && kind === null) throw bad('one of 10-K, 10-Q, 8-K, earnings, paper, contract, other');
      next.kind = kind;
      break;
    }
    case 'fiscal_year': {
      const year = text === null ? null : /^\d+$/.test(text) ? Number(text) : NaN;
      if (year !== null && !(year >= 1900 && year <= 2100)) throw bad('a year such as 2018');
      next.fiscal_year = year;
      break;
    }
    case 'fiscal_quarter': {
      const digits = text?.replace(/^[Qq]+/, '') ?? null;
      const quarter = digits === null ? null : /^\d+$/.test(digits) ? Number(digits) : NaN;
      if (quarter !== null && !(quarter >= 1 && quarter <= 4)) throw bad('a quarter from 1 to 4');
      next.fiscal_quarter = quarter;
      break;
    }
    case 'period_end':
    case 'date':
      if (text !== null && !isIsoDate(text)) throw bad('a date written YYYY-MM-DD');
      next[field] = text;
      break;
  }
  next.unsure = next.unsure.filter((f) => f !== field);
  if (!next.corrected.includes(field)) next.corrected.push(field);
  return next;
}

/** Applies every assignment or none, as the engine does. */
export function correctDemoCardAll(card: DocumentCard | null, assignments: string[]): DocumentCard {
  return assignments.reduce<DocumentCard>((c, a) => correctDemoCard(c, a), card ?? emptyCard());
}

const KIND_WORDS: [RegExp, DocumentKind][] = [
  [/\b10-?k\b|\bannual report\b/i, 'annual-report'],
  [/\b10-?q\b|\bquarterly report\b/i, 'quarterly-report'],
  [/\b8-?k\b/i, 'current-report'],
  [/\bearnings release\b|\bpress release\b/i, 'earnings-release'],
];

function namesIn(question: string, card: DocumentCard): boolean {
  const names = [card.organization, ...card.aliases].filter((n): n is string => Boolean(n));
  return names.some((n) => new RegExp(`(^|[^\\w])${escapeRegExp(n)}($|[^\\w])`, 'i').test(question));
}

function yearsIn(question: string): number[] {
  const years: number[] = [];
  for (const m of question.matchAll(/\b(?:FY|fiscal\s+)?((?:19|20)\d{2})\b|\bFY(\d{2})\b/gi)) {
    const year = m[1] ? Number(m[1]) : 2000 + Number(m[2]);
    if (!years.includes(year)) years.push(year);
  }
  return years;
}

/** The demo's reading of `question` against the cards of `docs` (id → card). */
export function analyseDemoQuestion(question: string, cards: [number, DocumentCard][]): QuestionAnalysis {
  const named = cards.filter(([, card]) => namesIn(question, card));
  const organizations = [...new Set(named.map(([, c]) => c.organization ?? c.aliases[0] ?? ''))].filter(Boolean);
  const years = yearsIn(question);
  const quarters = [...new Set([...question.matchAll(/\bQ([1-4])\b/gi)].map((m) => Number(m[1])))];
  const kinds = KIND_WORDS.filter(([re]) => re.test(question)).map(([, k]) => k);
  const analysis: QuestionAnalysis = {
    organizations,
    years,
    quarters,
    kinds,
    dates: [],
    filter: null,
    boosts: [],
    note: '',
  };
  const notes: string[] = [];
  let candidates = cards;
  if (organizations.length > 1) {
    notes.push(`"${organizations.join('", "')}" names several organisations; their documents are ranked up, not filtered`);
  } else if (organizations.length === 1) {
    analysis.filter = named.map(([id]) => id);
    notes.push(`searched the ${named.length} document(s) of ${organizations[0]}`);
    candidates = named;
  }
  const wanted = years.length + quarters.length + kinds.length > 0;
  const score = (card: DocumentCard) =>
    (years.length > 0 && card.fiscal_year !== null && years.includes(card.fiscal_year) ? 0.5 : 0) +
    (kinds.length > 0 && card.kind !== null && kinds.includes(card.kind) ? 0.3 : 0) +
    (quarters.length > 0 && card.fiscal_quarter !== null && quarters.includes(card.fiscal_quarter) ? 0.2 : 0) +
    (organizations.length > 1 && named.some(([, c]) => c === card) ? 0.5 : 0);
  analysis.boosts = candidates
    .map(([id, card]): [number, number] => [id, score(card)])
    .filter(([, boost]) => boost > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  if (wanted && analysis.boosts.length === 0) {
    notes.push("no document's card matches the period or kind named; ranked by content alone");
  } else if (wanted) {
    notes.push(`ranked up ${analysis.boosts.length} document(s) whose period or kind matches`);
  }
  analysis.note = notes.length === 0 ? 'nothing in the question names a document' : notes.join('; ');
  return analysis;
}
