// Compare: one question, several strategies side by side, each with its pages, cost and
// the trace drawn step by step. Moving the sensitivity slider re-runs only the
// sensitive knee.

import {
  api,
  DEFAULT_SECTION_SCORING,
  defaultFusion,
  errorMessage,
  STRATEGY_NAMES,
  type Fusion,
  type SearchResult,
  type SearchSettings,
  type Strategy,
  type StrategyName,
} from '../api';
import { announce, bus, navigate, setHighlight, setScope, state, type Prefill } from '../app';
import { busy, field, h, markInvalid, replace } from '../dom';
import { debounce, formatCount, formatMs, uniquePages } from '../format';
import {
  completeStrategies,
  describeStrategy,
  fusionFromJson,
  settingsToValues,
  STRATEGY_HELP,
  strategyLabel,
  valuesToSettings,
  type SearchFormValues,
} from '../strategy-form';
import { sharedAnalysis } from '../analysis';
import { withScope } from '../search-scope';
import { analysisBanner } from './analysis-banner';
import { createCompareSummary } from './compare-summary';
import { createTracePanel } from './trace-panel';
import { STRATEGY_COLOURS } from './trace-tree';
import {
  facts,
  fusionFields,
  fusionMethodSelect,
  pageChip,
  paramsEditor,
  sectionScoringField,
  sectionScoringSelect,
  type ParamsEditor,
} from './parts';
import { scopeChip } from './scope-chip';
import { unavailableReason } from '../strategy-availability';

interface StrategyControls {
  checkbox: HTMLInputElement;
  editor: ParamsEditor;
  /** Why the strategy cannot run with the current settings; empty and hidden when it can. */
  reason: HTMLElement;
  /** Unticked because it could not run, so it is ticked again once it can. */
  untickedByApp: boolean;
}

const controls = new Map<StrategyName, StrategyControls>();
const question = h('textarea', {
  id: 'compare-question',
  rows: 2,
  required: true,
  placeholder: 'e.g. What were Boeing’s total revenues in 2022?',
  'data-testid': 'compare-question',
});
const rrfK = h('input', { id: 'compare-rrf', type: 'number', min: 1, step: 1, value: '2', inputmode: 'numeric' });
const fusionMethod = fusionMethodSelect('compare-fusion');
fusionMethod.value = defaultFusion().method;
const fusion = fusionFields(
  fusionMethod,
  rrfK,
  'Reciprocal rank fusion constant: 2 is Qdrant’s default, 60 the article’s.',
);
const sectionScoring = sectionScoringSelect('compare-section-scoring');
sectionScoring.value = DEFAULT_SECTION_SCORING;
const scoring = sectionScoringField(sectionScoring);
const budget = h('input', {
  id: 'compare-budget',
  type: 'number',
  min: 1,
  step: 100,
  placeholder: 'no limit',
  inputmode: 'numeric',
});
const formError = h('p', { class: 'message', role: 'alert', hidden: true });
/** The strategies and their settings, folded away under the question: results come first. */
const settingsSummary = h('summary', { 'data-testid': 'compare-settings-summary' });
const settingsFold = h('details', { class: 'compare-settings', 'data-testid': 'compare-settings' }, settingsSummary);
const run = h('button', { type: 'submit', class: 'primary', 'data-testid': 'compare-run' }, 'Compare');
const results = h('div', { class: 'results', 'aria-live': 'polite', 'aria-busy': 'false' });
const skippedList = h('ul', { class: 'skipped' });
const analysisSlot = h('div', { class: 'analysis-slot' });
const columns = h('div', { class: 'columns', 'data-testid': 'compare-columns' });
const tracePanel = createTracePanel();
const summary = createCompareSummary();

let dirty = false;
let last: { question: string; settings: SearchSettings } | null = null;
const columnEls = new Map<StrategyName, HTMLElement>();
let sensitiveToken = 0;

/** "Strategies and settings: 7 of 8 strategies". */
function updateSettingsSummary(): void {
  const ticked = [...controls.values()].filter((c) => c.checkbox.checked).length;
  settingsSummary.textContent = `Strategies and settings: ${ticked} of ${controls.size} strategies`;
}

function showError(text: string | null): void {
  // What to fix is most often in the settings: unfold them.
  if (text !== null) settingsFold.open = true;
  formError.hidden = text === null;
  formError.textContent = text ?? '';
}

/** The saved default fusion, whose weights the form does not show. */
function baseFusion(): Fusion {
  return fusionFromJson(state.settings?.defaults.fusion) ?? defaultFusion();
}

/** Shows `values` in the fusion, section scoring and budget inputs. */
function writeSettings(values: SearchFormValues): void {
  rrfK.value = values.rrfK;
  budget.value = values.tokenBudget;
  if (values.fusionMethod) fusionMethod.value = values.fusionMethod;
  if (values.sectionScoring) sectionScoring.value = values.sectionScoring;
  fusion.sync();
  scoring.sync();
}

function readSettings(): SearchSettings | null {
  const parsed = valuesToSettings(
    {
      rrfK: rrfK.value,
      tokenBudget: budget.value,
      fusionMethod: fusionMethod.value,
      sectionScoring: sectionScoring.value,
    },
    null,
    baseFusion(),
  );
  markInvalid(rrfK, !parsed.ok && 'rrfK' in parsed.errors);
  markInvalid(budget, !parsed.ok && 'tokenBudget' in parsed.errors);
  if (!parsed.ok) {
    showError(Object.values(parsed.errors).join('. '));
    return null;
  }
  return withScope(parsed.value, state.scope);
}

function readStrategies(): Strategy[] | null {
  const chosen: Strategy[] = [];
  let bad = false;
  for (const name of STRATEGY_NAMES) {
    const c = controls.get(name);
    if (!c || !c.checkbox.checked) continue;
    const parsed = c.editor.read();
    if (parsed.ok) chosen.push(parsed.value);
    else bad = true;
  }
  if (bad) {
    showError('Some strategy settings are not valid; see the messages under them.');
    return null;
  }
  if (chosen.length === 0) {
    showError('Choose at least one strategy.');
    return null;
  }
  return chosen;
}

function showInTree(result: SearchResult): void {
  const docIds = [...new Set(result.selected.map((s) => s.doc_id))];
  setHighlight({
    ids: new Set(result.selected.map((s) => s.id)),
    label: `${result.strategy.name} (${result.selected.length} selected)`,
    docIds,
  });
  const first = docIds[0];
  if (first !== undefined) bus.emit('show-tree', { docId: first });
  navigate('tree');
}

function column(result: SearchResult): HTMLElement {
  const name = result.strategy.name;
  const pages = uniquePages(result.context.pages);
  const titleId = `col-${name}`;
  return h(
    'section',
    {
      class: 'col',
      'aria-labelledby': titleId,
      'data-strategy': name,
      'data-testid': `col-${name}`,
      style: `border-top-color:${STRATEGY_COLOURS[name]}`,
    },
    h('h3', { id: titleId }, strategyLabel(name)),
    h('p', { class: 'params-line' }, describeStrategy(result.strategy)),
    facts([
      ['pages', String(pages.length)],
      ['context tokens', formatCount(result.context.tokens)],
      ['latency', formatMs(result.latency_ms)],
      ['embed / search', `${formatMs(result.embed_ms)} / ${formatMs(result.search_ms)}`],
      ['store queries', String(result.store_queries)],
    ]),
    h('p', { class: 'stopped' }, h('strong', {}, 'Stopped because '), result.stopped_because || '–'),
    result.context.truncation ? h('p', { class: 'note' }, result.context.truncation) : null,
    h(
      'div',
      { class: 'chips page-chips', role: 'group', 'aria-label': `Pages selected by ${name}` },
      ...(pages.length ? pages.map((p) => pageChip(p)) : [h('span', { class: 'muted' }, 'no pages')]),
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'secondary small',
        disabled: result.selected.length === 0,
        onclick: () => showInTree(result),
      },
      'Show in tree',
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'secondary small',
        'data-testid': `trace-${name}`,
        disabled: result.trace.length === 0,
        onclick: () => tracePanel.focus(name),
      },
      'Trace',
    ),
  );
}

function errorColumn(name: StrategyName, message: string): HTMLElement {
  return h(
    'section',
    { class: 'col failed', 'data-strategy': name, 'aria-label': strategyLabel(name) },
    h('h3', {}, strategyLabel(name)),
    h('p', { class: 'error', role: 'alert' }, message),
  );
}

function setColumn(name: StrategyName, el: HTMLElement): void {
  const old = columnEls.get(name);
  columnEls.set(name, el);
  if (old && old.isConnected) old.replaceWith(el);
  else columns.append(el);
}

async function compare(): Promise<void> {
  showError(null);
  const q = question.value.trim();
  if (q === '') {
    showError('Type a question to compare the strategies on.');
    question.focus();
    return;
  }
  const strategies = readStrategies();
  const settings = readSettings();
  if (!strategies || !settings) return;
  results.setAttribute('aria-busy', 'true');
  sensitiveToken++;
  try {
    const outcome = await busy(run, () => api.compare(q, strategies, settings));
    last = { question: q, settings };
    columnEls.clear();
    replace(columns);
    replace(
      skippedList,
      ...outcome.skipped.map((s) => h('li', {}, `Skipped ${s}`)),
    );
    replace(analysisSlot, analysisBanner(sharedAnalysis(outcome.results), state.documents));
    for (const result of outcome.results) setColumn(result.strategy.name, column(result));
    await Promise.all([summary.show(q, outcome.results), tracePanel.show(q, outcome.results)]);
    if (typeof results.scrollIntoView === 'function') results.scrollIntoView({ block: 'start', behavior: 'smooth' });
    announce(`Compared ${outcome.results.length} strategies`);
  } catch (err) {
    showError(errorMessage(err));
  } finally {
    results.setAttribute('aria-busy', 'false');
  }
}

const rerunSensitive = debounce(async () => {
  const c = controls.get('sensitive-knee');
  if (!last || !c || !c.checkbox.checked || !columnEls.has('sensitive-knee')) return;
  const parsed = c.editor.read();
  if (!parsed.ok) return;
  const mine = ++sensitiveToken;
  const col = columnEls.get('sensitive-knee');
  col?.classList.add('updating');
  col?.setAttribute('aria-busy', 'true');
  try {
    const result = await api.search(last.question, parsed.value, last.settings);
    if (mine !== sensitiveToken) return;
    setColumn('sensitive-knee', column(result));
    summary.update(result);
    void tracePanel.update(result);
    announce(`Sensitive knee updated: ${uniquePages(result.context.pages).length} pages`);
  } catch (err) {
    if (mine !== sensitiveToken) return;
    setColumn('sensitive-knee', errorColumn('sensitive-knee', errorMessage(err)));
  }
}, 250);

/** Unticks and disables the strategies that cannot run, with the reason beside each. */
function applyAvailability(): void {
  for (const [name, c] of controls) {
    const reason = unavailableReason(name, state.settings);
    c.reason.textContent = reason ?? '';
    c.reason.hidden = reason === null;
    if (reason !== null) {
      if (c.checkbox.checked) c.untickedByApp = true;
      c.checkbox.checked = false;
      c.checkbox.disabled = true;
      c.editor.setDisabled(true);
    } else if (c.checkbox.disabled) {
      c.checkbox.disabled = false;
      if (c.untickedByApp) c.checkbox.checked = true;
      c.untickedByApp = false;
      c.editor.setDisabled(!c.checkbox.checked);
    }
  }
  updateSettingsSummary();
}

function applyDefaults(): void {
  const settings = state.settings;
  const strategies = completeStrategies(settings?.defaults.strategies);
  for (const s of strategies) controls.get(s.name)?.editor.write(s);
  if (settings) writeSettings(settingsToValues({ fusion: baseFusion(), token_budget: settings.defaults.token_budget }));
}

function prefill(p: Prefill): void {
  question.value = p.question;
  if (p.strategy) {
    const c = controls.get(p.strategy.name);
    if (c && !c.checkbox.disabled) {
      c.checkbox.checked = true;
      c.editor.write(p.strategy);
      c.editor.setDisabled(false);
    }
  }
  if (p.settings) {
    writeSettings(settingsToValues(p.settings));
    setScope(p.settings.documents);
  }
  updateSettingsSummary();
  dirty = true;
}

export function createCompareView(): HTMLElement {
  const cards = STRATEGY_NAMES.map((name) => {
    const checkbox = h('input', { type: 'checkbox', id: `use-${name}`, checked: true, name: 'strategies', value: name });
    const strategy = completeStrategies(null).find((s) => s.name === name);
    if (!strategy) throw new Error(name);
    const editor = paramsEditor(name, strategy, `cmp-${name}`);
    checkbox.addEventListener('change', () => editor.setDisabled(!checkbox.checked));
    const reason = h('p', { class: 'strategy-unavailable', id: `use-${name}-why`, 'data-testid': `unavailable-${name}`, hidden: true });
    checkbox.setAttribute('aria-describedby', reason.id);
    controls.set(name, { checkbox, editor, reason, untickedByApp: false });
    return h(
      'div',
      { class: 'strategy-card' },
      h(
        'div',
        { class: 'strategy-check' },
        checkbox,
        h('label', { for: checkbox.id }, strategyLabel(name)),
      ),
      reason,
      h('p', { class: 'hint' }, STRATEGY_HELP[name]),
      editor.el,
    );
  });
  const sensitivity = controls.get('sensitive-knee')?.editor.inputs.get('sensitivity');
  sensitivity?.addEventListener('input', () => rerunSensitive());

  settingsFold.append(
    h('fieldset', { class: 'strategies' }, h('legend', {}, 'Strategies'), h('div', { class: 'strategy-grid' }, ...cards)),
    h(
      'div',
      { class: 'row' },
      ...fusion.fields,
      scoring.field,
      field('Token budget', budget, 'Largest context in tokens; empty for no limit.'),
    ),
  );
  const form = h(
    'form',
    { class: 'compare-form', novalidate: true },
    h('div', { class: 'compare-ask' }, field('Question', question), h('div', { class: 'actions' }, run)),
    formError,
    settingsFold,
  );
  form.addEventListener('change', updateSettingsSummary);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void compare();
  });
  form.addEventListener('input', (e) => {
    if (e.target !== question) dirty = true;
  });
  question.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      form.requestSubmit();
    }
  });
  bus.on('settings', () => {
    if (!dirty) applyDefaults();
    applyAvailability();
  });
  bus.on('prefill-compare', prefill);
  if (state.settings) applyDefaults();
  applyAvailability();
  updateSettingsSummary();
  results.append(analysisSlot, skippedList, columns, summary.el, tracePanel.el);
  return h(
    'section',
    { class: 'view compare', 'aria-labelledby': 'compare-title' },
    h('h2', { id: 'compare-title', tabindex: -1 }, 'Compare strategies'),
    scopeChip('compare-scope'),
    form,
    results,
  );
}
