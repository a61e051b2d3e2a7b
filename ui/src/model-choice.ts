// The embedding model a library is made with: what each one is for, and what choosing
// another one costs a library that already has documents.

import type { DenseModelId, DocumentRecord } from './api';

export interface DenseModelInfo {
  /** The model's own name, as the shell reports it in `embedding_model`. */
  name: string;
  /** One line for the select. */
  label: string;
  /** What the model is good at and what it costs, for the hint under the select. */
  help: string;
  /**
   * Seconds to embed one page, rounded from a 160-page 10-K on a 2-core machine
   * (7.2–13.6 s with MiniLM, 91–94 s with e5, by the day's load), so that a
   * re-embedding can be announced with its rough length.
   */
  secondsPerPage: number;
}

export const DENSE_MODELS: Record<DenseModelId, DenseModelInfo> = {
  minilm: {
    name: 'all-MiniLM-L6-v2',
    label: 'all-MiniLM-L6-v2 — English, fastest',
    help: 'Reads the first 256 tokens of each page, in English only: Russian and Spanish pages are found by their words alone. Fastest to add documents with.',
    secondsPerPage: 0.05,
  },
  'e5-small': {
    name: 'multilingual-e5-small',
    label: 'multilingual-e5-small — English, Russian, Spanish and about 100 more',
    help: 'Finds pages by meaning in about 100 languages. Adding documents takes about ten times as long as with MiniLM.',
    secondsPerPage: 0.6,
  },
  'e5-small+minilm': {
    name: 'multilingual-e5-small + all-MiniLM-L6-v2',
    label: 'multilingual-e5-small with all-MiniLM-L6-v2 — best for English, reads Russian and Spanish too',
    help: 'Both models read every page: an English question is answered by the two together, which find the evidence in English filings more often than either alone; a question in another language by e5 alone. A new library whose first document is in English takes it, unless a model was chosen here. Adding documents takes a fifth longer than with e5 alone.',
    secondsPerPage: 0.7,
  },
};

export const DENSE_MODEL_IDS = Object.keys(DENSE_MODELS) as DenseModelId[];

export function isDenseModelId(value: string): value is DenseModelId {
  return (DENSE_MODEL_IDS as string[]).includes(value);
}

/** "about 3 minutes", "under a minute". */
function roughDuration(seconds: number): string {
  if (seconds < 60) return 'under a minute';
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `about ${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `about ${Math.round(minutes / 60)} hours`;
}

/** The documents whose vectors a change of model makes again: the ready ones. */
function embeddedDocuments(documents: readonly DocumentRecord[]): readonly DocumentRecord[] {
  return documents.filter((d) => d.status === 'ready');
}

/** Whether saving `chosen` re-embeds documents (rather than only recording the model). */
export function reembeds(
  current: DenseModelId | null | undefined,
  chosen: DenseModelId,
  documents: readonly DocumentRecord[],
): boolean {
  return current !== chosen && embeddedDocuments(documents).length > 0;
}

/**
 * What saving `chosen` does to a library made with `current` that holds `documents`:
 * nothing, recording the model for the documents to come, or re-embedding the ones
 * there (with how long that takes, roughly).
 */
export function modelChangeNote(
  current: DenseModelId | null | undefined,
  chosen: DenseModelId,
  documents: readonly DocumentRecord[],
): string {
  if (current === chosen) return '';
  const model = DENSE_MODELS[chosen].name;
  const ready = embeddedDocuments(documents);
  if (ready.length === 0) return `Saving makes ${model} the model of the documents you add.`;
  const pages = ready.reduce((sum, d) => sum + (d.page_count ?? 0), 0);
  const count = ready.length === 1 ? 'the library’s document' : `the library’s ${ready.length} documents`;
  return (
    `Saving re-embeds ${count} (${pages} pages) with ${model}, ${roughDuration(pages * DENSE_MODELS[chosen].secondsPerPage)} ` +
    'on a 2-core machine, without reading the PDFs again. Searches wait until it is done; if it is interrupted, the library keeps its current model.'
  );
}

/**
 * What the model select asks of a library made with `current`: nothing, recording the
 * model for the documents to come, or re-embedding the ones there (which the person
 * must confirm first).
 */
export type ModelChange = 'none' | 'record' | 'reembed';

export function modelChange(
  current: DenseModelId | null | undefined,
  chosen: DenseModelId,
  documents: readonly DocumentRecord[],
): ModelChange {
  if (current === chosen || current === null || current === undefined) return 'none';
  return reembeds(current, chosen, documents) ? 'reembed' : 'record';
}
