// A document's page tree as the Tree view needs it: nodes by id, children in page
// order, and the rows that are visible given which nodes are expanded.

import type { Node } from './api';

export interface TreeIndex {
  byId: Map<number, Node>;
  /** Children of each node, in page order, limited to nodes that exist. */
  children: Map<number, number[]>;
  /** The top of the tree: `root_id`, or every node without a known parent. */
  roots: number[];
}

const byPage = (a: Node, b: Node) =>
  a.page_start - b.page_start || a.page_end - b.page_end || a.id - b.id;

export function indexTree(nodes: Node[], rootId: number | null): TreeIndex {
  const byId = new Map<number, Node>();
  for (const node of nodes) byId.set(node.id, node);
  const children = new Map<number, number[]>();
  for (const node of nodes) {
    const kids = node.child_ids
      .map((id) => byId.get(id))
      .filter((n): n is Node => n !== undefined)
      .sort(byPage)
      .map((n) => n.id);
    children.set(node.id, kids);
  }
  // Nodes listed as a child by nobody, and whose parent is missing, are roots too, so a
  // tree with a gap still shows everything.
  const listed = new Set<number>();
  for (const kids of children.values()) for (const id of kids) listed.add(id);
  let roots: number[];
  if (rootId !== null && byId.has(rootId)) {
    roots = [rootId];
    for (const node of nodes) {
      if (node.id !== rootId && !listed.has(node.id) && !byId.has(node.parent_id)) {
        roots.push(node.id);
      }
    }
  } else {
    roots = nodes
      .filter((n) => !listed.has(n.id) && (n.parent_id === -1 || !byId.has(n.parent_id)))
      .sort(byPage)
      .map((n) => n.id);
  }
  return { byId, children, roots };
}

export interface Row {
  node: Node;
  /** 1 for the root. */
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
  /** Position among its siblings (1-based) and their number, for aria-posinset/setsize. */
  position: number;
  siblings: number;
  parentId: number | null;
}

/**
 * Depth-first rows of the nodes that can be seen: a node's children only when it is
 * expanded. Iterative, so deep or wide trees cost no stack.
 */
export function visibleRows(tree: TreeIndex, expanded: ReadonlySet<number>): Row[] {
  const rows: Row[] = [];
  type Item = { id: number; depth: number; position: number; siblings: number; parent: number | null };
  const stack: Item[] = [];
  const pushAll = (ids: number[], depth: number, parent: number | null) => {
    for (let i = ids.length - 1; i >= 0; i--) {
      const id = ids[i];
      if (id !== undefined) stack.push({ id, depth, position: i + 1, siblings: ids.length, parent });
    }
  };
  pushAll(tree.roots, 1, null);
  const seen = new Set<number>();
  while (stack.length > 0) {
    const item = stack.pop();
    if (!item) break;
    const node = tree.byId.get(item.id);
    if (!node || seen.has(item.id)) continue;
    seen.add(item.id);
    const kids = tree.children.get(item.id) ?? [];
    const isOpen = kids.length > 0 && expanded.has(item.id);
    rows.push({
      node,
      depth: item.depth,
      hasChildren: kids.length > 0,
      expanded: isOpen,
      position: item.position,
      siblings: item.siblings,
      parentId: item.parent,
    });
    if (isOpen) pushAll(kids, item.depth + 1, item.id);
  }
  return rows;
}

/** Every node that has children: "expand all". */
export function expandableIds(tree: TreeIndex): Set<number> {
  const ids = new Set<number>();
  for (const [id, kids] of tree.children) if (kids.length > 0) ids.add(id);
  return ids;
}

/** The nodes to expand so that every one of `ids` is visible: their ancestors. */
export function ancestorsOf(tree: TreeIndex, ids: Iterable<number>): Set<number> {
  const parent = new Map<number, number>();
  for (const [id, kids] of tree.children) for (const kid of kids) parent.set(kid, id);
  const out = new Set<number>();
  for (const id of ids) {
    let at = parent.get(id);
    while (at !== undefined && !out.has(at)) {
      out.add(at);
      at = parent.get(at);
    }
  }
  return out;
}

/** The default view: the root(s) open, so the first level of sections shows. */
export function initialExpanded(tree: TreeIndex): Set<number> {
  return new Set(tree.roots.filter((id) => (tree.children.get(id) ?? []).length > 0));
}

/** "p.3" or "pp.3–7". */
export function pageRange(node: { page_start: number; page_end: number }): string {
  return node.page_start === node.page_end
    ? `p.${node.page_start}`
    : `pp.${node.page_start}–${node.page_end}`;
}

/** The index of the row to focus after a key press in the tree, or null to do nothing. */
export function nextFocus(
  rows: Row[],
  current: number,
  key: string,
): { index: number; toggle?: 'expand' | 'collapse' } | null {
  const row = rows[current];
  if (!row) return rows.length > 0 ? { index: 0 } : null;
  switch (key) {
    case 'ArrowDown':
      return current + 1 < rows.length ? { index: current + 1 } : null;
    case 'ArrowUp':
      return current > 0 ? { index: current - 1 } : null;
    case 'Home':
      return { index: 0 };
    case 'End':
      return { index: rows.length - 1 };
    case 'ArrowRight':
      if (row.hasChildren && !row.expanded) return { index: current, toggle: 'expand' };
      if (row.expanded) return { index: current + 1 };
      return null;
    case 'ArrowLeft': {
      if (row.expanded) return { index: current, toggle: 'collapse' };
      if (row.parentId === null) return null;
      const parent = rows.findIndex((r) => r.node.id === row.parentId);
      return parent >= 0 ? { index: parent } : null;
    }
    default:
      return null;
  }
}

/** The tree's zoom levels (1 = the normal size), smallest first. */
export const ZOOM_LEVELS: readonly number[] = [0.75, 0.9, 1, 1.25, 1.5, 2];

/** The zoom level one step in `direction` (+1 in, -1 out) from `current`, kept in range. */
export function zoomStep(current: number, direction: 1 | -1): number {
  const levels = ZOOM_LEVELS;
  const at = levels.findIndex((z) => z >= current - 1e-9);
  const index = at === -1 ? levels.length - 1 : at;
  // Between two levels, "in" goes to the next one up and "out" to the one below.
  const exact = Math.abs((levels[index] ?? 1) - current) < 1e-9;
  const target = direction > 0 ? (exact ? index + 1 : index) : index - 1;
  return levels[Math.min(levels.length - 1, Math.max(0, target))] ?? 1;
}

/** The first `limit` keywords to show, and the rest. */
export function splitKeywords(keywords: string[], limit: number): { shown: string[]; hidden: string[] } {
  return { shown: keywords.slice(0, limit), hidden: keywords.slice(limit) };
}
