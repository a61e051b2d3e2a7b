// What the library list shows of many documents: which match the filter, and in what
// order. Pure, so that 500 documents can be filtered and sorted without a DOM.

import type { DocumentRecord, DocumentStatus } from './api';
import { fieldDisplay } from './card';

export type SortKey = 'name' | 'added' | 'pages' | 'status';

export const SORT_LABELS: Record<SortKey, string> = {
  name: 'Name',
  added: 'Date added (newest first)',
  pages: 'Pages (most first)',
  status: 'Status (problems first)',
};

export const SORT_KEYS = Object.keys(SORT_LABELS) as SortKey[];

export function isSortKey(value: string): value is SortKey {
  return value in SORT_LABELS;
}

// Records are replaced, never mutated, when the list is refreshed, so a record's text
// can be kept for as long as the record lives: typing in the filter then costs one
// `includes` per document and word.
const texts = new WeakMap<DocumentRecord, string>();

/** Everything the filter looks in: the names and the card as the list shows it. */
export function searchText(doc: DocumentRecord): string {
  let text = texts.get(doc);
  if (text === undefined) {
    const card = doc.card;
    const parts = [doc.name, doc.file_name];
    if (card) {
      for (const f of ['title', 'organization', 'aliases', 'kind', 'fiscal_year', 'fiscal_quarter', 'period_end', 'date'] as const) {
        parts.push(fieldDisplay(card, f));
      }
      // "fiscal year 2018" is how the card line says it, so it is what people type.
      if (card.fiscal_year !== null) parts.push(`fiscal year ${card.fiscal_year} fy${card.fiscal_year}`);
    }
    text = fold(parts.filter(Boolean).join(' \u0000 '));
    texts.set(doc, text);
  }
  return text;
}

/** Lower case without accents, so "societe" finds "Société". */
function fold(s: string): string {
  return s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** The filter's words; a document matches when its text holds every one of them. */
export function filterWords(query: string): string[] {
  return fold(query).split(/\s+/).filter(Boolean);
}

export function matches(doc: DocumentRecord, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const text = searchText(doc);
  return words.every((w) => text.includes(w));
}

// Problems first: a failed or interrupted document needs a decision, one being ingested
// will change.
const STATUS_ORDER: Record<DocumentStatus, number> = { failed: 0, interrupted: 0, ingesting: 1, ready: 2 };

const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function compare(a: DocumentRecord, b: DocumentRecord, key: SortKey): number {
  switch (key) {
    case 'added':
      // ISO 8601 times in UTC compare as text; newest first.
      return a.added_at < b.added_at ? 1 : a.added_at > b.added_at ? -1 : 0;
    case 'pages':
      // Unknown page counts (still ingesting, failed) go last.
      return (b.page_count ?? -1) - (a.page_count ?? -1);
    case 'status':
      return STATUS_ORDER[a.status] - STATUS_ORDER[b.status];
    case 'name':
      return 0;
  }
}

/** The documents to show: those matching `query`, in `key`'s order, ties by name then id. */
export function visibleDocuments(docs: readonly DocumentRecord[], query: string, key: SortKey): DocumentRecord[] {
  const words = filterWords(query);
  const shown = words.length === 0 ? [...docs] : docs.filter((d) => matches(d, words));
  return shown.sort((a, b) => compare(a, b, key) || byName.compare(a.name, b.name) || a.id - b.id);
}

/** "12 documents", or "3 of 500 documents" while a filter hides some. */
export function countText(shown: number, total: number): string {
  const noun = total === 1 ? 'document' : 'documents';
  return shown === total ? `${total} ${noun}` : `${shown} of ${total} ${noun}`;
}
