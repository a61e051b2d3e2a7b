import { describe, expect, it } from 'vitest';
import type { Node } from './api';
import {
  ancestorsOf,
  expandableIds,
  indexTree,
  initialExpanded,
  nextFocus,
  pageRange,
  visibleRows,
  splitKeywords,
  SHOWN_KEYWORDS,
  isReadableKeyword,
  nodeTitle,
  cutAtWord,
  descriptionUnderTitle,
  rootTitled,
  ZOOM_LEVELS,
  zoomStep,
} from './tree-model';

function node(id: number, parent: number, level: number, pages: [number, number], kids: number[] = []): Node {
  return {
    id,
    doc_id: 1,
    file_name: 'A.pdf',
    parent_id: parent,
    child_ids: kids,
    level,
    page_start: pages[0],
    page_end: pages[1],
    description: `node ${id}`,
    keywords: [],
  };
}

// root 1 → sections 3 (pp.3-4) and 2 (pp.1-2), listed out of page order → pages 10..13
const NODES: Node[] = [
  node(1, -1, 2, [1, 4], [3, 2]),
  node(2, 1, 1, [1, 2], [10, 11]),
  node(3, 1, 1, [3, 4], [12, 13]),
  node(10, 2, 0, [1, 1]),
  node(11, 2, 0, [2, 2]),
  node(12, 3, 0, [3, 3]),
  node(13, 3, 0, [4, 4]),
];

const ids = (rows: { node: Node }[]) => rows.map((r) => r.node.id);

describe('indexTree', () => {
  it('orders children by page', () => {
    const tree = indexTree(NODES, 1);
    expect(tree.roots).toEqual([1]);
    expect(tree.children.get(1)).toEqual([2, 3]);
  });

  it('finds roots without root_id, and keeps orphans visible', () => {
    const orphan = node(99, 50, 0, [9, 9]);
    const tree = indexTree([...NODES, orphan], null);
    expect(tree.roots).toEqual([1, 99]);
    expect(indexTree([...NODES, orphan], 1).roots).toEqual([1, 99]);
  });

  it('ignores child ids that do not exist', () => {
    const tree = indexTree([node(1, -1, 1, [1, 1], [7, 8])], 1);
    expect(tree.children.get(1)).toEqual([]);
  });
});

describe('visibleRows', () => {
  const tree = indexTree(NODES, 1);

  it('shows only the roots when nothing is expanded', () => {
    const rows = visibleRows(tree, new Set());
    expect(ids(rows)).toEqual([1]);
    expect(rows[0]).toMatchObject({ depth: 1, hasChildren: true, expanded: false });
  });

  it('shows children of expanded nodes depth-first in page order', () => {
    const rows = visibleRows(tree, new Set([1, 3]));
    expect(ids(rows)).toEqual([1, 2, 3, 12, 13]);
    expect(rows.map((r) => r.depth)).toEqual([1, 2, 2, 3, 3]);
    expect(rows[2]).toMatchObject({ position: 2, siblings: 2, parentId: 1, expanded: true });
    expect(rows[3]).toMatchObject({ hasChildren: false, expanded: false, parentId: 3 });
  });

  it('hides the children of a collapsed node even when they are expanded', () => {
    expect(ids(visibleRows(tree, new Set([3])))).toEqual([1]);
  });

  it('expands everything', () => {
    const all = expandableIds(tree);
    expect([...all].sort()).toEqual([1, 2, 3]);
    expect(ids(visibleRows(tree, all))).toEqual([1, 2, 10, 11, 3, 12, 13]);
  });

  it('survives a cycle', () => {
    const cyclic = indexTree([node(1, -1, 1, [1, 2], [2]), node(2, 1, 0, [1, 1], [1])], 1);
    expect(ids(visibleRows(cyclic, new Set([1, 2])))).toEqual([1, 2]);
  });

  it('is fast for a 300-page document', () => {
    const nodes: Node[] = [];
    let next = 1;
    const pages: number[] = [];
    for (let p = 1; p <= 300; p++) {
      nodes.push(node(next, 0, 0, [p, p]));
      pages.push(next++);
    }
    let level = pages;
    let depth = 1;
    while (level.length > 1) {
      const up: number[] = [];
      for (let i = 0; i < level.length; i += 4) {
        const kids = level.slice(i, i + 4);
        const first = nodes.find((n) => n.id === kids[0])!;
        const last = nodes.find((n) => n.id === kids[kids.length - 1])!;
        nodes.push(node(next, 0, depth, [first.page_start, last.page_end], kids));
        up.push(next++);
      }
      level = up;
      depth++;
    }
    const tree = indexTree(nodes, level[0]!);
    const t0 = performance.now();
    const rows = visibleRows(tree, expandableIds(tree));
    expect(rows).toHaveLength(nodes.length);
    expect(rows.filter((r) => r.node.level === 0).map((r) => r.node.page_start)).toEqual(
      Array.from({ length: 300 }, (_, i) => i + 1),
    );
    expect(performance.now() - t0).toBeLessThan(100);
  });
});

describe('helpers', () => {
  const tree = indexTree(NODES, 1);

  it('finds the ancestors to expand for highlighted nodes', () => {
    expect([...ancestorsOf(tree, [12])].sort()).toEqual([1, 3]);
    expect([...ancestorsOf(tree, [1])]).toEqual([]);
  });

  it('opens the root first', () => {
    expect([...initialExpanded(tree)]).toEqual([1]);
  });

  it('labels page ranges', () => {
    expect(pageRange({ page_start: 3, page_end: 3 })).toBe('p.3');
    expect(pageRange({ page_start: 3, page_end: 7 })).toBe('pp.3–7');
  });

  it('moves focus with the arrow keys as a tree view does', () => {
    const rows = visibleRows(tree, new Set([1, 3]));
    expect(nextFocus(rows, 0, 'ArrowDown')).toEqual({ index: 1 });
    expect(nextFocus(rows, 4, 'ArrowDown')).toBeNull();
    expect(nextFocus(rows, 1, 'ArrowRight')).toEqual({ index: 1, toggle: 'expand' });
    expect(nextFocus(rows, 2, 'ArrowRight')).toEqual({ index: 3 });
    expect(nextFocus(rows, 2, 'ArrowLeft')).toEqual({ index: 2, toggle: 'collapse' });
    expect(nextFocus(rows, 4, 'ArrowLeft')).toEqual({ index: 2 });
    expect(nextFocus(rows, 0, 'ArrowLeft')).toEqual({ index: 0, toggle: 'collapse' });
    expect(nextFocus(rows, 3, 'Home')).toEqual({ index: 0 });
    expect(nextFocus(rows, 0, 'End')).toEqual({ index: 4 });
    expect(nextFocus(rows, 0, 'x')).toBeNull();
  });
});

describe('zoomStep', () => {
  it('walks the levels and stops at both ends', () => {
    expect(zoomStep(1, 1)).toBe(1.25);
    expect(zoomStep(1, -1)).toBe(0.9);
    expect(zoomStep(ZOOM_LEVELS[0]!, -1)).toBe(ZOOM_LEVELS[0]);
    expect(zoomStep(ZOOM_LEVELS[ZOOM_LEVELS.length - 1]!, 1)).toBe(ZOOM_LEVELS[ZOOM_LEVELS.length - 1]);
  });

  it('snaps a level between two steps to its neighbours', () => {
    expect(zoomStep(1.1, 1)).toBe(1.25);
    expect(zoomStep(1.1, -1)).toBe(1);
    expect(zoomStep(5, -1)).toBe(1.5);
  });
});

describe('splitKeywords', () => {
  it('keeps readable keywords in order: no stop words, short or letterless tokens, or repeats', () => {
    const { shown, hidden, offerMore } = splitKeywords(
      ['revenue', 'add', 'continue', 'of', 'Q3', '2023', '10-K', 'ab', 'Revenue', 'meat', 'données'],
    );
    expect(shown).toEqual(['revenue', 'meat', 'données']);
    expect(hidden).toEqual([]);
    expect(offerMore).toBe(false);
  });

  it('shows at most eight and offers the rest only when they are few', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `term${String.fromCharCode(97 + (i % 26))}${i}`);
    const few = splitKeywords(words(12));
    expect(few.shown).toEqual(words(12).slice(0, SHOWN_KEYWORDS));
    expect(few.hidden).toHaveLength(4);
    expect(few.offerMore).toBe(true);
    const many = splitKeywords(words(105));
    expect(many.shown).toHaveLength(8);
    expect(many.offerMore).toBe(false);
  });
});

describe('isReadableKeyword', () => {
  it('needs three letters and is not a stop word', () => {
    expect(isReadableKeyword('EBITDA')).toBe(true);
    expect(isReadableKeyword('10-K')).toBe(false);
    expect(isReadableKeyword('1,234')).toBe(false);
    expect(isReadableKeyword('The')).toBe(false);
    expect(isReadableKeyword('add')).toBe(false);
    expect(isReadableKeyword('sí')).toBe(false);
    expect(isReadableKeyword('año')).toBe(true);
  });
});

describe('nodeTitle', () => {
  const d = (description: string, title?: string | null) => ({ description, title });

  it('uses the heading title when there is one', () => {
    expect(nodeTitle(d('Revenue grew by 4% in the quarter.', 'Results of operations'))).toBe('Results of operations');
    expect(nodeTitle(d('Revenue grew.', '  '))).toBe('Revenue grew.');
    expect(nodeTitle(d('Revenue grew.', null))).toBe('Revenue grew.');
  });

  it('takes the first sentence or line of the description', () => {
    expect(nodeTitle(d('Net sales rose 4%. Costs fell in the U.S. market.'))).toBe('Net sales rose 4%.');
    expect(nodeTitle(d('Item 7 Management discussion\nRevenue grew.'))).toBe('Item 7 Management discussion');
    expect(nodeTitle(d('See p. 5 and section 3.2 for the details'))).toBe('See p. 5 and section 3.2 for the details');
    expect(nodeTitle(d('U.S. sales rose. Other text.'))).toBe('U.S. sales rose.');
    expect(nodeTitle(d(''))).toBe('');
  });

  it('cuts a long first sentence at a word, never inside one, with an ellipsis', () => {
    const long = 'The company reported consolidated revenues of 1,234 million dollars driven by strong demand across all segments and regions of operation';
    const title = nodeTitle(d(long), 60);
    expect(title.endsWith('…')).toBe(true);
    expect(title.length).toBeLessThanOrEqual(61);
    const body = title.slice(0, -1);
    expect(long.startsWith(body)).toBe(true);
    expect(long[body.length]).toBe(' ');
  });
});

describe('cutAtWord', () => {
  it('keeps short text whole and cuts long text at a space', () => {
    expect(cutAtWord('a  short\ttext', 20)).toBe('a short text');
    expect(cutAtWord('alpha beta, gamma delta', 12)).toBe('alpha beta…');
    expect(cutAtWord('supercalifragilistic', 5)).toBe('super…');
  });
});

describe('rootTitled', () => {
  it('names the root by its document unless the engine gave it a title', () => {
    const root = { description: 'This part of the manual explains the crate. More.', title: null };
    const named = rootTitled(root, 'Pump installation manual');
    expect(nodeTitle(named)).toBe('Pump installation manual');
    expect(descriptionUnderTitle(named)).toBe('This part of the manual explains the crate. More.');
    expect(nodeTitle(rootTitled({ ...root, title: 'Annual report' }, 'Pump installation manual'))).toBe('Annual report');
    expect(nodeTitle(rootTitled({ ...root, title: ' ' }, 'manual'))).toBe('manual');
  });
});

describe('descriptionUnderTitle', () => {
  it('is empty when the title is the whole description, else the whole description', () => {
    expect(descriptionUnderTitle({ description: 'Only one sentence.' })).toBe('');
    expect(descriptionUnderTitle({ description: 'One. Two more.' })).toBe('One. Two more.');
    expect(descriptionUnderTitle({ description: 'One.', title: 'Heading' })).toBe('One.');
  });
});
