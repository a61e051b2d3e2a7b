import { describe, expect, it } from 'vitest';
import {
  findCitations,
  parseCitation,
  segmentAnswer,
  sentenceBefore,
  sameDocument,
  uniqueCitations,
} from './citations';

describe('parseCitation', () => {
  it('reads a single page', () => {
    expect(parseCitation('BOEING_2022_10K p.34')).toEqual([{ document: 'BOEING_2022_10K', page: 34, page_label: null }]);
  });

  it('expands a page range, with either dash', () => {
    expect(parseCitation('X pp.3-4')).toEqual([
      { document: 'X', page: 3, page_label: null },
      { document: 'X', page: 4, page_label: null },
    ]);
    expect(parseCitation('X pp. 7 – 9')?.map((c) => c.page)).toEqual([7, 8, 9]);
  });

  it('accepts a comma and a space after the marker', () => {
    expect(parseCitation('NAME, p. 5')).toEqual([{ document: 'NAME', page: 5, page_label: null }]);
  });

  it('accepts "page" and "pages" as words', () => {
    expect(parseCitation('NAME page 12')).toEqual([{ document: 'NAME', page: 12, page_label: null }]);
    expect(parseCitation('NAME pages 2-3')?.map((c) => c.page)).toEqual([2, 3]);
  });

  it('treats a page marker inside a name as part of the name', () => {
    expect(parseCitation('multipage p.3')).toEqual([{ document: 'multipage', page: 3, page_label: null }]);
    expect(parseCitation('homepage page 2')).toEqual([{ document: 'homepage', page: 2, page_label: null }]);
  });

  it('uses the rightmost marker', () => {
    expect(parseCitation('Annual report page p.4')).toEqual([{ document: 'Annual report page', page: 4, page_label: null }]);
  });

  it('drops a .pdf suffix', () => {
    expect(parseCitation('3M_2018_10K.pdf p.60')).toEqual([{ document: '3M_2018_10K', page: 60, page_label: null }]);
  });

  it('rejects what is not a citation', () => {
    expect(parseCitation('see above')).toBeNull();
    expect(parseCitation('p.3')).toBeNull(); // no name
    expect(parseCitation('NAME p.0')).toBeNull();
    expect(parseCitation('NAME pp.5-3')).toBeNull();
    expect(parseCitation('NAME pp.1-80')).toBeNull(); // more than 50 pages
    expect(parseCitation('NAME p.3a')).toBeNull();
    expect(parseCitation('one two three four p.3')).toBeNull(); // names are short
    expect(parseCitation('NAMEp.3')).toBeNull(); // marker is not a word of its own
  });
});

describe('findCitations', () => {
  it('finds spans and pages in order', () => {
    const text = 'Revenue was $66.6 billion [BOEING_2022_10K p.34], up 7% [X pp.3-4].';
    const spans = findCitations(text);
    expect(spans).toHaveLength(2);
    expect(spans[0]?.raw).toBe('[BOEING_2022_10K p.34]');
    expect(text.slice(spans[0]!.start, spans[0]!.end)).toBe('[BOEING_2022_10K p.34]');
    expect(spans[1]?.citations.map((c) => c.page)).toEqual([3, 4]);
  });

  it('reads several citations in one bracket', () => {
    const [span] = findCitations('Both agree [A p.1; B p.2].');
    expect(span?.citations).toEqual([
      { document: 'A', page: 1, page_label: null },
      { document: 'B', page: 2, page_label: null },
    ]);
  });

  it('ignores brackets that are not all citations', () => {
    expect(findCitations('a [note] b [A p.1; not one] c [1]')).toEqual([]);
  });

  it('copes with an unclosed bracket and a nested one', () => {
    expect(findCitations('text [A p.1')).toEqual([]);
    const spans = findCitations('x [[A p.2] y');
    expect(spans).toHaveLength(1);
    expect(spans[0]?.raw).toBe('[A p.2]');
  });
});

describe('segmentAnswer', () => {
  it('splits text and citations and keeps every character', () => {
    const text = 'Deliveries rose to 480 [B p.6]. Cash fell [B pp.9-10] sharply.';
    const segments = segmentAnswer(text);
    expect(segments.map((s) => s.kind)).toEqual(['text', 'cite', 'text', 'cite', 'text']);
    expect(segments.map((s) => s.text).join('')).toBe(text);
    const second = segments[3];
    expect(second?.kind === 'cite' && second.quote).toBe('Cash fell');
  });

  it('returns one text segment without citations', () => {
    expect(segmentAnswer('No sources.')).toEqual([{ kind: 'text', text: 'No sources.' }]);
  });
});

describe('sentenceBefore', () => {
  it('takes the sentence since the previous full stop', () => {
    const text = 'First fact here. Revenue was $66.6 billion in 2022 [A p.5].';
    expect(sentenceBefore(text, text.indexOf('['))).toBe('Revenue was $66.6 billion in 2022');
  });

  it('backs the finished sentence when the citation follows its full stop', () => {
    const text = 'Intro. Revenue grew. [A p.1]';
    expect(sentenceBefore(text, text.indexOf('['))).toBe('Revenue grew');
  });

  it('ignores earlier citations in the same sentence', () => {
    const text = 'Margins fell [A p.2] while costs rose [A p.3].';
    expect(sentenceBefore(text, text.lastIndexOf('['))).toBe('Margins fell while costs rose');
  });

  it('stops at a line break and strips list markers', () => {
    const text = 'Points:\n- Orders grew 12% [A p.4]';
    expect(sentenceBefore(text, text.indexOf('['))).toBe('Orders grew 12%');
  });
});

describe('helpers', () => {
  it('compares document names without case and suffix', () => {
    expect(sameDocument('Boeing_2022_10K.PDF', 'boeing_2022_10k')).toBe(true);
    expect(sameDocument('A', 'B')).toBe(false);
  });

  it('dedupes citations', () => {
    expect(
      uniqueCitations([
        { document: 'A', page: 1, page_label: null },
        { document: 'a', page: 1, page_label: null },
        { document: 'A', page: 2, page_label: null },
      ]),
    ).toEqual([
      { document: 'A', page: 1, page_label: null },
      { document: 'A', page: 2, page_label: null },
    ]);
  });
});
