// Page numbers people read: where a PDF has page labels (the numbers printed in a book,
// roman numerals in its front matter), a page is named by its label beside its PDF page.

/**
 * `p. 47 · PDF page 52` when the page is printed with another number than its PDF
 * page's, else `p.52` as citations are written.
 */
export function pageInWords(page: number, label: string | null | undefined): string {
  return label && label !== String(page) ? `p. ${label} · PDF page ${page}` : `p.${page}`;
}
