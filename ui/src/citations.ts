// Citations in answers, the same forms the engine accepts (src/chat/citations.rs):
// `[BOEING_2022_10K p.34]`, `[X pp.3-4]`, `[NAME, p. 5]`, `[NAME page 5]`,
// `[NAME pages 3-4]`, and several in one bracket separated by `;`.
// A page marker is a word of its own (`[multipage p.3]` is document `multipage`, page 3)
// and a `.pdf` suffix on the name is dropped.

import type { Citation } from './api';
import { pageInWords } from './page-labels';

export interface CitationSpan {
  /** Index of `[` in the text. */
  start: number;
  /** Index just past `]`. */
  end: number;
  /** The bracket as written, e.g. `[A p.1; B p.2]`. */
  raw: string;
  citations: Citation[];
}

const MARKERS = ['pp.', 'p.', 'pages', 'page'] as const;
const MAX_RANGE = 50;

/** Parses one part of a bracket (`NAME p.N` etc.); null when it is not a citation. */
export function parseCitation(part: string): Citation[] | null {
  const text = part.trim();
  // The rightmost marker preceded by a space or a comma wins (names come first); of two
  // at the same place ("page" / "pages") the longer one.
  let at = -1;
  let length = 0;
  for (const marker of MARKERS) {
    let i = text.indexOf(marker);
    while (i !== -1) {
      const before = i > 0 ? text[i - 1] : undefined;
      if ((before === ' ' || before === ',') && (i > at || (i === at && marker.length > length))) {
        at = i;
        length = marker.length;
      }
      i = text.indexOf(marker, i + 1);
    }
  }
  if (at < 0) return null;
  let name = text.slice(0, at).trim().replace(/,+$/, '').trim();
  if (name.toLowerCase().endsWith('.pdf')) name = name.slice(0, -4);
  if (name === '' || name.split(/\s+/).length > 3) return null;
  const pages = text.slice(at + length).trim();
  const range = /^(\d+)\s*[-–]\s*(\d+)$/.exec(pages);
  let first: number;
  let last: number;
  if (range) {
    first = Number(range[1]);
    last = Number(range[2]);
  } else if (/^\d+$/.test(pages)) {
    first = last = Number(pages);
  } else {
    return null;
  }
  if (first === 0 || last < first || last - first > MAX_RANGE) return null;
  const found: Citation[] = [];
  // The text gives no printed number; the engine's citations do (see `withLabel`).
  for (let page = first; page <= last; page++) found.push({ document: name, page, page_label: null });
  return found;
}

/** Every bracket in `text` whose parts are all citations, in order. */
export function findCitations(text: string): CitationSpan[] {
  const spans: CitationSpan[] = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf('[', from);
    if (open < 0) break;
    const close = text.indexOf(']', open);
    if (close < 0) break;
    const inner = text.slice(open + 1, close);
    // `[[A p.2]`: the inner bracket is the citation.
    if (inner.includes('[')) {
      from = open + 1;
      continue;
    }
    const parts = inner.split(';').map(parseCitation);
    if (parts.length > 0 && parts.every((p) => p !== null)) {
      const citations = parts.flatMap((p) => p ?? []);
      if (citations.length > 0) {
        spans.push({ start: open, end: close + 1, raw: text.slice(open, close + 1), citations });
        from = close + 1;
        continue;
      }
    }
    from = open + 1;
  }
  return spans;
}

export type Segment =
  | { kind: 'text'; text: string }
  | {
      kind: 'cite';
      text: string;
      citations: Citation[];
      /** The sentence the citation backs: the words before it in the answer. */
      quote: string;
    };

/** Splits an answer into plain text and citation segments (to render citations as links). */
export function segmentAnswer(text: string): Segment[] {
  const segments: Segment[] = [];
  let last = 0;
  for (const span of findCitations(text)) {
    if (span.start > last) segments.push({ kind: 'text', text: text.slice(last, span.start) });
    segments.push({
      kind: 'cite',
      text: span.raw,
      citations: span.citations,
      quote: sentenceBefore(text, span.start),
    });
    last = span.end;
  }
  if (last < text.length) segments.push({ kind: 'text', text: text.slice(last) });
  return segments;
}

/**
 * The sentence that ends where a citation starts: the text since the previous sentence
 * end (`.`, `!`, `?` before a space, or a line break), without other citations in it.
 * A citation that follows a finished sentence (`Revenue grew. [A p.1]`) backs that one.
 */
export function sentenceBefore(text: string, index: number): string {
  let before = text.slice(0, index);
  // Blank out earlier citations so their brackets and dots do not split sentences.
  for (const span of findCitations(before)) {
    before =
      before.slice(0, span.start) + ' '.repeat(span.end - span.start) + before.slice(span.end);
  }
  before = before.replace(/[\s.!?;:,]+$/, '');
  // A sentence ends at . ! ? before a capital (or a digit, quote, bracket), or at a line break.
  const boundary = /[.!?](?=\s+[\p{Lu}\p{N}"“‘'(\[])|\n/gu;
  let start = 0;
  for (let m = boundary.exec(before); m; m = boundary.exec(before)) start = m.index + 1;
  return before
    .slice(start)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:[-*•]|\d+[.)])\s+/, '');
}

/** `A p.3`, the short label for one cited page; `A p. 47 · PDF page 52` with a printed number. */
export function citationLabel(c: Citation): string {
  return `${c.document} ${pageInWords(c.page, c.page_label)}`;
}

/**
 * `c` with the printed number the engine's citations (`labelled`) give its page: a
 * citation read from an answer's text carries none.
 */
export function withLabel(c: Citation, labelled: readonly Citation[]): Citation {
  if (c.page_label) return c;
  const known = labelled.find((l) => l.page === c.page && sameDocument(l.document, c.document));
  return known?.page_label ? { ...c, page_label: known.page_label } : c;
}

/** Same document name? Names compare without case and without a `.pdf` suffix. */
export function sameDocument(a: string, b: string): boolean {
  const norm = (s: string) => s.trim().replace(/\.pdf$/i, '').toLowerCase();
  return norm(a) === norm(b);
}

/** Unique citations in first-appearance order. */
export function uniqueCitations(citations: Citation[]): Citation[] {
  const seen = new Set<string>();
  const out: Citation[] = [];
  for (const c of citations) {
    const key = `${c.document.toLowerCase()}\u0000${c.page}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(c);
    }
  }
  return out;
}
