// Page numbers people read: where a PDF has page labels (the numbers printed in a book,
// roman numerals in its front matter), a page is named by its label beside its PDF page.

import type { PageLabel } from './api';

/**
 * A page's printed label when it is worth showing beside its PDF page number: only when
 * it says something else ("47" beside page 52, not "52"), the rule of the engine's
 * `search::context::label_beside`.
 */
export function labelBeside(label: string | null | undefined, page: number): string | null {
  return label && label !== String(page) ? label : null;
}

/**
 * `p. 47 · PDF page 52` when the page is printed with another number than its PDF
 * page's, else `p.52` as citations are written.
 */
export function pageInWords(page: number, label: string | null | undefined): string {
  const shown = labelBeside(label, page);
  return shown ? `p. ${shown} · PDF page ${page}` : `p.${page}`;
}

/** A document's printed labels (as `page_labels` lists them) by PDF page. */
export function labelsByPage(labels: readonly PageLabel[]): Map<number, string> {
  return new Map(labels.map((l) => [l.page, l.label]));
}
