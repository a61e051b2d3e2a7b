// Pieces several views share: page chips, answers with citation links, strategy
// parameter inputs, fusion and section scoring choices.

import { FUSION_METHODS, SECTION_SCORINGS, type Citation, type ContextPage, type Passage, type Strategy, type StrategyName } from '../api';
import { segmentAnswer, citationLabel, withLabel } from '../citations';
import { field, h, markInvalid, uniqueId, type Child } from '../dom';
import { pageLabel } from '../format';
import { passageFor } from '../passages';
import {
  FUSION_HELP,
  FUSION_LABELS,
  isFusionMethod,
  isSectionScoring,
  RRF_K_UNUSED,
  SECTION_SCORING_HELP,
  SECTION_SCORING_LABELS,
  STRATEGY_FIELDS,
  strategyToValues,
  valuesToStrategy,
  type FieldSpec,
  type FieldValues,
  type Parsed,
} from '../strategy-form';
import { openCitation, openPage } from './viewer';

/** A `FILE p.N` chip that opens the page viewer. */
export function pageChip(
  page: Pick<ContextPage, 'doc_id' | 'file_name' | 'page'> & { page_label?: string | null },
  quote?: string,
): HTMLButtonElement {
  return h(
    'button',
    {
      type: 'button',
      class: 'chip page-chip',
      title: 'Open this page',
      onclick: () =>
        openPage({
          docId: page.doc_id,
          page: page.page,
          name: page.file_name,
          label: page.page_label ?? null,
          ...(quote ? { quote } : {}),
        }),
    },
    pageLabel(page),
  );
}

/** A cited page chip (by document name) that opens the viewer. */
export function citationChip(citation: Citation, quote = '', passages: readonly Passage[] = []): HTMLButtonElement {
  return h(
    'button',
    {
      type: 'button',
      class: 'chip page-chip',
      onclick: () => void openCitation(citation, quote, passageFor(passages, citation, quote)),
    },
    citationLabel(citation),
  );
}

/**
 * An answer's text with its citations as buttons that open the cited page; `labelled`
 * (the answer's own citations) gives them their pages' printed numbers.
 */
export function renderAnswer(
  text: string,
  passages: readonly Passage[] = [],
  labelled: readonly Citation[] = [],
): HTMLDivElement {
  const body = h('div', { class: 'answer-text' });
  for (const segment of segmentAnswer(text)) {
    if (segment.kind === 'text') {
      body.append(segment.text);
      continue;
    }
    const parts: Child[] = ['['];
    segment.citations.map((c) => withLabel(c, labelled)).forEach((c, i) => {
      if (i > 0) parts.push('; ');
      parts.push(
        h(
          'button',
          {
            type: 'button',
            class: 'cite',
            'data-testid': 'citation',
            title: `Open ${citationLabel(c)}`,
            onclick: () => void openCitation(c, segment.quote, passageFor(passages, c, segment.quote)),
          },
          citationLabel(c),
        ),
      );
    });
    parts.push(']');
    body.append(h('span', { class: 'citation' }, ...parts));
  }
  return body;
}

export interface ParamsEditor {
  el: HTMLElement;
  inputs: Map<string, HTMLInputElement>;
  read(): Parsed<Strategy>;
  /** Writes the strategy's values, except into the inputs `keep` says to leave. */
  write(strategy: Strategy, keep?: (input: HTMLInputElement) => boolean): void;
  setDisabled(disabled: boolean): void;
}

function input(spec: FieldSpec, value: string): HTMLInputElement {
  return h('input', {
    type: 'number',
    inputmode: spec.integer ? 'numeric' : 'decimal',
    min: spec.min,
    max: spec.max,
    step: spec.step,
    value,
    name: spec.key,
    required: true,
  });
}

/**
 * Number inputs for one strategy's parameters. The sensitive knee's sensitivity is a
 * slider (0–1) with its value shown beside it.
 */
export function paramsEditor(name: StrategyName, initial: Strategy, idPrefix = uniqueId(name)): ParamsEditor {
  const inputs = new Map<string, HTMLInputElement>();
  const errors = new Map<string, HTMLElement>();
  const outputs = new Map<string, HTMLOutputElement>();
  const values = strategyToValues(initial);
  const el = h('div', { class: 'params' });
  for (const spec of STRATEGY_FIELDS[name]) {
    const id = `${idPrefix}-${spec.key}`;
    let control: HTMLInputElement;
    let extra: HTMLElement | null = null;
    if (spec.key === 'sensitivity') {
      control = h('input', {
        type: 'range',
        min: spec.min,
        max: spec.max,
        step: spec.step,
        value: values[spec.key] ?? '0.85',
        name: spec.key,
      });
      const out = h('output', { for: id, class: 'range-value' }, Number(control.value).toFixed(2));
      control.addEventListener('input', () => {
        out.textContent = Number(control.value).toFixed(2);
      });
      outputs.set(spec.key, out);
      extra = out;
    } else {
      control = input(spec, values[spec.key] ?? '');
    }
    control.id = id;
    control.setAttribute('aria-describedby', `${id}-help ${id}-err`);
    const err = h('small', { class: 'field-error', id: `${id}-err`, 'aria-live': 'polite' });
    errors.set(spec.key, err);
    inputs.set(spec.key, control);
    el.append(
      h(
        'div',
        { class: `param param-${spec.key}` },
        h('label', { for: id }, spec.label),
        h('div', { class: 'param-control' }, control, extra),
        h('small', { class: 'hint', id: `${id}-help` }, spec.help),
        err,
      ),
    );
  }
  return {
    el,
    inputs,
    read() {
      const vals: FieldValues = {};
      for (const [key, control] of inputs) vals[key] = control.value;
      const parsed = valuesToStrategy(name, vals);
      for (const [key, control] of inputs) {
        const message = parsed.ok ? '' : (parsed.errors[key] ?? '');
        const err = errors.get(key);
        if (err) err.textContent = message;
        if (message) control.setAttribute('aria-invalid', 'true');
        else control.removeAttribute('aria-invalid');
      }
      return parsed;
    },
    write(strategy, keep) {
      const vals = strategyToValues(strategy);
      for (const [key, control] of inputs) {
        if (keep?.(control)) continue;
        control.value = vals[key] ?? control.value;
        const out = outputs.get(key);
        if (out) out.textContent = Number(control.value).toFixed(2);
      }
    },
    setDisabled(disabled) {
      for (const control of inputs.values()) control.disabled = disabled;
    },
  };
}

/** A `<dl>` of label/value pairs. */
export function facts(pairs: [string, Child][]): HTMLDListElement {
  return h('dl', { class: 'facts' }, ...pairs.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

export function fusionMethodSelect(id: string): HTMLSelectElement {
  return h('select', { id, name: 'fusion' }, ...FUSION_METHODS.map((m) => h('option', { value: m }, FUSION_LABELS[m])));
}

export function sectionScoringSelect(id: string): HTMLSelectElement {
  return h(
    'select',
    { id, name: 'section-scoring' },
    ...SECTION_SCORINGS.map((s) => h('option', { value: s }, SECTION_SCORING_LABELS[s])),
  );
}

export interface FusionFields {
  /** The fusion field, then the RRF k field. */
  fields: [HTMLElement, HTMLElement];
  /** Brings the hints and k's state in line with the select; call after setting it in code. */
  sync(): void;
}

/**
 * The fusion select and the RRF k input as fields. The hint under the select says what
 * the chosen fusion does; k is turned off unless it is RRF, its hint saying why.
 */
export function fusionFields(method: HTMLSelectElement, rrfK: HTMLInputElement, rrfHint: string): FusionFields {
  const methodField = field('Fusion', method, FUSION_HELP.rrf);
  const kField = field('RRF k', rrfK, rrfHint);
  const methodHint = methodField.querySelector('.hint');
  const kHint = kField.querySelector('.hint');
  const sync = () => {
    const chosen = isFusionMethod(method.value) ? method.value : 'rrf';
    if (methodHint) methodHint.textContent = FUSION_HELP[chosen];
    rrfK.disabled = chosen !== 'rrf';
    if (kHint) kHint.textContent = chosen === 'rrf' ? rrfHint : RRF_K_UNUSED;
    if (chosen !== 'rrf') markInvalid(rrfK, false);
  };
  method.addEventListener('change', sync);
  sync();
  return { fields: [methodField, kField], sync };
}

/** The section scoring select as a field whose hint says what the chosen scoring does. */
export function sectionScoringField(select: HTMLSelectElement): { field: HTMLElement; sync(): void } {
  const el = field('Section scoring', select, SECTION_SCORING_HELP['best-page']);
  const hint = el.querySelector('.hint');
  const sync = () => {
    if (hint && isSectionScoring(select.value)) hint.textContent = SECTION_SCORING_HELP[select.value];
  };
  select.addEventListener('change', sync);
  sync();
  return { field: el, sync };
}
