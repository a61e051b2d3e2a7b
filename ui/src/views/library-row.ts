// One row of the library list: a document (or a file being added or waiting) on one line
// (its name, what it is, its pages, its status), and under it, for the open row only,
// its details (file, language, scans, notes, errors) and what can be done with it.

import type { DocumentRecord, IngestFinished, IngestProgress } from '../api';
import { h, replace } from '../dom';
import { appWords, formatDate, overallProgress, progressText } from '../format';
import { cardLine } from './card-view';

export interface Row {
  el: HTMLLIElement;
  /** Draws the row; the same record, progress, outcome and file as last time draw nothing. */
  update(
    doc: DocumentRecord | null,
    progress: IngestProgress | null,
    outcome: IngestFinished | null,
    file: string,
    waiting?: boolean,
    /** The page count of a file not added yet, when the shell counted it. */
    pages?: number | null,
  ): void;
  setSelected(selected: boolean): void;
  /** Shows or hides the row's details and actions. */
  setOpen(open: boolean): void;
}

/** What the row's controls ask the list to do. */
export interface RowActions {
  select(doc: DocumentRecord, selected: boolean): void;
  /** The row was clicked: open it (and close the one open before), or close it. */
  toggle(row: Row): void;
  showTree(doc: DocumentRecord): void;
  edit(doc: DocumentRecord): void;
  remove(doc: DocumentRecord): void;
  cancel(button: HTMLButtonElement): void;
  /** Forgets a failed file that never became a document. */
  dismiss(file: string): void;
}

/** What a status is called on screen. */
const STATUS_WORDS: Record<string, string> = {
  ready: 'Ready',
  ingesting: 'Adding',
  waiting: 'Waiting',
  failed: 'Not added',
  interrupted: 'Interrupted',
};

/** The details line: file, language, scans, when it was added; no engine terms. */
export function detailsText(doc: DocumentRecord | null, file: string): string {
  const parts: string[] = [doc?.file_name ?? file];
  if (doc?.language) parts.push(doc.language.charAt(0).toUpperCase() + doc.language.slice(1));
  if (doc?.pages_without_text) parts.push(`${doc.pages_without_text} without text`);
  if (doc?.pages_read_by_ocr) parts.push(`${doc.pages_read_by_ocr} read by OCR`);
  if (doc?.pages_needing_ocr) parts.push(`${doc.pages_needing_ocr} scanned, need OCR`);
  if (doc?.describer && doc.describer !== 'extractive') parts.push('summarised by a language model');
  if (doc?.added_at) parts.push(`added ${formatDate(doc.added_at)}`);
  return parts.join(' · ');
}

export function makeRow(on: RowActions): Row {
  const check = h('input', { type: 'checkbox', class: 'doc-select', hidden: true });
  const toggle = h('button', { type: 'button', class: 'doc-toggle', 'aria-expanded': 'false' });
  const name = h('h3', { class: 'doc-name' });
  const card = h('span', { class: 'doc-card', 'data-testid': 'doc-card' });
  const pages = h('span', { class: 'doc-pages' });
  const badge = h('span', { class: 'badge' });
  const note = h('span', { class: 'doc-note', hidden: true });
  const bar = h('progress', { max: 1, value: 0, hidden: true });
  const cancelButton = h(
    'button',
    { type: 'button', class: 'secondary small', hidden: true, 'aria-label': 'Cancel ingestion' },
    'Cancel',
  );
  const status = h('span', { class: 'doc-status' }, badge, bar, note, cancelButton);
  const head = h('div', { class: 'doc-head' }, check, toggle, name, card, pages, status);
  const meta = h('p', { class: 'doc-meta' });
  const error = h('p', { class: 'doc-error', hidden: true });
  const warning = h('p', { class: 'doc-warning', hidden: true });
  const treeButton = h('button', { type: 'button', class: 'secondary' }, 'Show tree');
  const editButton = h('button', { type: 'button', class: 'secondary', 'data-testid': 'edit-card' }, 'Edit card…');
  const removeButton = h('button', { type: 'button', class: 'secondary danger-text' }, 'Remove…');
  const dismissButton = h('button', { type: 'button', class: 'secondary' }, 'Dismiss');
  const actions = h('div', { class: 'doc-actions' }, treeButton, editButton, removeButton, dismissButton);
  const details = h('div', { class: 'doc-details', hidden: true }, meta, error, warning, actions);
  const el = h('li', { class: 'doc' }, head, details);
  let current: DocumentRecord | null = null;
  let currentFile = '';
  let currentProgress: IngestProgress | null = null;
  let currentOutcome: IngestFinished | null = null;
  let currentWaiting = false;
  let currentPages: number | null = null;
  let drawn = false;
  check.addEventListener('change', () => current && on.select(current, check.checked));
  treeButton.addEventListener('click', () => current && on.showTree(current));
  removeButton.addEventListener('click', () => current && on.remove(current));
  editButton.addEventListener('click', () => current && on.edit(current));
  dismissButton.addEventListener('click', () => on.dismiss(currentFile));
  cancelButton.addEventListener('click', () => on.cancel(cancelButton));
  const row: Row = {
    el,
    setSelected(selected) {
      check.checked = selected;
    },
    setOpen(open) {
      if (details.hidden === !open) return;
      details.hidden = !open;
      el.classList.toggle('open', open);
      toggle.setAttribute('aria-expanded', String(open));
    },
    update(doc, p, outcome, file, waiting = false, filePages = null) {
      // Records, progress and outcomes are replaced, never changed in place: the same
      // ones mean nothing to redraw, which keeps a list of hundreds cheap to refresh.
      if (
        drawn &&
        doc === current &&
        p === currentProgress &&
        outcome === currentOutcome &&
        file === currentFile &&
        waiting === currentWaiting &&
        filePages === currentPages
      ) {
        return;
      }
      drawn = true;
      current = doc;
      currentFile = file;
      currentProgress = p;
      currentOutcome = outcome;
      currentWaiting = waiting;
      currentPages = filePages;
      check.hidden = !doc;
      const label = doc?.name ?? file.replace(/\.pdf$/i, '');
      if (doc) {
        check.setAttribute('data-testid', `library-select-${doc.id}`);
        check.setAttribute('aria-label', `Select ${doc.name}`);
      }
      toggle.setAttribute('aria-label', `Details of ${label}`);
      const state = p ? 'ingesting' : (doc?.status ?? (outcome?.error ? 'failed' : waiting ? 'waiting' : 'ingesting'));
      el.dataset.status = state;
      name.textContent = label;
      name.title = label;
      const count = doc?.page_count ?? filePages;
      pages.textContent = count != null ? `${count} ${count === 1 ? 'page' : 'pages'}` : '';
      meta.textContent = detailsText(doc, file);
      const errorText = doc?.error ?? (state === 'failed' ? outcome?.error : null) ?? null;
      const line = cardLine(doc?.card ?? null, { marks: false });
      if (p) {
        // What it is doing stands where what it is will be.
        replace(card, h('span', { class: 'muted' }, progressText(p)));
        card.removeAttribute('title');
      } else if (errorText) {
        replace(card, h('span', { class: 'doc-card-error' }, appWords(errorText)));
        card.title = appWords(errorText);
      } else if (line) {
        replace(card, line);
        card.title = line.textContent ?? '';
      } else {
        replace(card, doc?.status === 'ready' ? h('span', { class: 'muted' }, 'Does not say what it is') : null);
        card.removeAttribute('title');
      }
      badge.textContent = STATUS_WORDS[state] ?? state;
      badge.className = `badge status-${state}`;
      bar.hidden = !p;
      if (p) {
        const fraction = overallProgress(p);
        bar.value = fraction;
        bar.setAttribute('aria-label', `Ingestion of ${file}`);
        bar.setAttribute('aria-valuetext', `${Math.round(fraction * 100)}%, ${progressText(p)}`);
        badge.textContent = `${Math.round(fraction * 100)}%`;
      }
      error.hidden = !errorText;
      error.textContent = errorText ? `Not added: ${appWords(errorText)}` : '';
      const warnings = [...new Set([doc?.warnings, ...(outcome?.warnings ?? [])].filter((w): w is string => Boolean(w)))].map(
        appWords,
      );
      warning.hidden = warnings.length === 0;
      warning.textContent = warnings.join('; ');
      // A note is worth a look but is not a problem: a word, not a warning sign.
      note.hidden = warnings.length === 0 || state !== 'ready';
      note.textContent = warnings.length === 1 ? '1 note' : `${warnings.length} notes`;
      treeButton.hidden = !(doc && doc.status === 'ready' && !p);
      removeButton.hidden = !doc || Boolean(p);
      editButton.hidden = !(doc && doc.status === 'ready' && !p);
      cancelButton.hidden = !(Boolean(p) || state === 'ingesting');
      dismissButton.hidden = !(!doc && state === 'failed');
    },
  };
  const open = (e: Event) => {
    // The checkbox and the buttons of the status do their own thing.
    if (e.target instanceof HTMLInputElement || (e.target instanceof HTMLButtonElement && e.target !== toggle)) return;
    on.toggle(row);
  };
  head.addEventListener('click', open);
  return row;
}
