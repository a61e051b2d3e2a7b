// The Compare view's trace: the documents a comparison touched, drawn as their trees with
// one strategy's path step by step (and a second one overlaid), beside the score curve of
// the step. Exportable as SVG.

import { api, errorMessage, type OutlineDocument, type SearchResult, type StrategyName } from '../api';
import { h, replace } from '../dom';
import { stem } from '../format';
import { strategyLabel } from '../strategy-form';
import { describeStep, stepName } from '../trace';
import { marksAt, stepCount, touchedIds, traceRows } from '../trace-paths';
import { curveLegend, renderCurve } from './curve';
import { dateStamp, offerDownload } from './save';
import { marker, renderTraceTree, standaloneSvg, STATE_WORDS, STRATEGY_COLOURS, type Shown } from './trace-tree';

export interface TracePanel {
  el: HTMLElement;
  /** Draws a new comparison's results. */
  show(question: string, results: SearchResult[]): Promise<void>;
  /** Replaces one strategy's result (the sensitivity slider re-ran it). */
  update(result: SearchResult): Promise<void>;
  /** Makes `name` the strategy drawn first. */
  focus(name: StrategyName): void;
}

const NO_OVERLAY = '';

export function createTracePanel(): TracePanel {
  const primary = h('select', { id: 'trace-primary', 'data-testid': 'trace-primary' });
  const overlay = h('select', { id: 'trace-overlay', 'data-testid': 'trace-overlay' });
  const slider = h('input', {
    id: 'trace-step',
    type: 'range',
    min: 1,
    max: 1,
    step: 1,
    value: '1',
    'data-testid': 'trace-step',
  });
  const stepLabel = h('output', { for: 'trace-step', class: 'step-label', 'data-testid': 'trace-step-label' });
  const prev = h('button', { type: 'button', class: 'secondary small', 'aria-label': 'Previous step' }, '‹');
  const next = h('button', { type: 'button', class: 'secondary small', 'aria-label': 'Next step' }, '›');
  const exportButton = h('button', { type: 'button', class: 'secondary small', 'data-testid': 'trace-export-svg' }, 'Export SVG');
  const exportArea = h('p', { class: 'export-area', 'aria-live': 'polite' });
  const treeArea = h('div', { class: 'trace-tree-wrap', 'data-testid': 'trace-tree' });
  const curveArea = h('div', { class: 'plot' });
  const about = h('p', { class: 'step-desc', 'data-testid': 'trace-step-desc' });
  const status = h('p', { class: 'muted', role: 'status' });
  const markers = legend();
  const el = h(
    'section',
    { class: 'trace-panel', 'aria-labelledby': 'trace-title', 'data-testid': 'trace-view', hidden: true },
    h('h3', { id: 'trace-title' }, 'Where the search went'),
    h(
      'div',
      { class: 'trace-controls' },
      h('label', { for: 'trace-primary' }, 'Strategy'),
      primary,
      h('label', { for: 'trace-overlay' }, 'Overlay'),
      overlay,
      h('label', { for: 'trace-step' }, 'Step'),
      prev,
      slider,
      next,
      stepLabel,
      exportButton,
    ),
    status,
    h(
      'div',
      { class: 'trace-body' },
      treeArea,
      h('aside', { class: 'trace-side' }, curveArea, curveLegend(), about, markers.el),
    ),
    exportArea,
  );

  let question = '';
  let results: SearchResult[] = [];
  let outline: OutlineDocument[] = [];
  let drawn: SVGSVGElement | null = null;
  let token = 0;

  const byName = (name: string) => results.find((r) => r.strategy.name === name);

  function options(select: HTMLSelectElement, withNone: boolean, keep: string): void {
    replace(
      select,
      withNone ? h('option', { value: NO_OVERLAY }, 'none') : null,
      ...results.map((r) => h('option', { value: r.strategy.name }, strategyLabel(r.strategy.name))),
    );
    select.value = [...select.options].some((o) => o.value === keep) ? keep : (select.options[0]?.value ?? '');
  }

  function chosen(): SearchResult[] {
    const a = byName(primary.value);
    const b = overlay.value === NO_OVERLAY || overlay.value === primary.value ? undefined : byName(overlay.value);
    return [a, b].filter((r): r is SearchResult => r !== undefined);
  }

  function draw(): void {
    const shownResults = chosen();
    const first = shownResults[0];
    if (!first) {
      replace(treeArea);
      return;
    }
    const steps = stepCount(shownResults);
    slider.max = String(Math.max(1, steps));
    const step = Math.min(Number(slider.value), steps) - 1;
    prev.disabled = step <= 0;
    next.disabled = step >= steps - 1;
    const shown: Shown[] = shownResults.map((r) => ({ name: r.strategy.name, marks: marksAt(r, step) }));
    const finals = shownResults.map((r) => marksAt(r, r.trace.length));
    const rows = traceRows(outline, finals);
    const firstStep = first.trace[Math.min(step, first.trace.length - 1)];
    stepLabel.textContent = `${step + 1} of ${steps}${firstStep ? `: ${stepName(firstStep.label)}` : ''}`;
    markers.show(shownResults.map((r) => r.strategy.name));
    const names = shownResults.map((r) => r.strategy.name).join(' and ');
    drawn = renderTraceTree(rows, shown, `Trace of ${names} at step ${step + 1} of ${steps}`);
    replace(treeArea, drawn);
    const nodeName = labeller();
    replace(curveArea, firstStep ? renderCurve(firstStep, { nodeLabel: nodeName }) : null);
    about.textContent = firstStep
      ? `${strategyLabel(first.strategy.name)}, step ${Math.min(step, first.trace.length - 1) + 1} of ${first.trace.length}: ${describeStep(firstStep)}`
      : '';
  }

  /** Names nodes in the curve's tooltips from the outline. */
  function labeller(): (id: number) => string {
    const names = new Map<number, string>();
    for (const doc of outline) {
      for (const n of doc.nodes) {
        const span = n.page_start === n.page_end ? `p.${n.page_start}` : `pp.${n.page_start}–${n.page_end}`;
        names.set(n.id, `${stem(doc.name)} ${span}`);
      }
    }
    return (id) => names.get(id) ?? `node ${id}`;
  }

  async function load(): Promise<void> {
    const mine = ++token;
    status.textContent = 'Loading the trees…';
    try {
      const fetched = await api.traceOutline(touchedIds(results));
      if (mine !== token) return;
      outline = fetched;
      status.textContent =
        outline.length === 0 ? 'The search touched no document that is still in the library.' : '';
      draw();
    } catch (err) {
      if (mine !== token) return;
      status.textContent = `Could not load the trees: ${errorMessage(err)}`;
    }
  }

  function move(by: number): void {
    slider.value = String(Math.min(Number(slider.max), Math.max(1, Number(slider.value) + by)));
    draw();
  }

  primary.addEventListener('change', () => {
    slider.value = '1';
    draw();
  });
  overlay.addEventListener('change', draw);
  slider.addEventListener('input', draw);
  prev.addEventListener('click', () => move(-1));
  next.addEventListener('click', () => move(1));
  exportButton.addEventListener('click', () => {
    if (!drawn) return;
    const names = chosen().map((r) => r.strategy.name).join('-');
    const text = standaloneSvg(drawn, `${question} (${stepLabel.textContent ?? ''})`);
    void offerDownload(exportArea, text, `pagetree-trace-${names}-${dateStamp()}.svg`, 'image/svg+xml');
  });

  return {
    el,
    async show(q, rs) {
      question = q;
      results = rs;
      el.hidden = rs.length === 0;
      const preferred = byName('knee') ? 'knee' : (rs[0]?.strategy.name ?? '');
      options(primary, false, preferred);
      options(overlay, true, byName('flat') && primary.value !== 'flat' ? 'flat' : NO_OVERLAY);
      slider.value = '1';
      replace(exportArea);
      await load();
    },
    async update(result) {
      results = results.map((r) => (r.strategy.name === result.strategy.name ? result : r));
      await load();
    },
    focus(name) {
      primary.value = name;
      if (overlay.value === name) overlay.value = NO_OVERLAY;
      slider.value = '1';
      draw();
      if (typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'start', behavior: 'smooth' });
    },
  };
}

/** Shapes drawn in the legend in a neutral colour: the colour says the strategy. */
const SHAPE_COLOUR = '#374151';

function icon(draw: SVGGElement): HTMLElement {
  const box = h('span', { class: 'legend-icon', 'aria-hidden': 'true' });
  const drawnIcon = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  drawnIcon.setAttribute('width', '14');
  drawnIcon.setAttribute('height', '14');
  drawnIcon.append(draw);
  box.append(drawnIcon);
  return box;
}

/**
 * The trace tree's legend: what each shape means, and which strategy each colour is
 * (the grey squares of the flat overlay included), for the strategies drawn.
 */
function legend(): { el: HTMLElement; show(names: StrategyName[]): void } {
  const item = (state: keyof typeof STATE_WORDS) =>
    h('li', {}, icon(marker(state, SHAPE_COLOUR, 7, 7, STATE_WORDS[state])), STATE_WORDS[state]);
  const colours = h('ul', { class: 'trace-legend', 'aria-label': 'Which strategy each colour is', 'data-testid': 'trace-colours' });
  const el = h(
    'div',
    {},
    h(
      'ul',
      { class: 'trace-legend', 'aria-label': 'What the markers mean' },
      item('selected'),
      item('beam'),
      item('kept'),
      item('cut'),
      item('eliminated'),
      h('li', {}, h('span', { class: 'legend-now', 'aria-hidden': 'true' }), 'ranked at this step'),
    ),
    colours,
  );
  return {
    el,
    show(names) {
      replace(
        colours,
        ...names.map((name, i) =>
          h(
            'li',
            { 'data-strategy': name },
            icon(marker('selected', STRATEGY_COLOURS[name], 7, 7, strategyLabel(name))),
            `${strategyLabel(name)}${i === 0 ? ' (left column)' : ' (overlay, right column)'}: its colour in every shape`,
          ),
        ),
      );
    },
  };
}
