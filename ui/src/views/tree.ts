// Tree: a document's hierarchy root → sections → pages, collapsible, keyboard navigable
// (a flat ARIA tree), with lazily loaded page thumbnails and rows rendered in chunks as
// they scroll into view, so a 300-page filing stays fast.

import { api, errorMessage, type DocumentRecord, type DocumentTree, type Node } from '../api';
import { bus, setHighlight, state } from '../app';
import { h, replace } from '../dom';
import { stem } from '../format';
import {
  ancestorsOf,
  expandableIds,
  indexTree,
  initialExpanded,
  descriptionUnderTitle,
  nextFocus,
  nodeTitle,
  pageRange,
  rootTitled,
  splitKeywords,
  visibleRows,
  zoomStep,
  type Row,
  type TreeIndex,
} from '../tree-model';
import { editCard } from './card-editor';
import { cardFields, cardLine, cardSource } from './card-view';
import { openPage } from './viewer';

const CHUNK = 120;
const THUMB_WIDTH = 64;

let loaded: { doc: DocumentRecord; tree: TreeIndex } | null = null;
let expanded = new Set<number>();
let rows: Row[] = [];
let rendered = 0;
let focusedId: number | null = null;
let loadToken = 0;
const rowEls = new Map<number, HTMLLIElement>();

const select = h('select', { id: 'tree-doc', 'data-testid': 'tree-doc' });
const expandAll = h('button', { type: 'button', class: 'secondary' }, 'Expand all');
const collapseAll = h('button', { type: 'button', class: 'secondary' }, 'Collapse all');
const zoomOut = h('button', { type: 'button', class: 'secondary', 'aria-label': 'Zoom out', title: 'Zoom out (−)' }, '−');
const zoomIn = h('button', { type: 'button', class: 'secondary', 'aria-label': 'Zoom in', title: 'Zoom in (+)' }, '+');
const zoomLabel = h('button', { type: 'button', class: 'secondary zoom-level', title: 'Back to 100% (0)', 'data-testid': 'tree-zoom' }, '100%');
let zoom = 1;

function setZoom(level: number): void {
  zoom = level;
  container.style.setProperty('--tree-zoom', String(level));
  zoomLabel.textContent = `${Math.round(level * 100)}%`;
  zoomOut.disabled = zoomStep(level, -1) === level;
  zoomIn.disabled = zoomStep(level, 1) === level;
}
const highlightBar = h('div', { class: 'highlight-bar', hidden: true, role: 'status' });
const cardPanel = h('section', { class: 'tree-card', 'aria-label': 'Document card', 'data-testid': 'tree-card', hidden: true });

/** The loaded document's card, all its fields, with the action that corrects it. */
function renderCard(): void {
  const doc = loaded?.doc;
  if (!doc) {
    cardPanel.hidden = true;
    return;
  }
  const edit = h(
    'button',
    {
      type: 'button',
      class: 'secondary small',
      'data-testid': 'tree-edit-card',
      // Saving redraws the header, so focus goes to the new button rather than the gone one.
      onclick: () => void editCard(doc).then((saved) => saved && cardPanel.querySelector<HTMLElement>('[data-testid="tree-edit-card"]')?.focus()),
    },
    'Edit card…',
  );
  replace(
    cardPanel,
    h(
      'div',
      { class: 'tree-card-head' },
      h('h3', {}, cardLine(doc.card) ?? (doc.card ? doc.card.title ?? stem(doc.name) : `${stem(doc.name)}: no card`)),
      edit,
    ),
    doc.card ? cardFields(doc.card) : h('p', { class: 'muted' }, 'The document has no card yet; “Edit card…” gives it one.'),
    doc.card ? h('p', { class: 'hint card-source' }, cardSource(doc.card)) : null,
  );
  cardPanel.hidden = false;
}
const status = h('p', { class: 'tree-status', role: 'status' });
const container = h('ul', {
  class: 'tree',
  role: 'tree',
  'aria-labelledby': 'tree-title',
  'data-testid': 'tree',
});
const sentinel = h('li', { class: 'tree-sentinel', role: 'none', 'aria-hidden': 'true' }, 'Loading more…');

// Thumbnails load when their row comes near the visible part of the tree.
const thumbObserver =
  typeof IntersectionObserver === 'function'
    ? new IntersectionObserver(
        (entries) => {
          for (const entry of entries) {
            if (!entry.isIntersecting) continue;
            thumbObserver?.unobserve(entry.target);
            loadThumb(entry.target as HTMLImageElement);
          }
        },
        { root: container, rootMargin: '300px 0px' },
      )
    : null;

const moreObserver =
  typeof IntersectionObserver === 'function'
    ? new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) renderMore();
        },
        { root: container, rootMargin: '400px 0px' },
      )
    : null;

function loadThumb(img: HTMLImageElement): void {
  const docId = Number(img.dataset.doc);
  const page = Number(img.dataset.page);
  const width = Math.round(THUMB_WIDTH * Math.min(2, globalThis.devicePixelRatio || 1));
  api
    .pageImage(docId, page, width)
    .then((src) => {
      img.src = src;
      img.classList.add('loaded');
    })
    .catch((err) => {
      img.alt = `Page ${page} could not be rendered: ${errorMessage(err)}`;
      img.classList.add('failed');
    });
}

/** The keyword chips of a row: a few readable ones, and the rest only when they are few. */
function keywordList(keywords: string[]): HTMLElement | null {
  const { shown, hidden, offerMore } = splitKeywords(keywords);
  if (shown.length === 0) return null;
  const list = h('ul', { class: 'chips', 'aria-label': 'Keywords' }, ...shown.map((k) => h('li', { class: 'chip kw' }, k)));
  if (offerMore) {
    const more = h('button', { type: 'button', class: 'link more-keywords' }, `and ${hidden.length} more`);
    more.addEventListener('click', (e) => {
      e.stopPropagation();
      more.parentElement?.remove();
      list.append(...hidden.map((k) => h('li', { class: 'chip kw' }, k)));
    });
    list.append(h('li', {}, more));
  }
  return list;
}

function rowElement(row: Row): HTMLLIElement {
  const node = row.node;
  let el = rowEls.get(node.id);
  if (!el && loaded) {
    const isLeaf = !row.hasChildren;
    const isRoot = loaded.tree.roots.includes(node.id);
    const named = isRoot ? rootTitled(node, loaded.doc.card?.title?.trim() || stem(loaded.doc.name)) : node;
    const rest = descriptionUnderTitle(named);
    const thumb = isLeaf
      ? h(
          'button',
          {
            type: 'button',
            class: 'thumb',
            tabindex: -1,
            title: `Open page ${node.page_start}`,
            'aria-label': `Open page ${node.page_start}`,
            onclick: (e: MouseEvent) => {
              e.stopPropagation();
              openLeaf(node);
            },
          },
          h('img', {
            alt: '',
            width: THUMB_WIDTH,
            height: Math.round((THUMB_WIDTH * 11) / 8.5),
            'data-doc': node.doc_id,
            'data-page': node.page_start,
          }),
        )
      : null;
    el = h(
      'li',
      {
        role: 'treeitem',
        class: `node level-${node.level}`,
        tabindex: -1,
        'data-id': node.id,
        'aria-level': row.depth,
        'aria-setsize': row.siblings,
        'aria-posinset': row.position,
      },
      h(
        'div',
        { class: 'node-row', style: `--depth:${row.depth - 1}` },
        h('span', { class: 'twisty', 'aria-hidden': 'true' }, row.hasChildren ? '' : '·'),
        h(
          'div',
          { class: 'node-body' },
          h(
            'div',
            { class: 'node-head' },
            h('span', { class: 'node-title' }, nodeTitle(named) || `Pages ${pageRange(node)}`),
            h('span', { class: 'node-pages' }, pageRange(node)),
            h('span', { class: 'hl-mark' }, 'selected by the strategy'),
          ),
          rest ? h('p', { class: 'node-desc' }, rest) : null,
          keywordList(node.keywords),
        ),
        thumb,
      ),
    );
    if (thumb) {
      const img = thumb.querySelector('img');
      if (img) {
        if (thumbObserver) thumbObserver.observe(img);
        else loadThumb(img);
      }
    }
    rowEls.set(node.id, el);
  }
  if (!el) throw new Error('no tree loaded');
  if (row.hasChildren) el.setAttribute('aria-expanded', String(row.expanded));
  el.setAttribute('aria-level', String(row.depth));
  el.classList.toggle('hl', state.highlight?.ids.has(node.id) ?? false);
  return el;
}

function renderRows(keepFocus = true): void {
  if (!loaded) return;
  rows = visibleRows(loaded.tree, expanded);
  rendered = Math.min(rows.length, Math.max(rendered, CHUNK));
  const els: HTMLElement[] = [];
  for (let i = 0; i < rendered; i++) {
    const row = rows[i];
    if (!row) continue;
    const el = rowElement(row);
    el.dataset.index = String(i);
    el.tabIndex = row.node.id === focusedId ? 0 : -1;
    els.push(el);
  }
  if (focusedId === null || !rows.some((r) => r.node.id === focusedId)) {
    focusedId = rows[0]?.node.id ?? null;
    const first = els[0];
    if (first) first.tabIndex = 0;
  }
  moreObserver?.unobserve(sentinel);
  replace(container, els, rendered < rows.length ? sentinel : null);
  if (rendered < rows.length) moreObserver?.observe(sentinel);
  status.textContent = `${rows.length} of ${loaded.tree.byId.size} nodes shown`;
  if (keepFocus && container.contains(document.activeElement)) focusRow(focusedId);
}

function renderMore(): void {
  if (!loaded || rendered >= rows.length) return;
  const start = rendered;
  rendered = Math.min(rows.length, rendered + CHUNK);
  const els: HTMLElement[] = [];
  for (let i = start; i < rendered; i++) {
    const row = rows[i];
    if (!row) continue;
    const el = rowElement(row);
    el.dataset.index = String(i);
    el.tabIndex = -1;
    els.push(el);
  }
  sentinel.before(...els);
  if (rendered >= rows.length) {
    moreObserver?.unobserve(sentinel);
    sentinel.remove();
  }
}

function ensureRendered(index: number): void {
  while (rendered <= index && rendered < rows.length) renderMore();
}

function focusRow(id: number | null): void {
  if (id === null) return;
  const index = rows.findIndex((r) => r.node.id === id);
  if (index < 0) return;
  ensureRendered(index);
  const prev = focusedId !== null ? rowEls.get(focusedId) : undefined;
  if (prev) prev.tabIndex = -1;
  focusedId = id;
  const el = rowEls.get(id);
  if (!el) return;
  el.tabIndex = 0;
  el.focus({ preventScroll: true });
  if (typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'nearest' });
}

function toggle(id: number, open?: boolean): void {
  const isOpen = expanded.has(id);
  const want = open ?? !isOpen;
  if (want === isOpen) return;
  if (want) expanded.add(id);
  else expanded.delete(id);
  focusedId = id;
  renderRows();
}

function openLeaf(node: Node): void {
  openPage({
    docId: node.doc_id,
    page: node.page_start,
    name: node.file_name,
    pageCount: loaded?.doc.page_count ?? null,
  });
}

container.addEventListener('click', (e) => {
  const li = (e.target as HTMLElement).closest<HTMLLIElement>('li[role="treeitem"]');
  if (!li) return;
  const id = Number(li.dataset.id);
  const row = rows.find((r) => r.node.id === id);
  if (!row) return;
  focusRow(id);
  if (row.hasChildren) toggle(id);
});

container.addEventListener('keydown', (e) => {
  const li = (e.target as HTMLElement).closest<HTMLLIElement>('li[role="treeitem"]');
  if (!li) return;
  const index = Number(li.dataset.index);
  const row = rows[index];
  if (!row) return;
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    if (row.hasChildren) toggle(row.node.id);
    else openLeaf(row.node);
    return;
  }
  if (e.key === '+' || e.key === '=' || e.key === '-' || e.key === '0') {
    e.preventDefault();
    setZoom(e.key === '0' ? 1 : zoomStep(zoom, e.key === '-' ? -1 : 1));
    return;
  }
  if (e.key === '*') {
    e.preventDefault();
    for (const r of rows) if (r.parentId === row.parentId && r.hasChildren) expanded.add(r.node.id);
    renderRows();
    return;
  }
  const move = nextFocus(rows, index, e.key);
  if (!move) return;
  e.preventDefault();
  if (move.toggle) toggle(row.node.id, move.toggle === 'expand');
  else focusRow(rows[move.index]?.node.id ?? null);
});

zoomOut.addEventListener('click', () => setZoom(zoomStep(zoom, -1)));
zoomIn.addEventListener('click', () => setZoom(zoomStep(zoom, 1)));
zoomLabel.addEventListener('click', () => setZoom(1));

expandAll.addEventListener('click', () => {
  if (!loaded) return;
  expanded = expandableIds(loaded.tree);
  renderRows();
});
collapseAll.addEventListener('click', () => {
  if (!loaded) return;
  expanded = new Set();
  rendered = 0;
  renderRows();
});

select.addEventListener('change', () => {
  const id = Number(select.value);
  if (Number.isFinite(id)) void load(id);
});

function fillSelect(): void {
  const docs = state.documents.filter((d) => d.status === 'ready');
  const current = loaded?.doc.id ?? Number(select.value);
  const counts = new Map<number, number>();
  const hl = state.highlight;
  if (hl) for (const docId of hl.docIds) counts.set(docId, 0);
  replace(
    select,
    docs.length === 0 ? h('option', { value: '' }, 'No ready documents') : null,
    ...docs.map((d) => {
      const marked = hl?.docIds.includes(d.id) ? ' — highlighted' : '';
      return h('option', { value: d.id, selected: d.id === current }, `${d.name} (${d.page_count ?? '?'} pages)${marked}`);
    }),
  );
  if (docs.length > 0 && !docs.some((d) => d.id === current)) select.value = String(docs[0]?.id ?? '');
}

function renderHighlightBar(): void {
  const hl = state.highlight;
  if (!hl) {
    highlightBar.hidden = true;
    return;
  }
  const here = loaded ? [...hl.ids].filter((id) => loaded?.tree.byId.has(id)).length : 0;
  const clear = h('button', { type: 'button', class: 'secondary small', onclick: () => setHighlight(null) }, 'Clear');
  const jump =
    here > 0
      ? h(
          'button',
          {
            type: 'button',
            class: 'secondary small',
            onclick: () => {
              const first = rows.find((r) => hl.ids.has(r.node.id));
              if (first) focusRow(first.node.id);
            },
          },
          'Go to first',
        )
      : null;
  replace(
    highlightBar,
    h('span', {}, `Highlighting ${hl.label}: ${here} ${here === 1 ? 'node' : 'nodes'} in this document`),
    jump,
    clear,
  );
  highlightBar.hidden = false;
}

function applyHighlight(): void {
  for (const [id, el] of rowEls) {
    const on = state.highlight?.ids.has(id) ?? false;
    el.classList.toggle('hl', on);
  }
  renderHighlightBar();
  fillSelect();
}

let revealPending = false;

/** Opens the branches that lead to highlighted nodes and scrolls to the first. */
function revealHighlight(): void {
  const hl = state.highlight;
  if (!loaded || !hl) return;
  if (!container.isConnected || container.closest('[hidden]')) {
    // Scrolling needs layout: finish when the view is shown.
    revealPending = true;
    return;
  }
  revealPending = false;
  const here = [...hl.ids].filter((id) => loaded?.tree.byId.has(id));
  if (here.length === 0) return;
  for (const id of ancestorsOf(loaded.tree, here)) expanded.add(id);
  renderRows(false);
  const first = rows.find((r) => hl.ids.has(r.node.id));
  if (first) {
    const index = rows.indexOf(first);
    ensureRendered(index);
    const el = rowEls.get(first.node.id);
    if (el && typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'center' });
    focusedId = first.node.id;
  }
}

async function load(docId: number): Promise<void> {
  const mine = ++loadToken;
  status.textContent = 'Loading the tree…';
  let data: DocumentTree;
  try {
    data = await api.documentTree(String(docId));
  } catch (err) {
    if (mine !== loadToken) return;
    status.textContent = `Could not load the tree: ${errorMessage(err)}`;
    return;
  }
  if (mine !== loadToken) return;
  thumbObserver?.disconnect();
  rowEls.clear();
  const tree = indexTree(data.nodes, data.root_id);
  loaded = { doc: data.document, tree };
  renderCard();
  expanded = initialExpanded(tree);
  rendered = 0;
  focusedId = null;
  select.value = String(docId);
  if (data.nodes.length === 0) {
    replace(container);
    status.textContent = `${stem(data.document.name)} has no tree yet.`;
    return;
  }
  renderRows(false);
  renderHighlightBar();
  revealHighlight();
}

export function createTreeView(): HTMLElement {
  bus.on('documents', () => {
    fillSelect();
    // A corrected card comes back as a new record of the same document.
    const fresh = loaded ? state.documents.find((d) => d.id === loaded?.doc.id) : undefined;
    if (loaded && fresh) {
      const changed = JSON.stringify(fresh.card) !== JSON.stringify(loaded.doc.card);
      loaded.doc = fresh;
      if (changed) renderCard();
    }
    if (!loaded) {
      const first = state.documents.find((d) => d.status === 'ready');
      if (first) void load(first.id);
    } else if (!state.documents.some((d) => d.id === loaded?.doc.id)) {
      loaded = null;
      renderCard();
      replace(container);
      status.textContent = 'The document was removed.';
      const first = state.documents.find((d) => d.status === 'ready');
      if (first) void load(first.id);
    }
  });
  bus.on('highlight', applyHighlight);
  bus.on('shown', (view) => {
    if (view === 'tree' && revealPending) revealHighlight();
  });
  bus.on('show-tree', ({ docId }) => {
    if (loaded?.doc.id === docId) revealHighlight();
    else void load(docId);
  });
  const label = h('label', { for: 'tree-doc' }, 'Document');
  return h(
    'section',
    { class: 'view tree-view', 'aria-labelledby': 'tree-title' },
    h('h2', { id: 'tree-title', tabindex: -1 }, 'Tree'),
    h('div', { class: 'toolbar' }, h('div', { class: 'field inline' }, label, select), expandAll, collapseAll, h('div', { class: 'zoom', role: 'group', 'aria-label': 'Zoom' }, zoomOut, zoomLabel, zoomIn), status),
    cardPanel,
    highlightBar,
    h(
      'p',
      { class: 'hint' },
      'Arrow keys move, → opens, ← closes, Enter opens a page, + and − zoom; click a thumbnail to see the page large.',
    ),
    container,
  );
}
