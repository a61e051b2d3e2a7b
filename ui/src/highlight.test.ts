import { describe, expect, it } from 'vitest';
import { bestSentence, contentWords, markRanges, splitSentences } from './highlight';

const PAGE = `Item 7. Management's Discussion and Analysis

Total revenues were $66.6 billion in 2022, up 7% from 2021. The increase was driven by
higher commercial deliveries. Commercial Airplanes delivered 480 airplanes in 2022.
Defense revenue fell to $23.2 billion.`;

describe('contentWords', () => {
  it('keeps figures whole and drops stop words', () => {
    expect(contentWords('The revenue was $66.6 billion, up 1,234 units in 2022')).toEqual([
      'revenue',
      '66.6',
      'billion',
      '1,234',
      'units',
      '2022',
    ]);
  });
});

describe('splitSentences', () => {
  it('splits at full stops and blank lines, not at wrapped lines or decimals', () => {
    const sentences = splitSentences(PAGE).map((s) => s.text);
    expect(sentences).toEqual([
      'Item 7.',
      "Management's Discussion and Analysis",
      'Total revenues were $66.6 billion in 2022, up 7% from 2021.',
      'The increase was driven by\nhigher commercial deliveries.',
      'Commercial Airplanes delivered 480 airplanes in 2022.',
      'Defense revenue fell to $23.2 billion.',
    ]);
  });

  it('gives offsets into the text', () => {
    for (const s of splitSentences(PAGE)) expect(PAGE.slice(s.start, s.end)).toBe(s.text);
  });

  it('handles empty text', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences('   ')).toEqual([]);
  });
});

describe('bestSentence', () => {
  it('finds the sentence sharing the most words', () => {
    const match = bestSentence(PAGE, "Boeing's revenues were $66.6 billion in 2022");
    expect(match?.text).toBe('Total revenues were $66.6 billion in 2022, up 7% from 2021.');
    expect(match?.shared).toContain('66.6');
  });

  it('weighs figures above common words', () => {
    const match = bestSentence(PAGE, 'deliveries reached 480 airplanes');
    expect(match?.text).toBe('Commercial Airplanes delivered 480 airplanes in 2022.');
  });

  it('returns null when nothing matches well enough', () => {
    expect(bestSentence(PAGE, 'the weather in Paris')).toBeNull();
    expect(bestSentence(PAGE, '')).toBeNull();
    expect(bestSentence('', 'revenues 2022')).toBeNull();
  });
});

describe('markRanges', () => {
  it('cuts the text around each range', () => {
    expect(markRanges('abcdef', [{ start: 2, end: 4 }])).toEqual([
      { text: 'ab', mark: false },
      { text: 'cd', mark: true },
      { text: 'ef', mark: false },
    ]);
    expect(markRanges('abc', [])).toEqual([{ text: 'abc', mark: false }]);
    expect(markRanges('abc', [{ start: 0, end: 3 }])).toEqual([{ text: 'abc', mark: true }]);
    expect(markRanges('a 1 b 2 c', [{ start: 2, end: 3 }, { start: 6, end: 7 }])).toEqual([
      { text: 'a ', mark: false },
      { text: '1', mark: true },
      { text: ' b ', mark: false },
      { text: '2', mark: true },
      { text: ' c', mark: false },
    ]);
  });

  it('skips a range that overlaps the one before it', () => {
    expect(markRanges('abcdef', [{ start: 1, end: 4 }, { start: 3, end: 5 }])).toEqual([
      { text: 'a', mark: false },
      { text: 'bcd', mark: true },
      { text: 'ef', mark: false },
    ]);
  });
});
