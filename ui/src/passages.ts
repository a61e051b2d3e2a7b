// The passages an extractive answer quotes, and where they are on their page: the
// viewer draws their boxes (PDF points from the page's top-left) over the page image.

import type { Citation, Passage, PassageBoxes } from './api';
import { escapeRegExp, type TextRange } from './highlight';

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

/** How far past a row's label (or its last value found) the next value is looked for. */
const VALUE_REACH = 400;

/** `text` as a pattern that matches it with any spacing between its words. */
function spaced(text: string): RegExp {
  return new RegExp(text.trim().split(/\s+/).map(escapeRegExp).join('\\s+'));
}

/** A table value as printed, not inside a longer figure: "897" is not the end of "1,897". */
function valuePattern(value: string): RegExp {
  const escaped = escapeRegExp(value.trim());
  // A currency sign may stand apart from its figure ("$ 5,363").
  const figure = escaped.replace(/^(\\\$|€|£)/, '$1\\s*');
  return new RegExp(`(?<![\\d.,])${figure}(?![.,]?\\d)`);
}

/**
 * A row passage's label: the one it carries, else (a passage kept from before passages
 * carried it) its quote's text before " — ".
 */
export function rowLabel(passage: Pick<Passage, 'quote' | 'label'>): string {
  return (passage.label ?? passage.quote.split(' — ')[0] ?? '').trim();
}

/**
 * Where in a page's text a row passage is: its label, found with any spacing, then each
 * of its `values` in order after it (a currency sign may stand apart from its figure).
 * Empty when the label is not there.
 */
export function rowRanges(pageText: string, label: string, values: readonly string[]): TextRange[] {
  label = label.trim();
  if (label === '') return [];
  const found = spaced(label).exec(pageText);
  if (!found) return [];
  const ranges: TextRange[] = [{ start: found.index, end: found.index + found[0].length }];
  let at = found.index + found[0].length;
  for (const value of values) {
    const pattern = valuePattern(value);
    const window = pageText.slice(at, at + VALUE_REACH);
    const hit = pattern.exec(window);
    if (!hit) continue;
    const start = at + hit.index;
    ranges.push({ start, end: start + hit[0].length });
    at = start + hit[0].length;
  }
  return ranges;
}
