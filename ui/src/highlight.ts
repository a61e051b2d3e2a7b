// Finding the cited passage on a page: split the page text into sentences and pick the
// one that shares the most words with the sentence of the answer the citation backs.

export interface Sentence {
  start: number;
  end: number;
  text: string;
}

export interface Match extends Sentence {
  /** Weighted count of shared words. */
  score: number;
  /** Shared words, lower case. */
  shared: string[];
}

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by for from had has have he her his i if in into is it its ' +
    'of on or our she so than that the their them then there these they this those to was we ' +
    'were what when which while who will with would you your not no do does did can could ' +
    'also about over under more most other such per each any all both during after before ' +
    'between than up down out only same very just may might must shall should were page pages'
  ).split(/\s+/),
);

/** Words worth comparing: lower case, numbers kept whole (`66.6`, `1,234`), stop words out. */
export function contentWords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+(?:[.,'’][\p{L}\p{N}]+)*/gu) ?? [];
  return words
    .map((w) => w.replace(/['’]s$/, ''))
    .filter((w) => (w.length > 1 || /\d/.test(w)) && !STOP_WORDS.has(w));
}

/**
 * Splits page text into sentences with their offsets. A sentence ends at `.`, `!` or `?`
 * followed by space and a capital letter, digit or quote, or at a blank line; single line
 * breaks (PDF text wraps lines) do not end one.
 */
export function splitSentences(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  const boundary = /[.!?]["”’')\]]*(?=\s+[\p{Lu}\p{N}"“‘'(\[•\-])|\n\s*\n|[.!?]["”’')\]]*\s*$/gu;
  let start = 0;
  const push = (from: number, to: number) => {
    let s = from;
    let e = to;
    while (s < e && /\s/.test(text[s] ?? '')) s++;
    while (e > s && /\s/.test(text[e - 1] ?? '')) e--;
    if (e > s) sentences.push({ start: s, end: e, text: text.slice(s, e) });
  };
  for (let m = boundary.exec(text); m; m = boundary.exec(text)) {
    const end = m.index + m[0].length;
    push(start, end);
    start = end;
    if (m[0].length === 0) boundary.lastIndex++;
  }
  push(start, text.length);
  return sentences;
}

function weight(word: string): number {
  // Figures identify a passage far better than common words do.
  return /\d/.test(word) ? 2 : 1;
}

/**
 * The sentence of `pageText` sharing the most (weighted) words with `quote`; ties go to
 * the shorter sentence. Null when nothing shares at least two words (or one figure), or
 * when the quote has no content words at all.
 */
export function bestSentence(pageText: string, quote: string): Match | null {
  const wanted = new Set(contentWords(quote));
  if (wanted.size === 0) return null;
  const totalWeight = [...wanted].reduce((sum, w) => sum + weight(w), 0);
  const needed = Math.min(2, totalWeight);
  let best: Match | null = null;
  for (const sentence of splitSentences(pageText)) {
    const words = new Set(contentWords(sentence.text));
    const shared = [...wanted].filter((w) => words.has(w));
    const score = shared.reduce((sum, w) => sum + weight(w), 0);
    if (score < needed) continue;
    if (
      !best ||
      score > best.score ||
      (score === best.score && sentence.text.length < best.text.length)
    ) {
      best = { ...sentence, score, shared };
    }
  }
  return best;
}

export type TextPart = { text: string; mark: boolean };

export type TextRange = { start: number; end: number };

/** `text` with every character a regular expression reads as syntax escaped. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The page text cut around the ranges (in order, not overlapping), to render with `<mark>`. */
export function markRanges(text: string, ranges: readonly TextRange[]): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const range of ranges) {
    if (range.start < at || range.start >= range.end) continue;
    if (range.start > at) parts.push({ text: text.slice(at, range.start), mark: false });
    parts.push({ text: text.slice(range.start, range.end), mark: true });
    at = range.end;
  }
  if (at < text.length || parts.length === 0) parts.push({ text: text.slice(at), mark: false });
  return parts;
}
