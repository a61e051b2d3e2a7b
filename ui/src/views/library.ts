// Library: add PDFs (button, drag and drop), follow their ingestion, remove them; with
// hundreds of documents, filter, sort and select them to remove many at once or to
// search only those.

import {
  api,
  errorMessage,
  forgetImages,
  insideTauri,
  type DocumentRecord,
  type IngestFinished,
  type IngestProgress,
  type IngestQueued,
} from '../api';
import { announce, bus, navigate, setDocuments, setScope, state } from '../app';
import { pruneSelection, selectedDocuments, selectionText, setShown, shownSelection } from '../doc-selection';
import { busy, h, replace } from '../dom';
import { documentForFile, isPdfName } from '../format';
import { failureText, IngestClock, outcomeText, summaryText } from '../ingest-clock';
import { countText, filterWords, isSortKey, SORT_KEYS, SORT_LABELS, visibleDocuments, type SortKey } from '../library-list';
import { removalQuestion, removalSummary, removeEach } from '../remove-many';
import { editCard } from './card-editor';
import { createAssetsBanner } from './about';
import { confirmDialog } from './dialogs';
import { makeRow, type Row, type RowActions } from './library-row';

/** Outcomes of finished ingestions worth keeping on screen: errors and warnings, by file. */
const finished = new Map<string, IngestFinished>();

/** The whole batch's progress and time left. */
const clock = new IngestClock();

/** Selected documents, by id; kept while the filter hides them. */
let selected = new Set<number>();
/** The ids of the documents the list shows now, in its order. */
let shownIds: number[] = [];
/** The row whose details and actions are shown, by its key; one at a time. */
let openKey: string | null = null;

const list = h('ul', { class: 'doc-list', 'aria-label': 'Documents', 'data-testid': 'doc-list' });
const message = h('p', { class: 'message', role: 'alert', hidden: true });
const empty = h(
  'p',
  { class: 'empty-state', hidden: true },
  'The library is empty. Drop PDFs or folders of PDFs on this window, or use “Add PDFs…”.',
);
const ingestStatus = h('p', { class: 'ingest-status', role: 'status', 'aria-live': 'polite', 'data-testid': 'ingest-status' });
const overall = h('progress', { max: 1, value: 0, hidden: true, 'aria-label': 'Ingestion of the whole batch', 'data-testid': 'ingest-overall' });
const cancelAll = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Cancel ingestion');
/** What the last batch came to, with the files that were not added and why. */
const batchOutcome = h('div', { class: 'batch-outcome', role: 'status', hidden: true, 'data-testid': 'ingest-outcome' });
const outcomeLine = h('p', {});
const outcomeFailures = h('ul', { class: 'outcome-failures' });
const dismissOutcome = h('button', { type: 'button', class: 'secondary small' }, 'Dismiss');
const rows = new Map<string, Row>();

const filter = h('input', {
  type: 'search',
  id: 'library-filter',
  placeholder: 'Name, organisation, kind, year…',
  autocomplete: 'off',
  // Names and tickers are not words: no red underlines.
  spellcheck: 'false',
  'data-testid': 'library-filter',
});
const sort = h(
  'select',
  { id: 'library-sort', 'data-testid': 'library-sort' },
  ...SORT_KEYS.map((k) => h('option', { value: k }, SORT_LABELS[k])),
);
const shownCount = h('span', { class: 'library-count', 'data-testid': 'library-count' });
const selectAll = h('input', { type: 'checkbox', id: 'library-select-all', 'data-testid': 'library-select-all' });
const selectionLine = h('span', { class: 'selection-text', 'aria-live': 'polite', 'data-testid': 'library-selection' });
const searchOnly = h(
  'button',
  { type: 'button', class: 'secondary', disabled: true, 'data-testid': 'library-search-only' },
  'Search only these',
);
const removeSelected = h(
  'button',
  { type: 'button', class: 'secondary danger-text', disabled: true, 'data-testid': 'library-remove-selected' },
  'Remove selected…',
);
const clearSelection = h(
  'button',
  { type: 'button', class: 'secondary small', hidden: true, 'data-testid': 'library-clear-selection' },
  'Clear selection',
);
const clearFilter = h('button', { type: 'button', class: 'secondary small' }, 'Clear the filter');
const noMatch = h('p', { class: 'empty-state', hidden: true, 'data-testid': 'library-no-match' });
const removalOutcome = h('div', { class: 'message', role: 'alert', hidden: true, 'data-testid': 'library-remove-outcome' });
/** The whole toolbar is pointless for an empty library. */
const toolbar = h('div', { class: 'library-toolbar', role: 'group', 'aria-label': 'Find and select documents', hidden: true });

function showMessage(text: string | null): void {
  message.hidden = text === null;
  message.textContent = text ?? '';
}

async function cancelIngestion(button: HTMLButtonElement): Promise<void> {
  try {
    await busy(button, () => api.cancelIngest());
    clock.cancel();
    announce('Cancelling ingestion');
  } catch (err) {
    showMessage(errorMessage(err));
  }
}

async function removeDocument(doc: DocumentRecord): Promise<void> {
  const question = removalQuestion([doc]);
  if (!(await confirmDialog(question.title, question.message, 'Remove'))) return;
  try {
    const removed = await api.deleteDocument(String(doc.id));
    forgetImages(removed.id);
    finished.delete(doc.file_name);
    announce(`${removed.name} removed`);
    showMessage(null);
    await refreshDocuments();
  } catch (err) {
    showMessage(`Could not remove ${doc.name}: ${errorMessage(err)}`);
  }
}

const rowActions: RowActions = {
  toggle(row) {
    const key = [...rows].find(([, r]) => r === row)?.[0] ?? null;
    openKey = key === openKey ? null : key;
    for (const [k, r] of rows) r.setOpen(k === openKey);
  },
  select(doc, on) {
    if (on) selected.add(doc.id);
    else selected.delete(doc.id);
    updateSelection();
  },
  showTree(doc) {
    bus.emit('show-tree', { docId: doc.id });
    navigate('tree');
  },
  edit: (doc) => void editCard(doc),
  remove: (doc) => void removeDocument(doc),
  cancel: (button) => void cancelIngestion(button),
  dismiss(file) {
    finished.delete(file);
    render();
  },
};

interface Item {
  key: string;
  doc: DocumentRecord | null;
  file: string;
  /** Queued, not started yet. */
  waiting?: boolean;
}

/** Files being added or that failed without a record: shown above the documents. */
function pendingItems(docs: DocumentRecord[]): Item[] {
  const items: Item[] = [];
  const claimed = new Set<string>(docs.map((d) => d.file_name));
  const add = (file: string) => {
    if (claimed.has(file) || documentForFile(file, docs)) return;
    items.push({ key: `file:${file}`, doc: null, file });
    claimed.add(file);
  };
  for (const file of state.progress.keys()) add(file);
  for (const [file, outcome] of finished) if (outcome.error) add(file);
  for (const file of clock.waiting()) {
    if (claimed.has(file) || documentForFile(file, docs)) continue;
    items.push({ key: `file:${file}`, doc: null, file, waiting: true });
    claimed.add(file);
  }
  return items;
}

function progressFor(item: Item): IngestProgress | null {
  if (state.progress.size === 0) return null;
  for (const [file, p] of state.progress) {
    if (item.doc ? documentForFile(file, [item.doc]) !== null : file === item.file) return p;
  }
  return null;
}

function render(): void {
  const docs = state.documents;
  const words = filterWords(filter.value);
  const sortKey: SortKey = isSortKey(sort.value) ? sort.value : 'name';
  const pending = pendingItems(docs).filter(
    (item) => words.length === 0 || words.every((w) => item.file.toLowerCase().includes(w)),
  );
  const shownDocs = visibleDocuments(docs, filter.value, sortKey);
  const shown = new Set(shownDocs.map((d) => d.id));
  // Every row stays in the list in the sort's order, and the filter only hides rows:
  // narrowing and widening then touch one attribute a row, not the list's structure.
  const ordered = words.length === 0 ? shownDocs : visibleDocuments(docs, '', sortKey);
  const wanted: Item[] = [
    ...pending,
    ...ordered.map((doc) => ({ key: `doc:${doc.id}`, doc, file: doc.file_name })),
  ];
  const present = new Set<string>(wanted.map((w) => w.key));
  for (const [key, row] of rows) {
    if (!present.has(key)) {
      row.el.remove();
      rows.delete(key);
      if (key === openKey) openKey = null;
    }
  }
  selected = pruneSelection(selected, docs);
  shownIds = shownDocs.map((d) => d.id);
  const els: HTMLLIElement[] = [];
  for (const item of wanted) {
    let row = rows.get(item.key);
    if (!row) {
      row = makeRow(rowActions);
      rows.set(item.key, row);
    }
    row.update(
      item.doc,
      progressFor(item),
      finished.get(item.file) ?? null,
      item.file,
      item.waiting === true,
      item.doc ? null : clock.pagesOf(item.file),
    );
    row.setSelected(item.doc !== null && selected.has(item.doc.id));
    row.setOpen(item.key === openKey);
    const hide = item.doc !== null && !shown.has(item.doc.id);
    if (row.el.hidden !== hide) row.el.hidden = hide;
    els.push(row.el);
  }
  placeRows(els);
  const filtering = words.length > 0;
  toolbar.hidden = docs.length === 0;
  empty.hidden = docs.length > 0 || pending.length > 0 || filtering;
  noMatch.hidden = !(filtering && shownDocs.length === 0 && pending.length === 0);
  if (!noMatch.hidden) replace(noMatch, `No document matches “${filter.value.trim()}”. `, clearFilter);
  shownCount.textContent = countText(shownDocs.length, docs.length);
  updateSelection();
  renderIngestStatus();
}

/** Rows moved one by one beyond this many are put in place in one go instead. */
const MANY_MOVES = 32;

/**
 * Puts `els` in `list`, in order, and nothing else. A few changes (a file being added, a
 * removal) move only what changed, so the focus stays where it is; a new sort, which
 * moves hundreds, replaces the children at once and puts the focus back.
 */
function placeRows(els: HTMLLIElement[]): void {
  const current = list.children;
  let moves = Math.abs(current.length - els.length);
  for (let i = 0; i < els.length && moves <= MANY_MOVES; i++) if (current[i] !== els[i]) moves++;
  if (moves === 0) return;
  if (moves > MANY_MOVES) {
    const focused = document.activeElement;
    list.replaceChildren(...els);
    if (focused instanceof HTMLElement && !focused.isConnected) return;
    if (focused instanceof HTMLElement && document.activeElement !== focused) focused.focus();
    return;
  }
  let previous: Element | null = null;
  for (const el of els) {
    const expectedNext: Element | null = previous ? previous.nextElementSibling : list.firstElementChild;
    if (expectedNext !== el) {
      if (previous) previous.after(el);
      else list.prepend(el);
    }
    previous = el;
  }
  // Anything after them is no longer wanted.
  let stale = previous ? previous.nextElementSibling : list.firstElementChild;
  while (stale) {
    const next = stale.nextElementSibling;
    stale.remove();
    stale = next;
  }
}

/** The toolbar's selection line, its select-all box and its two buttons. */
function updateSelection(): void {
  const shown = shownSelection(selected, shownIds);
  selectAll.checked = shown === 'all';
  selectAll.indeterminate = shown === 'some';
  selectAll.disabled = shownIds.length === 0;
  selectAll.setAttribute('aria-label', shown === 'all' ? 'Unselect the documents shown' : 'Select the documents shown');
  selectionLine.textContent = selectionText(selected, shownIds);
  clearSelection.hidden = selected.size === 0;
  searchOnly.disabled = selected.size === 0;
  removeSelected.disabled = selected.size === 0;
  removeSelected.textContent = selected.size > 1 ? `Remove ${selected.size} selected…` : 'Remove selected…';
}

function renderIngestStatus(): void {
  const active = state.progress.size;
  const batch = clock.summary();
  cancelAll.hidden = active === 0 && batch === null;
  overall.hidden = batch === null;
  const outcome = clock.outcome();
  batchOutcome.hidden = outcome === null;
  if (outcome) {
    outcomeLine.textContent = outcomeText(outcome);
    const failures = outcome.failed.length > 1 ? outcome.failed : [];
    replace(outcomeFailures, ...failures.map((f) => h('li', {}, failureText(f))));
    outcomeFailures.hidden = failures.length === 0;
    batchOutcome.classList.toggle('partial', outcome.failed.length > 0);
  }
  if (batch) {
    overall.value = batch.fraction;
    overall.setAttribute('aria-valuetext', summaryText(batch));
    ingestStatus.textContent = summaryText(batch);
  } else {
    // Documents that were being added when the window opened: no batch to time.
    ingestStatus.textContent = active === 0 ? '' : `Ingesting ${active} ${active === 1 ? 'file' : 'files'}…`;
  }
}

let scheduled = false;
function scheduleRender(): void {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    render();
  });
}

export async function refreshDocuments(): Promise<void> {
  try {
    setDocuments(await api.listDocuments());
  } catch (err) {
    showMessage(`Could not list the documents: ${errorMessage(err)}`);
  }
}

/** A progress event from the shell (main.ts has put it in `state.progress`). */
export function onProgress(p: IngestProgress): void {
  clock.progress(p);
}

/** Files the shell queued, or their page counts. */
export function onQueued(event: IngestQueued): void {
  clock.queued(event);
  scheduleRender();
}

/** An ingestion event from the shell. */
export function onFinished(outcome: IngestFinished): void {
  clock.finished(outcome);
  if (outcome.error || outcome.warnings.length > 0) finished.set(outcome.file, outcome);
  else finished.delete(outcome.file);
  announce(
    outcome.error
      ? `${outcome.file} failed: ${outcome.error}`
      : `${outcome.document?.name ?? outcome.file} is ready`,
  );
  void refreshDocuments();
}

export async function ingest(paths: string[]): Promise<void> {
  if (paths.length === 0) return;
  showMessage(null);
  try {
    // The shell announces the files it queued (`ingest://queued`): folders are walked there.
    await api.ingestPaths(paths);
    announce(`Adding ${paths.length} ${paths.length === 1 ? 'item' : 'items'}`);
    void refreshDocuments();
  } catch (err) {
    showMessage(errorMessage(err));
  }
}

// ------------------------------------------------------------------------ many documents

/** Restricts Ask (and Compare) to the selected documents that can be searched, and goes to Ask. */
function searchOnlySelected(): void {
  const ready = selectedDocuments(selected, state.documents).filter((d) => d.status === 'ready');
  if (ready.length === 0) {
    showMessage('None of the selected documents is ready to be searched.');
    return;
  }
  showMessage(null);
  setScope(ready.map((d) => d.id));
  announce(`Questions now search only ${ready.length} ${ready.length === 1 ? 'document' : 'documents'}`);
  navigate('ask');
}

async function removeSelectedDocuments(): Promise<void> {
  const docs = selectedDocuments(selected, state.documents);
  if (docs.length === 0) return;
  const question = removalQuestion(docs);
  const label = docs.length === 1 ? 'Remove' : `Remove ${docs.length}`;
  if (!(await confirmDialog(question.title, question.message, label))) return;
  showMessage(null);
  removalOutcome.hidden = true;
  const report = await busy(removeSelected, () =>
    removeEach(docs, (key) => api.deleteDocument(key), (done, total) => {
      ingestStatus.textContent = `Removing documents: ${done} of ${total}`;
    }),
  );
  for (const doc of report.removed) {
    forgetImages(doc.id);
    finished.delete(doc.file_name);
    selected.delete(doc.id);
  }
  const { summary, failures } = removalSummary(report);
  replace(
    removalOutcome,
    h('p', {}, summary),
    failures.length > 0 ? h('ul', { class: 'removal-failures' }, ...failures.map((f) => h('li', {}, f))) : null,
  );
  removalOutcome.hidden = false;
  removalOutcome.classList.toggle('partial', failures.length > 0);
  announce(summary);
  await refreshDocuments();
  renderIngestStatus();
}

// ------------------------------------------------------------------------ drag and drop

interface EntryLike {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  fullPath: string;
}

async function readDirectory(entry: FileSystemDirectoryEntry, out: string[], depth: number): Promise<void> {
  if (depth > 8) return;
  const reader = entry.createReader();
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve) => reader.readEntries(resolve, () => resolve([])));
    if (batch.length === 0) break;
    for (const child of batch) {
      if (child.isFile && isPdfName(child.name)) out.push(child.fullPath.replace(/^\//, ''));
      else if (child.isDirectory) await readDirectory(child as FileSystemDirectoryEntry, out, depth + 1);
    }
  }
}

/** Names of the dropped PDFs (folders are walked). Browsers do not reveal real paths. */
export async function droppedNames(data: DataTransfer): Promise<string[]> {
  const out: string[] = [];
  const items = [...data.items].filter((i) => i.kind === 'file');
  const entries = items
    .map((i) => (typeof i.webkitGetAsEntry === 'function' ? (i.webkitGetAsEntry() as EntryLike | null) : null))
    .filter((e): e is EntryLike => e !== null);
  if (entries.length > 0) {
    for (const entry of entries) {
      if (entry.isFile && isPdfName(entry.name)) out.push(entry.name);
      else if (entry.isDirectory) await readDirectory(entry as unknown as FileSystemDirectoryEntry, out, 0);
    }
  } else {
    for (const file of [...data.files]) if (isPdfName(file.name)) out.push(file.name);
  }
  return out;
}

/** An HTML5 drop on the window. Inside Tauri the shell's own drop event does the work. */
export async function handleDrop(data: DataTransfer): Promise<void> {
  if (insideTauri()) return; // `library://dropped` carries the real paths
  const names = await droppedNames(data);
  if (names.length === 0) {
    showMessage('Nothing to add: drop PDF files or folders that hold PDFs.');
    return;
  }
  await ingest(names);
}

// ------------------------------------------------------------------------ the view

export function createLibraryView(): HTMLElement {
  const add = h('button', { type: 'button', class: 'primary', 'data-testid': 'add-pdfs' }, 'Add PDFs…');
  add.addEventListener('click', async () => {
    showMessage(null);
    try {
      await busy(add, () => api.pickAndIngest());
      void refreshDocuments();
    } catch (err) {
      showMessage(errorMessage(err));
    }
  });
  cancelAll.addEventListener('click', () => void cancelIngestion(cancelAll));
  dismissOutcome.addEventListener('click', () => {
    clock.dismissOutcome();
    renderIngestStatus();
  });
  replace(batchOutcome, outcomeLine, outcomeFailures, dismissOutcome);
  bus.on('documents', scheduleRender);
  bus.on('progress', scheduleRender);
  filter.addEventListener('input', scheduleRender);
  // WebDriver's clear (and some input methods) fire only `change`.
  filter.addEventListener('change', scheduleRender);
  filter.addEventListener('keydown', (e) => {
    // Escape empties the filter first; a second one is the browser's.
    if (e.key === 'Escape' && filter.value !== '') {
      e.preventDefault();
      filter.value = '';
      render();
    }
  });
  sort.addEventListener('change', render);
  clearFilter.addEventListener('click', () => {
    filter.value = '';
    render();
    filter.focus();
  });
  selectAll.addEventListener('change', () => {
    selected = setShown(selected, shownIds, selectAll.checked);
    for (const id of shownIds) rows.get(`doc:${id}`)?.setSelected(selected.has(id));
    updateSelection();
  });
  clearSelection.addEventListener('click', () => {
    selected = new Set();
    for (const row of rows.values()) row.setSelected(false);
    updateSelection();
    selectAll.focus();
  });
  searchOnly.addEventListener('click', searchOnlySelected);
  removeSelected.addEventListener('click', () => void removeSelectedDocuments());
  replace(
    toolbar,
    h(
      'div',
      { class: 'library-find' },
      h('div', { class: 'field' }, h('label', { for: filter.id }, 'Filter'), filter),
      h('div', { class: 'field' }, h('label', { for: sort.id }, 'Sort by'), sort),
      shownCount,
    ),
    h(
      'div',
      { class: 'library-select' },
      h('span', { class: 'select-all' }, selectAll, h('label', { for: selectAll.id }, 'Select all shown')),
      selectionLine,
      clearSelection,
      searchOnly,
      removeSelected,
    ),
  );
  render();
  return h(
    'section',
    { class: 'view library', 'aria-labelledby': 'library-title' },
    h(
      'div',
      { class: 'library-head' },
      h('h2', { id: 'library-title', tabindex: -1 }, 'Library'),
      h('span', { class: 'muted' }, 'Drop PDFs or folders on the window, or'),
      add,
    ),
    createAssetsBanner(),
    h('div', { class: 'ingest-bar' }, ingestStatus, overall, cancelAll),
    batchOutcome,
    message,
    removalOutcome,
    toolbar,
    empty,
    noMatch,
    list,
  );
}

// Exposed for tests.
export const _internal = { render, finished, rows, list, filter, sort, clock };
