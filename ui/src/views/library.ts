// Library: add PDFs (button, drag and drop), follow their ingestion, remove them.

import { api, errorMessage, forgetImages, insideTauri, type DocumentRecord, type IngestFinished, type IngestProgress } from '../api';
import { announce, bus, navigate, setDocuments, state } from '../app';
import { busy, h, replace } from '../dom';
import { documentForFile, formatDate, isPdfName, overallProgress, progressText } from '../format';
import { editCard } from './card-editor';
import { cardLine } from './card-view';
import { createAssetsBanner } from './about';
import { confirmDialog } from './dialogs';

/** Outcomes of finished ingestions worth keeping on screen: errors and warnings, by file. */
const finished = new Map<string, IngestFinished>();

interface Row {
  el: HTMLLIElement;
  update(doc: DocumentRecord | null, progress: IngestProgress | null, outcome: IngestFinished | null, file: string): void;
}

const list = h('ul', { class: 'doc-list', 'aria-label': 'Documents', 'data-testid': 'doc-list' });
const message = h('p', { class: 'message', role: 'alert', hidden: true });
const empty = h(
  'p',
  { class: 'empty-state', hidden: true },
  'The library is empty. Drop PDFs here or use “Add PDFs…” to start.',
);
const ingestStatus = h('p', { class: 'ingest-status', role: 'status', 'aria-live': 'polite' });
const cancelAll = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Cancel ingestion');
const rows = new Map<string, Row>();

function showMessage(text: string | null): void {
  message.hidden = text === null;
  message.textContent = text ?? '';
}

async function cancelIngestion(button: HTMLButtonElement): Promise<void> {
  try {
    await busy(button, () => api.cancelIngest());
    announce('Cancelling ingestion');
  } catch (err) {
    showMessage(errorMessage(err));
  }
}

async function removeDocument(doc: DocumentRecord): Promise<void> {
  const ok = await confirmDialog(
    `Remove ${doc.name}?`,
    `${doc.file_name} leaves the library: its pages, tree and index entries are deleted. The PDF file itself stays where it is.`,
    'Remove',
  );
  if (!ok) return;
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

function makeRow(): Row {
  const name = h('h3', { class: 'doc-name' });
  const card = h('p', { class: 'doc-card', 'data-testid': 'doc-card', hidden: true });
  const meta = h('p', { class: 'doc-meta' });
  const badge = h('span', { class: 'badge' });
  const bar = h('progress', { max: 1, value: 0 });
  const barText = h('span', { class: 'progress-text' });
  const progress = h('div', { class: 'doc-progress', hidden: true }, bar, barText);
  const error = h('p', { class: 'doc-error', hidden: true });
  const warning = h('p', { class: 'doc-warning', hidden: true });
  const treeButton = h('button', { type: 'button', class: 'secondary' }, 'Show tree');
  const editButton = h('button', { type: 'button', class: 'secondary', 'data-testid': 'edit-card' }, 'Edit card…');
  const removeButton = h('button', { type: 'button', class: 'secondary danger-text' }, 'Remove…');
  const cancelButton = h('button', { type: 'button', class: 'secondary' }, 'Cancel ingestion');
  const dismissButton = h('button', { type: 'button', class: 'secondary' }, 'Dismiss');
  const actions = h('div', { class: 'doc-actions' }, treeButton, editButton, cancelButton, removeButton, dismissButton);
  const el = h(
    'li',
    { class: 'doc' },
    h('div', { class: 'doc-head' }, name, badge),
    card,
    meta,
    progress,
    error,
    warning,
    actions,
  );
  let current: DocumentRecord | null = null;
  let currentFile = '';
  treeButton.addEventListener('click', () => {
    if (!current) return;
    bus.emit('show-tree', { docId: current.id });
    navigate('tree');
  });
  removeButton.addEventListener('click', () => current && void removeDocument(current));
  editButton.addEventListener('click', () => current && void editCard(current));
  cancelButton.addEventListener('click', () => void cancelIngestion(cancelButton));
  dismissButton.addEventListener('click', () => {
    finished.delete(currentFile);
    render();
  });
  return {
    el,
    update(doc, p, outcome, file) {
      current = doc;
      currentFile = file;
      const status = p ? 'ingesting' : (doc?.status ?? (outcome?.error ? 'failed' : 'ingesting'));
      el.dataset.status = status;
      name.textContent = doc?.name ?? file.replace(/\.pdf$/i, '');
      const metaParts: string[] = [doc?.file_name ?? file];
      if (doc?.page_count != null) metaParts.push(`${doc.page_count} pages`);
      if (doc?.node_count != null) metaParts.push(`${doc.node_count} nodes`);
      if (doc?.language) metaParts.push(doc.language.charAt(0).toUpperCase() + doc.language.slice(1));
      if (doc?.pages_without_text) metaParts.push(`${doc.pages_without_text} without text`);
      if (doc?.describer) metaParts.push(`described ${doc.describer}`);
      if (doc?.added_at) metaParts.push(`added ${formatDate(doc.added_at)}`);
      meta.textContent = metaParts.join(' · ');
      const line = cardLine(doc?.card ?? null);
      const ready = doc?.status === 'ready';
      replace(card, line ?? (ready ? h('span', { class: 'muted' }, 'No card: the document does not say what it is.') : null));
      card.hidden = line === null && !ready;
      badge.textContent = status;
      badge.className = `badge status-${status}`;
      progress.hidden = !p;
      if (p) {
        const fraction = overallProgress(p);
        bar.value = fraction;
        bar.setAttribute('aria-label', `Ingestion of ${file}`);
        bar.setAttribute('aria-valuetext', `${Math.round(fraction * 100)}%, ${progressText(p)}`);
        barText.textContent = `${Math.round(fraction * 100)}% · ${progressText(p)}`;
      }
      const errorText = doc?.error ?? (status === 'failed' ? outcome?.error : null) ?? null;
      error.hidden = !errorText;
      error.textContent = errorText ? `Failed: ${errorText}` : '';
      const warnings = [doc?.warnings, ...(outcome?.warnings ?? [])].filter((w): w is string => Boolean(w));
      warning.hidden = warnings.length === 0;
      warning.textContent = warnings.length ? `⚠ ${[...new Set(warnings)].join('; ')}` : '';
      treeButton.hidden = !(doc && doc.status === 'ready' && !p);
      removeButton.hidden = !doc || Boolean(p);
      editButton.hidden = !(doc && doc.status === 'ready' && !p);
      cancelButton.hidden = !p && status !== 'ingesting';
      dismissButton.hidden = Boolean(doc) || status !== 'failed';
    },
  };
}

function render(): void {
  const docs = state.documents;
  const wanted: { key: string; doc: DocumentRecord | null; file: string }[] = [];
  const claimed = new Set<string>();
  for (const doc of docs) {
    wanted.push({ key: `doc:${doc.id}`, doc, file: doc.file_name });
    claimed.add(doc.file_name);
  }
  for (const file of state.progress.keys()) {
    const doc = documentForFile(file, docs);
    if (!doc && !claimed.has(file)) {
      wanted.push({ key: `file:${file}`, doc: null, file });
      claimed.add(file);
    }
  }
  for (const [file, outcome] of finished) {
    if (outcome.error && !claimed.has(file) && !documentForFile(file, docs)) {
      wanted.push({ key: `file:${file}`, doc: null, file });
      claimed.add(file);
    }
  }
  const keys = new Set(wanted.map((w) => w.key));
  for (const [key, row] of rows) {
    if (!keys.has(key)) {
      row.el.remove();
      rows.delete(key);
    }
  }
  let previous: Element | null = null;
  for (const item of wanted) {
    let row = rows.get(item.key);
    if (!row) {
      row = makeRow();
      rows.set(item.key, row);
    }
    const progressEntry =
      [...state.progress.entries()].find(([file]) =>
        item.doc ? documentForFile(file, [item.doc]) !== null : file === item.file,
      )?.[1] ?? null;
    row.update(item.doc, progressEntry, finished.get(item.file) ?? null, item.file);
    // Keep DOM order without moving focused rows needlessly.
    const expectedNext: Element | null = previous ? previous.nextElementSibling : list.firstElementChild;
    if (expectedNext !== row.el) {
      if (previous) previous.after(row.el);
      else list.prepend(row.el);
    }
    previous = row.el;
  }
  empty.hidden = wanted.length > 0;
  const active = state.progress.size;
  cancelAll.hidden = active === 0;
  ingestStatus.textContent =
    active === 0 ? '' : `Ingesting ${active} ${active === 1 ? 'file' : 'files'}…`;
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

/** An ingestion event from the shell. */
export function onFinished(outcome: IngestFinished): void {
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
    await api.ingestPaths(paths);
    announce(`Adding ${paths.length} ${paths.length === 1 ? 'item' : 'items'}`);
    void refreshDocuments();
  } catch (err) {
    showMessage(errorMessage(err));
  }
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
  const zone = h(
    'div',
    { class: 'drop-zone', 'data-testid': 'drop-zone' },
    h('p', { class: 'drop-title' }, 'Drop PDFs or folders anywhere in this window'),
    h('p', { class: 'muted' }, 'Each document becomes a tree of pages and section summaries you can search and cite.'),
    add,
  );
  bus.on('documents', scheduleRender);
  bus.on('progress', scheduleRender);
  render();
  return h(
    'section',
    { class: 'view library', 'aria-labelledby': 'library-title' },
    h('h2', { id: 'library-title', tabindex: -1 }, 'Library'),
    createAssetsBanner(),
    zone,
    h('div', { class: 'ingest-bar' }, ingestStatus, cancelAll),
    message,
    empty,
    list,
  );
}

// Exposed for tests.
export const _internal = { render, finished, rows, list };
