// A document's card on screen: the one-line short form of the library list and the
// full card above the tree, with guessed and corrected fields marked.

import type { DocumentCard } from '../api';
import { CARD_FIELDS, fieldDisplay, fieldMark, MARK_TITLES, shortFormParts, type FieldMark } from '../card';
import { h } from '../dom';

/** A small sign after a marked value; the title (tooltip) and a hidden word say what it means. */
function markSign(mark: FieldMark): HTMLElement | null {
  if (mark === 'read') return null;
  return h(
    'span',
    { class: `card-mark ${mark}`, title: MARK_TITLES[mark] },
    h('span', { 'aria-hidden': 'true' }, mark === 'unsure' ? '?' : '✓'),
    h('span', { class: 'visually-hidden' }, ` (${MARK_TITLES[mark]})`),
  );
}

/** "3M Company · 10-K annual report · fiscal year 2018", each part marked; null without one. */
export function cardLine(card: DocumentCard | null, { marks = true }: { marks?: boolean } = {}): HTMLElement | null {
  const parts = card ? shortFormParts(card) : [];
  if (parts.length === 0) return null;
  const line = h('span', { class: 'card-line' });
  parts.forEach((part, i) => {
    if (i > 0) line.append(h('span', { class: 'card-sep', 'aria-hidden': 'true' }, ' · '));
    line.append(
      h(
        'span',
        {
          class: `card-part ${part.mark}`,
          'data-fields': part.fields.join(' '),
          title: part.mark === 'read' ? undefined : MARK_TITLES[part.mark],
        },
        part.text,
        marks ? markSign(part.mark) : null,
      ),
    );
  });
  return line;
}

/** Every field of a card as a definition list ("–" for the ones it lacks). */
export function cardFields(card: DocumentCard): HTMLElement {
  const list = h('dl', { class: 'card-fields' });
  for (const { field, label } of CARD_FIELDS) {
    const value = fieldDisplay(card, field);
    const mark = fieldMark(card, field);
    list.append(
      h(
        'div',
        { class: `card-field ${mark}`, 'data-field': field },
        h('dt', {}, label),
        h('dd', { title: mark === 'read' ? undefined : MARK_TITLES[mark] }, value === '' ? h('span', { class: 'muted' }, '–') : value, markSign(mark)),
      ),
    );
  }
  return list;
}

/** Where a card's values came from, in words. */
export function cardSource(card: DocumentCard): string {
  const from = card.source === 'llm' ? 'filled by the language model' : 'read by rules from the first pages';
  const notes: string[] = [from];
  if (card.unsure.length > 0) notes.push(`${card.unsure.length} guessed (?)`);
  if (card.corrected.length > 0) notes.push(`${card.corrected.length} corrected by hand (✓)`);
  return notes.join(' · ');
}
