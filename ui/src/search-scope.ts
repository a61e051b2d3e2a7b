// "Search only these": the documents a question is restricted to (the engine's
// `SearchSettings.documents`), named for the chip that shows it, and the documents an
// answer's pages came from.

import type { ContextPage, DocumentRecord, SearchSettings } from './api';
import { stem } from './format';

/** How many names the chip spells out before "and N more". */
const NAMED = 3;

/** The documents of `ids` still in the library (a removed one cannot be searched). */
export function liveScope(ids: readonly number[] | null, docs: readonly DocumentRecord[]): number[] | null {
  if (ids === null) return null;
  const present = new Set(docs.map((d) => d.id));
  const kept = ids.filter((id) => present.has(id));
  return kept.length > 0 ? kept : null;
}

/** "Searching only: A, B" / "Searching only: A, B, C and 4 more". */
export function scopeText(ids: readonly number[], docs: readonly DocumentRecord[]): string {
  const byId = new Map(docs.map((d) => [d.id, d.name]));
  const names = ids.map((id) => byId.get(id) ?? `document ${id}`);
  const shown = names.slice(0, NAMED).join(', ');
  const more = names.length - NAMED;
  return `Searching only: ${shown}${more > 0 ? ` and ${more} more` : ''}`;
}

/** `settings` searching the scope's documents, or the whole library without one. */
export function withScope(settings: SearchSettings, ids: readonly number[] | null): SearchSettings {
  return { ...settings, documents: ids === null ? null : [...ids] };
}

export interface AnswerSource {
  docId: number;
  name: string;
  pages: number;
}

/** The documents the context's pages came from, most pages first, then by name. */
export function answerSources(pages: readonly Pick<ContextPage, 'doc_id' | 'file_name' | 'page'>[]): AnswerSource[] {
  const seen = new Map<number, { name: string; pages: Set<number> }>();
  for (const p of pages) {
    let entry = seen.get(p.doc_id);
    if (!entry) {
      entry = { name: stem(p.file_name), pages: new Set() };
      seen.set(p.doc_id, entry);
    }
    entry.pages.add(p.page);
  }
  return [...seen]
    .map(([docId, e]) => ({ docId, name: e.name, pages: e.pages.size }))
    .sort((a, b) => b.pages - a.pages || a.name.localeCompare(b.name));
}

/** "BOEING_2022_10K (5 pages), 3M_2018_10K (1 page)". */
export function sourcesText(sources: readonly AnswerSource[]): string {
  return sources.map((s) => `${s.name} (${s.pages} ${s.pages === 1 ? 'page' : 'pages'})`).join(', ');
}
