// "Edit card": a modal form over a document's card. Saving sends the changed fields to
// `correct_card`, which re-indexes the document, and puts the corrected record in the
// shared state so the library list and the tree header show it.

import { api, errorMessage, type CardField, type DocumentRecord } from '../api';
import { announce, updateDocument } from '../app';
import { CARD_FIELDS, cardAssignments, cardValues, fieldMark, KIND_LABELS, KINDS, MARK_TITLES, type CardValues } from '../card';
import { busy, h } from '../dom';
import { closeDialog, openDialog } from './dialogs';

type Control = HTMLInputElement | HTMLSelectElement;

const HINTS: Partial<Record<CardField, string>> = {
  aliases: 'Short forms and tickers, separated by commas (e.g. 3M, MMM).',
  fiscal_year: 'The year the fiscal year ends in, e.g. 2018.',
  period_end: 'YYYY-MM-DD',
  date: 'YYYY-MM-DD',
};

function control(field: CardField, value: string): Control {
  const id = `card-${field.replace('_', '-')}`;
  if (field === 'kind') {
    return h(
      'select',
      { id, name: field },
      h('option', { value: '', selected: value === '' }, '— none —'),
      ...KINDS.map((k) => h('option', { value: k, selected: value === k }, KIND_LABELS[k])),
    );
  }
  if (field === 'fiscal_quarter') {
    return h(
      'select',
      { id, name: field },
      h('option', { value: '', selected: value === '' }, '— none —'),
      ...[1, 2, 3, 4].map((q) => h('option', { value: q, selected: value === String(q) }, `Q${q}`)),
    );
  }
  // Plain text even for years and dates: the engine checks them and says what it expects.
  return h('input', {
    id,
    name: field,
    type: 'text',
    value,
    autocomplete: 'off',
    inputmode: field === 'fiscal_year' ? 'numeric' : undefined,
    placeholder: field === 'period_end' || field === 'date' ? 'YYYY-MM-DD' : undefined,
  });
}

/**
 * Opens the editor for `doc`'s card. Resolves to the corrected record, or null when
 * the person cancels or changes nothing.
 */
export function editCard(doc: DocumentRecord): Promise<DocumentRecord | null> {
  return new Promise((resolve) => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const values = cardValues(doc.card);
    const controls = new Map<CardField, Control>();
    const error = h('p', { class: 'message', role: 'alert', hidden: true });
    const status = h('p', { class: 'muted', role: 'status' });
    let done = false;
    const finish = (record: DocumentRecord | null) => {
      if (done) return;
      done = true;
      closeDialog(dialog);
      dialog.remove();
      opener?.focus();
      resolve(record);
    };
    const rows = CARD_FIELDS.map(({ field, label }) => {
      const input = control(field, values[field]);
      controls.set(field, input);
      const mark = doc.card ? fieldMark(doc.card, field) : 'read';
      const hint = HINTS[field];
      const hintId = `${input.id}-hint`;
      if (hint) input.setAttribute('aria-describedby', hintId);
      return h(
        'div',
        { class: `field card-edit-field ${mark}` },
        h('label', { for: input.id }, label, mark === 'read' ? null : h('span', { class: `card-mark ${mark}` }, ` (${MARK_TITLES[mark]})`)),
        input,
        hint ? h('small', { class: 'hint', id: hintId }, hint) : null,
      );
    });
    const cancel = h('button', { type: 'button', class: 'secondary', onclick: () => finish(null) }, 'Cancel');
    const save = h('button', { type: 'submit', class: 'primary', 'data-testid': 'card-save' }, 'Save card');
    const form = h(
      'form',
      { class: 'card-form', novalidate: true },
      h('div', { class: 'card-form-grid' }, ...rows),
      error,
      status,
      h('div', { class: 'actions' }, cancel, save),
    );
    const dialog = h(
      'dialog',
      { class: 'card-editor', 'aria-labelledby': 'card-editor-title', 'data-testid': 'card-editor' },
      h('h2', { id: 'card-editor-title' }, `Card of ${doc.name}`),
      h(
        'p',
        { class: 'hint' },
        'Correct what the document is; an empty field clears it. Saving re-indexes the document, since every page carries its card.',
      ),
      form,
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const edited = Object.fromEntries([...controls].map(([field, c]) => [field, c.value])) as CardValues;
      const assignments = cardAssignments(doc.card, edited);
      if (assignments.length === 0) {
        finish(null);
        return;
      }
      error.hidden = true;
      status.textContent = 'Saving and re-indexing the document…';
      void busy(save, () => api.correctCard(String(doc.id), assignments))
        .then((record) => {
          updateDocument(record);
          announce(`The card of ${record.name} was corrected`);
          finish(record);
        })
        .catch((err: unknown) => {
          status.textContent = '';
          error.textContent = `The card was not saved: ${errorMessage(err)}`;
          error.hidden = false;
        });
    });
    dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      finish(null);
    });
    openDialog(dialog);
    controls.get('organization')?.focus();
  });
}
