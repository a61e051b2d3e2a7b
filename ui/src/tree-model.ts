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


/** A node as stored, with the heading title the engine gives sections where it knows one. */
type Titled = Pick<Node, 'description'> & { title?: string | null };

/** The longest title a row shows before it is cut at a word. */
export const TITLE_CHARS = 90;

/**
 * `text` cut to at most `max` characters at a word boundary, with an ellipsis when cut;
 * a single word longer than `max` is the one case cut inside a word.
 */
export function cutAtWord(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const head = clean.slice(0, max);
  const space = head.lastIndexOf(' ');
  const cut = space > 0 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:.–—-]+$/u, '')}…`;
}

/**
 * What a row is called: its heading title when the engine has one, else the first line
 * or sentence of its description, cut at a word.
 */
export function nodeTitle(node: Titled, max = TITLE_CHARS): string {
  const title = node.title?.trim();
  if (title) return cutAtWord(title, max);
  const text = node.description.trim();
  if (!text) return '';
  const firstLine = text.split(/\n/)[0] ?? text;
  // A sentence ends at . ! or ? followed by a space; "p. 5" or "3.2" do not end one.
  const sentence = /^(.*?[^\s.!?]{2}[.!?])(?=\s|$)/u.exec(firstLine)?.[1] ?? firstLine;
  return cutAtWord(sentence, max);
}

/**
 * The root as the document it stands for: titled `documentTitle` (the card's title, else
 * the document's name) when the engine gave it no title of its own, so that the tree
 * does not open on the first sentence of the whole document's summary.
 */
export function rootTitled<T extends Titled>(root: T, documentTitle: string): T {
  return root.title?.trim() ? root : { ...root, title: documentTitle };
}

/**
 * The description shown under the title: none when the title already is the whole of it,
 * else the description (the title came from its start, so the reader sees the rest).
 */
export function descriptionUnderTitle(node: Titled): string {
  const text = node.description.replace(/\s+/g, ' ').trim();
  return text === nodeTitle(node, Number.MAX_SAFE_INTEGER) ? '' : text;
}

// English stop words and verbs that say nothing about a section ("add", "continue").
const KEYWORD_STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before ' +
    'being below between both but by can could did do does doing down during each etc few for ' +
    'from further had has have having he her here hers him his how i if in into is it its itself ' +
    'just may me might more most must my no nor not now of off on once only or other our ours out ' +
    'over own per same shall she should so some such than that the their theirs them then there ' +
    'these they this those through thus to too under until up upon very via was we were what when ' +
    'where which while who whom why will with within without would yet you your yours ' +
    'add added adds continue continued continues get gets got go goes make makes made use used uses ' +
    'using see seen said say says take takes taken give given one two three new many much well ' +
    'page pages section sections item items part parts table figure total include includes including ' +
    'following follows based related like need needs way ways thing things'
  ).split(/\s+/),
);

/** Whether `keyword` says something: three letters or more, a letter in it, not a stop word. */
export function isReadableKeyword(keyword: string): boolean {
  const word = keyword.trim().toLowerCase();
  if (!/\p{L}/u.test(word)) return false;
  if ([...word.matchAll(/\p{L}/gu)].length < 3) return false;
  return !KEYWORD_STOP_WORDS.has(word);
}

/** The keyword chips a row shows. */
export const SHOWN_KEYWORDS = 8;
/** "and N more" is offered only when N is this or fewer; beyond it the list is noise. */
export const MORE_KEYWORDS_OFFERED = 8;

/**
 * The readable keywords, without duplicates: the first `limit` to show, the rest hidden,
 * and whether to offer the rest ("and N more") at all.
 */
export function splitKeywords(
  keywords: string[],
  limit = SHOWN_KEYWORDS,
): { shown: string[]; hidden: string[]; offerMore: boolean } {
  const seen = new Set<string>();
  const readable: string[] = [];
  for (const k of keywords) {
    const key = k.trim().toLowerCase();
    if (seen.has(key) || !isReadableKeyword(k)) continue;
    seen.add(key);
    readable.push(k.trim());
  }
  const hidden = readable.slice(limit);
  return {
    shown: readable.slice(0, limit),
    hidden,
    offerMore: hidden.length > 0 && hidden.length <= MORE_KEYWORDS_OFFERED,
  };
}
