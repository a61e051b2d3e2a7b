// What a search read in its question (the engine's QuestionAnalysis), in words: the
// things recognised, and how the first step used them.

import type { DocumentRecord, QuestionAnalysis, SearchResult } from './api';
import { KIND_LABELS } from './card';

/** The recognised items, grouped: `["organisation 3M Company", "year 2018", …]`. */
export function recognisedItems(analysis: QuestionAnalysis): string[] {
  const items: string[] = [];
  const group = (one: string, many: string, values: string[]) => {
    if (values.length > 0) items.push(`${values.length === 1 ? one : many} ${values.join(', ')}`);
  };
  group('organisation', 'organisations', analysis.organizations);
  group('year', 'years', analysis.years.map(String));
  group('quarter', 'quarters', analysis.quarters.map((q) => `Q${q}`));
  group('kind', 'kinds', analysis.kinds.map((k) => KIND_LABELS[k]));
  group('date', 'dates', analysis.dates);
  return items;
}

/** "Recognised organisation 3M Company, year 2018", or that nothing was. */
export function recognisedText(analysis: QuestionAnalysis): string {
  const items = recognisedItems(analysis);
  return items.length === 0 ? 'Nothing in the question names a document' : `Recognised ${items.join('; ')}`;
}

/** Document names for ids, falling back to "document N" for ids the list lacks. */
function names(ids: number[], documents: readonly DocumentRecord[]): string[] {
  return ids.map((id) => documents.find((d) => d.id === id)?.name ?? `document ${id}`);
}

/** Where the search looked: the filter's documents and the ones ranked up, by name. */
export function scopeText(analysis: QuestionAnalysis, documents: readonly DocumentRecord[]): string | null {
  const parts: string[] = [];
  if (analysis.filter) parts.push(`searched only ${names(analysis.filter, documents).join(', ')}`);
  if (analysis.boosts.length > 0) {
    parts.push(`ranked up ${names(analysis.boosts.map(([id]) => id), documents).join(', ')}`);
  }
  return parts.length === 0 ? null : parts.join('; ');
}

/** The whole banner line: what was recognised, then the engine's note on its use. */
export function analysisLine(analysis: QuestionAnalysis): string {
  const note = analysis.note.trim();
  // With nothing recognised the engine's note already says so.
  if (recognisedItems(analysis).length === 0 && note !== '') return capitalise(note);
  return note === '' ? recognisedText(analysis) : `${recognisedText(analysis)} — ${note}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The analysis several results of one question share. Every strategy reads the same
 * question against the same cards; proxy-pointer carries none, so take the first there is.
 */
export function sharedAnalysis(results: readonly SearchResult[]): QuestionAnalysis | null {
  return results.find((r) => r.analysis)?.analysis ?? null;
}
