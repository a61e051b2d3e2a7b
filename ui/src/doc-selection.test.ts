import { describe, expect, it } from 'vitest';
import type { DocumentRecord } from './api';
import { pruneSelection, selectedDocuments, selectionText, setShown, shownSelection } from './doc-selection';

const docs = [1, 2, 3, 4].map((id) => ({ id, name: `D${id}` }) as DocumentRecord);

describe('the selection of documents', () => {
  it('drops removed documents and keeps the library’s order', () => {
    expect([...pruneSelection(new Set([4, 9, 2]), docs)]).toEqual([2, 4]);
    expect(selectedDocuments(new Set([4, 2]), docs).map((d) => d.name)).toEqual(['D2', 'D4']);
  });

  it('selects the shown documents only, and says so for the box', () => {
    const some = setShown(new Set([4]), [1, 2], true);
    expect([...some].sort()).toEqual([1, 2, 4]);
    expect(shownSelection(some, [1, 2])).toBe('all');
    expect(shownSelection(some, [1, 2, 3])).toBe('some');
    expect(shownSelection(new Set(), [1])).toBe('none');
    expect([...setShown(some, [1, 2], false)]).toEqual([4]);
    expect(selectionText(some, [1, 2])).toBe('3 selected (1 hidden by the filter)');
    expect(selectionText(new Set([1]), [1, 2])).toBe('1 selected');
    expect(selectionText(new Set(), [1, 2])).toBe('None selected');
  });
});
