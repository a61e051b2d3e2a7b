// One row of the library list: a document (or a file being added) with its card, its
// ingestion's progress, error and warnings, and what can be done with it.

import type { DocumentRecord, IngestFinished, IngestProgress } from '../api';
import { h, replace } from '../dom';
import { formatDate, overallProgress, progressText } from '../format';
import { cardLine } from './card-view';

export interface Row {
  el: HTMLLIElement;
  /** Draws the row; the same record, progress, outcome and file as last time draw nothing. */
  update(doc: DocumentRecord | null, progress: IngestProgress | null, outcome: IngestFinished | null, file: string): void;
  setSelected(selected: boolean): void;
}

/** What the row's controls ask the list to do. */
export interface RowActions {
  select(doc: DocumentRecord, selected: boolean): void;
  showTree(doc: DocumentRecord): void;
  edit(doc: DocumentRecord): void;
  remove(doc: DocumentRecord): void;
  cancel(button: HTMLButtonElement): void;
  /** Forgets a failed file that never became a document. */
  dismiss(file: string): void;
}

/**
 * A part of a row made the first time it is shown: of hundreds of rows, most never show
 * a progress bar, an error, a warning or a cancel button, and building elements is most
 * of what a first render of the list costs.
 */
interface Part<T extends HTMLElement> {
  /** The part, made (and placed) if need be. */
  get(): T;
  /** Shows the part (making it) or hides it (if it was ever made). */
  show(visible: boolean): void;
  made(): T | null;
}

function part<T extends HTMLElement>(make: () => T, place: (el: T) => void): Part<T> {
  let el: T | null = null;
  const get = () => {
    if (!el) {
      el = make();
      place(el);
    }
    return el;
  };
  return {
    get,
    show(visible) {
      if (visible) get().hidden = false;
      else if (el) el.hidden = true;
    },
    made: () => el,
  };
}

export function makeRow(on: RowActions): Row {
  const name = h('h3', { class: 'doc-name' });
  const card = h('p', { class: 'doc-card', 'data-testid': 'doc-card', hidden: true });
  const meta = h('p', { class: 'doc-meta' });
  const badge = h('span', { class: 'badge' });
  const treeButton = h('button', { type: 'button', class: 'secondary' }, 'Show tree');
  const editButton = h('button', { type: 'button', class: 'secondary', 'data-testid': 'edit-card' }, 'Edit card…');
  const removeButton = h('button', { type: 'button', class: 'secondary danger-text' }, 'Remove…');
  const actions = h('div', { class: 'doc-actions' }, treeButton, editButton, removeButton);
  const check = h('input', { type: 'checkbox', class: 'doc-select', hidden: true });
  const el = h('li', { class: 'doc' }, h('div', { class: 'doc-head' }, check, name, badge), card, meta, actions);
  // Progress, error and warning sit between the meta line and the actions, in that order.
  const bar = h('progress', { max: 1, value: 0 });
  const barText = h('span', { class: 'progress-text' });
  const progress = part(
    () => h('div', { class: 'doc-progress' }, bar, barText),
    (p) => meta.after(p),
  );
  const error = part(
    () => h('p', { class: 'doc-error' }),
    (p) => (progress.made() ?? meta).after(p),
  );
  const warning = part(
    () => h('p', { class: 'doc-warning' }),
    (p) => actions.before(p),
  );
  const cancelButton = part(
    () => h('button', { type: 'button', class: 'secondary', onclick: () => on.cancel(cancelButton.get()) }, 'Cancel ingestion'),
    (b) => removeButton.before(b),
  );
  const dismissButton = part(
    () =>
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: () => on.dismiss(currentFile),
        },
        'Dismiss',
      ),
    (b) => actions.append(b),
  );
  let current: DocumentRecord | null = null;
  let currentFile = '';
  let currentProgress: IngestProgress | null = null;
  let currentOutcome: IngestFinished | null = null;
  let drawn = false;
  check.addEventListener('change', () => current && on.select(current, check.checked));
  treeButton.addEventListener('click', () => current && on.showTree(current));
  removeButton.addEventListener('click', () => current && on.remove(current));
  editButton.addEventListener('click', () => current && on.edit(current));
  return {
    el,
    setSelected(on) {
      check.checked = on;
    },
    update(doc, p, outcome, file) {
      // Records, progress and outcomes are replaced, never changed in place: the same
      // ones mean nothing to redraw, which keeps a list of hundreds cheap to refresh.
      if (drawn && doc === current && p === currentProgress && outcome === currentOutcome && file === currentFile) return;
      drawn = true;
      current = doc;
      currentFile = file;
      currentProgress = p;
      currentOutcome = outcome;
      check.hidden = !doc;
      if (doc) {
        check.setAttribute('data-testid', `library-select-${doc.id}`);
        check.setAttribute('aria-label', `Select ${doc.name}`);
      }
      const status = p ? 'ingesting' : (doc?.status ?? (outcome?.error ? 'failed' : 'ingesting'));
      el.dataset.status = status;
      name.textContent = doc?.name ?? file.replace(/\.pdf$/i, '');
      const metaParts: string[] = [doc?.file_name ?? file];
      if (doc?.page_count != null) metaParts.push(`${doc.page_count} pages`);
      if (doc?.node_count != null) metaParts.push(`${doc.node_count} nodes`);
      if (doc?.language) metaParts.push(doc.language.charAt(0).toUpperCase() + doc.language.slice(1));
      if (doc?.pages_without_text) metaParts.push(`${doc.pages_without_text} without text`);
      if (doc?.pages_read_by_ocr) metaParts.push(`${doc.pages_read_by_ocr} read by OCR`);
      if (doc?.pages_needing_ocr) metaParts.push(`${doc.pages_needing_ocr} scanned, need OCR`);
      if (doc?.describer) metaParts.push(`described ${doc.describer}`);
      if (doc?.added_at) metaParts.push(`added ${formatDate(doc.added_at)}`);
      meta.textContent = metaParts.join(' · ');
      const line = cardLine(doc?.card ?? null);
      const ready = doc?.status === 'ready';
      replace(card, line ?? (ready ? h('span', { class: 'muted' }, 'No card: the document does not say what it is.') : null));
      card.hidden = line === null && !ready;
      badge.textContent = status;
      badge.className = `badge status-${status}`;
      progress.show(Boolean(p));
      if (p) {
        const fraction = overallProgress(p);
        bar.value = fraction;
        bar.setAttribute('aria-label', `Ingestion of ${file}`);
        bar.setAttribute('aria-valuetext', `${Math.round(fraction * 100)}%, ${progressText(p)}`);
        barText.textContent = `${Math.round(fraction * 100)}% · ${progressText(p)}`;
      }
      const errorText = doc?.error ?? (status === 'failed' ? outcome?.error : null) ?? null;
      error.show(Boolean(errorText));
      if (errorText) error.get().textContent = `Failed: ${errorText}`;
      const warnings = [doc?.warnings, ...(outcome?.warnings ?? [])].filter((w): w is string => Boolean(w));
      warning.show(warnings.length > 0);
      if (warnings.length > 0) warning.get().textContent = `⚠ ${[...new Set(warnings)].join('; ')}`;
      treeButton.hidden = !(doc && doc.status === 'ready' && !p);
      removeButton.hidden = !doc || Boolean(p);
      editButton.hidden = !(doc && doc.status === 'ready' && !p);
      cancelButton.show(Boolean(p) || status === 'ingesting');
      dismissButton.show(!doc && status === 'failed');
    },
  };
}
