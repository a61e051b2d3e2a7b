// The "Searching only: A, B (clear)" chip Ask and Compare show while questions are
// restricted to documents chosen in the Library.

import { announce, bus, setScope, state } from '../app';
import { h } from '../dom';
import { scopeText } from '../search-scope';

/** The chip, kept in step with the scope and the documents' names; hidden without a scope. */
export function scopeChip(testId: string): HTMLElement {
  const text = h('span', { class: 'scope-text' });
  const clear = h(
    'button',
    { type: 'button', class: 'chip-clear', 'data-testid': `${testId}-clear`, 'aria-label': 'Search the whole library again' },
    'clear',
  );
  const chip = h(
    'p',
    { class: 'scope-chip', hidden: true, 'data-testid': testId },
    text,
    ' (',
    clear,
    ')',
  );
  const sync = () => {
    const ids = state.scope;
    chip.hidden = ids === null;
    text.textContent = ids === null ? '' : scopeText(ids, state.documents);
    chip.title = ids === null ? '' : `${ids.length} ${ids.length === 1 ? 'document' : 'documents'} chosen in the Library`;
  };
  clear.addEventListener('click', () => {
    // Focus would be lost with the hidden chip: the question is where people go next.
    const next = chip.closest('section')?.querySelector<HTMLElement>('textarea');
    setScope(null);
    announce('Questions search the whole library again');
    next?.focus();
  });
  bus.on('scope', sync);
  bus.on('documents', sync);
  sync();
  return chip;
}
