// Document cards as the UI shows them: the one-line short form (the engine's
// `DocumentCard::short_form`, split into parts so each can carry its fields' marks),
// every field as label and text, and the form values ↔ `field=value` assignments that
// `correct_card` takes.

import type { CardField, DocumentCard, DocumentKind } from './api';

/** The labels the engine gives kinds (`DocumentKind::label`). */
export const KIND_LABELS: Record<DocumentKind, string> = {
  'annual-report': '10-K annual report',
  'quarterly-report': '10-Q quarterly report',
  'current-report': '8-K current report',
  'earnings-release': 'earnings release',
  paper: 'paper',
  contract: 'contract',
  report: 'report',
  slides: 'slide deck',
  manual: 'manual',
  brochure: 'brochure',
  form: 'form',
  other: 'document',
};

export const KINDS = Object.keys(KIND_LABELS) as DocumentKind[];

/** The fields in the engine's order, with the names people read. */
export const CARD_FIELDS: readonly { field: CardField; label: string }[] = [
  { field: 'title', label: 'Title' },
  { field: 'organization', label: 'Organisation' },
  { field: 'aliases', label: 'Also known as' },
  { field: 'kind', label: 'Kind' },
  { field: 'fiscal_year', label: 'Fiscal year' },
  { field: 'fiscal_quarter', label: 'Fiscal quarter' },
  { field: 'period_end', label: 'Period ends' },
  { field: 'date', label: 'Dated' },
];

/** How sure the card is of a field: a person's correction outranks a guess. */
export type FieldMark = 'corrected' | 'unsure' | 'read';

export function fieldMark(card: DocumentCard, field: CardField): FieldMark {
  if (card.corrected.includes(field)) return 'corrected';
  if (card.unsure.includes(field)) return 'unsure';
  return 'read';
}

/** The mark of a part shown for several fields: any correction, else any guess. */
export function partMark(card: DocumentCard, fields: readonly CardField[]): FieldMark {
  const marks = fields.map((f) => fieldMark(card, f));
  if (marks.includes('corrected')) return 'corrected';
  if (marks.includes('unsure')) return 'unsure';
  return 'read';
}

export const MARK_TITLES: Record<FieldMark, string> = {
  corrected: 'corrected by hand',
  unsure: 'guessed',
  read: 'read from the document',
};

export interface ShortFormPart {
  text: string;
  /** The fields the part shows (their marks decide its style). */
  fields: CardField[];
  mark: FieldMark;
}

/** Filings and results report on a fiscal period; papers, contracts, other and unknown kinds do not. */
function reportsAPeriod(card: DocumentCard): boolean {
  return (
    card.kind === 'annual-report' ||
    card.kind === 'quarterly-report' ||
    card.kind === 'current-report' ||
    card.kind === 'earnings-release'
  );
}

/** The short form's parts: organisation · kind · period (· date), as the engine builds it. */
export function shortFormParts(card: DocumentCard): ShortFormPart[] {
  const parts: { text: string; fields: CardField[] }[] = [];
  if (card.organization) parts.push({ text: card.organization, fields: ['organization'] });
  if (card.kind) parts.push({ text: KIND_LABELS[card.kind], fields: ['kind'] });
  if (!reportsAPeriod(card)) {
    // A paper's year is the year of its date, not a fiscal year.
    if (card.date) parts.push({ text: `dated ${card.date}`, fields: ['date'] });
    else if (card.fiscal_year !== null) parts.push({ text: String(card.fiscal_year), fields: ['fiscal_year'] });
    return parts.map((p) => ({ ...p, mark: partMark(card, p.fields) }));
  }
  if (card.fiscal_year !== null) {
    parts.push(
      card.fiscal_quarter !== null
        ? { text: `Q${card.fiscal_quarter} fiscal year ${card.fiscal_year}`, fields: ['fiscal_quarter', 'fiscal_year'] }
        : { text: `fiscal year ${card.fiscal_year}`, fields: ['fiscal_year'] },
    );
  }
  // A date says more than the year only for an 8-K, or when there is no year.
  if (card.date && (card.kind === 'current-report' || card.fiscal_year === null)) {
    parts.push({ text: `dated ${card.date}`, fields: ['date'] });
  }
  return parts.map((p) => ({ ...p, mark: partMark(card, p.fields) }));
}

/** "3M Company · 10-K annual report · fiscal year 2018"; empty when the card knows none of it. */
export function shortForm(card: DocumentCard): string {
  return shortFormParts(card)
    .map((p) => p.text)
    .join(' · ');
}

/** A field's value as text: what the card view shows and the form starts from ('' = none). */
export function fieldText(card: DocumentCard, field: CardField): string {
  switch (field) {
    case 'aliases':
      return card.aliases.join(', ');
    case 'kind':
      return card.kind ?? '';
    case 'fiscal_year':
    case 'fiscal_quarter':
      return card[field] === null ? '' : String(card[field]);
    default:
      return card[field] ?? '';
  }
}

/** A field's value for reading ("10-K annual report", "Q2"); '' when the card has none. */
export function fieldDisplay(card: DocumentCard, field: CardField): string {
  if (field === 'kind') return card.kind ? KIND_LABELS[card.kind] : '';
  if (field === 'fiscal_quarter') return card.fiscal_quarter === null ? '' : `Q${card.fiscal_quarter}`;
  return fieldText(card, field);
}

export type CardValues = Record<CardField, string>;

export function cardValues(card: DocumentCard | null): CardValues {
  const base = card ?? emptyCard();
  return Object.fromEntries(CARD_FIELDS.map(({ field }) => [field, fieldText(base, field)])) as CardValues;
}

/** Normalised for comparison, so re-typed spacing in aliases is not a change. */
function normalise(field: CardField, value: string): string {
  const trimmed = value.trim();
  if (field !== 'aliases') return trimmed;
  return trimmed
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean)
    .join(', ');
}

/**
 * The assignments for the fields the form changed, only those: the engine marks every
 * assigned field as corrected, and an untouched guess should stay marked as a guess.
 */
export function cardAssignments(card: DocumentCard | null, values: CardValues): string[] {
  const before = cardValues(card);
  return CARD_FIELDS.filter(({ field }) => normalise(field, values[field]) !== normalise(field, before[field])).map(
    ({ field }) => `${field}=${normalise(field, values[field])}`,
  );
}

export function emptyCard(): DocumentCard {
  return {
    title: null,
    organization: null,
    aliases: [],
    kind: null,
    fiscal_year: null,
    fiscal_quarter: null,
    period_end: null,
    date: null,
    unsure: [],
    corrected: [],
    source: 'rules',
  };
}
