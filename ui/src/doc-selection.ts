// Which documents of the library list are selected, by id. Selections survive the
// filter (a hidden document stays selected) but not the document's removal.

import type { DocumentRecord } from './api';

/** The ids still in the library, in the library's order. */
export function pruneSelection(selected: ReadonlySet<number>, docs: readonly DocumentRecord[]): Set<number> {
  return new Set(docs.filter((d) => selected.has(d.id)).map((d) => d.id));
}

/** What the "select all shown" box shows: none, some (indeterminate) or all of the shown ones. */
export function shownSelection(selected: ReadonlySet<number>, shownIds: readonly number[]): 'none' | 'some' | 'all' {
  let count = 0;
  for (const id of shownIds) if (selected.has(id)) count++;
  if (count === 0) return 'none';
  return count === shownIds.length ? 'all' : 'some';
}

/** Selects (or unselects) every shown document, keeping the hidden ones as they were. */
export function setShown(selected: ReadonlySet<number>, shownIds: readonly number[], on: boolean): Set<number> {
  const next = new Set(selected);
  for (const id of shownIds) {
    if (on) next.add(id);
    else next.delete(id);
  }
  return next;
}

/** The selected documents, in the library's order. */
export function selectedDocuments(selected: ReadonlySet<number>, docs: readonly DocumentRecord[]): DocumentRecord[] {
  return docs.filter((d) => selected.has(d.id));
}

/** "3 selected (1 not shown by the filter)". */
export function selectionText(selected: ReadonlySet<number>, shownIds: readonly number[]): string {
  if (selected.size === 0) return 'None selected';
  const shown = new Set(shownIds);
  let hidden = 0;
  for (const id of selected) if (!shown.has(id)) hidden++;
  return hidden === 0 ? `${selected.size} selected` : `${selected.size} selected (${hidden} hidden by the filter)`;
}
