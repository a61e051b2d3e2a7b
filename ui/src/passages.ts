// The passages an extractive answer quotes, and where they are on their page: the
// viewer draws their boxes (PDF points from the page's top-left) over the page image.

import type { Citation, Passage, PassageBoxes } from './api';

/** The passage a citation of `quote` (the answer's text before it) stands for, if any. */
export function passageFor(passages: readonly Passage[], citation: Citation, quote: string): Passage | undefined {
  const same = passages.filter(
    (p) => p.document.toLowerCase() === citation.document.toLowerCase() && p.page === citation.page,
  );
  return same.find((p) => quote.includes(p.quote)) ?? same[0];
}

export interface BoxStyle {
  left: string;
  top: string;
  width: string;
  height: string;
}

/** A rectangle as percentages of the page, so that it scales with any image of it. */
export function boxStyles(boxes: PassageBoxes): BoxStyle[] {
  if (boxes.page_width <= 0 || boxes.page_height <= 0) return [];
  const pct = (value: number, whole: number) => `${((100 * value) / whole).toFixed(3)}%`;
  // A little room around the characters, so that the box does not cut them.
  const pad = 1.5;
  return boxes.rects.map((r) => ({
    left: pct(r.x - pad, boxes.page_width),
    top: pct(r.y - pad, boxes.page_height),
    width: pct(r.width + 2 * pad, boxes.page_width),
    height: pct(r.height + 2 * pad, boxes.page_height),
  }));
}

/**
 * Where in a page's text a row passage ("label — header: value; …") is: its label, found
 * with any spacing. Null when the label is not there.
 */
export function rowLabelRange(pageText: string, quote: string): { start: number; end: number } | null {
  const label = quote.split(' — ')[0]?.trim() ?? '';
  if (label === '') return null;
  const pattern = label
    .split(/\s+/)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('\\s+');
  const match = new RegExp(pattern).exec(pageText);
  return match ? { start: match.index, end: match.index + match[0].length } : null;
}
