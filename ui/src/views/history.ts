// History: past runs, newest first, searchable; re-run with other settings; export.

import { api, errorMessage, type ContextPage, type ExportFormat, type RunRecord } from '../api';
import { bus, navigate } from '../app';
import { busy, field, h, replace } from '../dom';
import { answerNotes, debounce, formatDate, formatMs, uniquePages } from '../format';
import { describeFusion, describeStrategy, runSettings, sectionScoringLabel, strategyLabel } from '../strategy-form';
import { groupRuns, type HistoryEntry } from '../history-groups';
import { facts, pageChip, renderAnswer } from './parts';
import { dateStamp, offerDownload } from './save';

const LIMIT = 200;

const search = h('input', {
  id: 'history-search',
  type: 'search',
  placeholder: 'Words in the question or answer',
  'data-testid': 'history-search',
});
const list = h('ul', { class: 'history-list', 'aria-label': 'Runs', 'data-testid': 'history-list' });
const status = h('p', { class: 'history-status', role: 'status' });
const exportArea = h('p', { class: 'export-area', 'aria-live': 'polite' });
let token = 0;

function pagesOf(run: RunRecord): ContextPage[] {
  if (!Array.isArray(run.pages)) return [];
  return (run.pages as unknown[]).filter(
    (p): p is ContextPage =>
      typeof p === 'object' && p !== null && typeof (p as ContextPage).page === 'number' && typeof (p as ContextPage).doc_id === 'number',
  );
}

function details(run: RunRecord): HTMLElement {
  const { strategy, search: settings } = runSettings(run.settings);
  const pages = uniquePages(pagesOf(run));
  const answer = run.answer;
  const rerun = (target: 'compare' | 'ask') => {
    const prefill = { question: run.question, strategy, settings };
    bus.emit(target === 'compare' ? 'prefill-compare' : 'prefill-ask', prefill);
    navigate(target);
  };
  return h(
    'div',
    { class: 'run-body' },
    h('p', { class: 'run-question' }, h('strong', {}, 'Question: '), run.question),
    facts([
      ['kind', run.kind],
      ['strategy', strategy ? describeStrategy(strategy) : (run.strategy ?? '–')],
      ['fusion', settings ? describeFusion(settings.fusion) : '–'],
      ['section scoring', settings ? sectionScoringLabel(settings.section_scoring) : '–'],
      ['token budget', settings ? (settings.token_budget === null ? 'none' : String(settings.token_budget)) : '–'],
      ['context tokens', run.context_tokens === null ? '–' : String(run.context_tokens)],
      ['latency', formatMs(run.latency_ms)],
    ]),
    run.error ? h('p', { class: 'error' }, run.error) : null,
    pages.length > 0
      ? h('div', { class: 'chips', role: 'group', 'aria-label': 'Pages' }, ...pages.map((p) => pageChip(p)))
      : h('p', { class: 'muted' }, 'No pages.'),
    answer
      ? h(
          'div',
          { class: 'run-answer' },
          h('h4', {}, 'Answer'),
          renderAnswer(answer.text, [], answer.citations),
          (() => {
            const notes = answerNotes({ notes: [], model: answer.model, answer });
            return notes.length ? h('ul', { class: 'notes' }, ...notes.map((n) => h('li', {}, n))) : null;
          })(),
          h(
            'p',
            { class: 'timing' },
            `${answer.model ? `model ${answer.model}` : 'no model'} · first token ${formatMs(answer.first_token_ms)} · total ${formatMs(answer.total_ms)}`,
          ),
        )
      : null,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', class: 'secondary small', onclick: () => rerun('compare') }, 'Re-run in Compare…'),
      h('button', { type: 'button', class: 'secondary small', onclick: () => rerun('ask') }, 'Ask again…'),
    ),
  );
}

function item(run: RunRecord): HTMLLIElement {
  const body = h('div', { class: 'run-slot' });
  const box = h(
    'details',
    { class: `run status-${run.status}`, 'data-run': run.id },
    h(
      'summary',
      {},
      h('span', { class: 'run-date' }, formatDate(run.created_at)),
      h('span', { class: `badge kind-${run.kind}` }, run.kind),
      h('span', { class: 'run-strategy' }, run.strategy ? strategyLabel(run.strategy) : '–'),
      h('span', { class: 'run-q' }, run.question),
      run.status === 'failed' ? h('span', { class: 'badge status-failed' }, 'failed') : null,
    ),
    body,
  );
  let loaded = false;
  box.addEventListener('toggle', async () => {
    if (!box.open || loaded) return;
    loaded = true;
    replace(body, h('p', { class: 'muted' }, 'Loading…'));
    try {
      replace(body, details(await api.historyEntry(run.id)));
    } catch (err) {
      // The list entry already holds what there is; say what went wrong and show it.
      replace(body, h('p', { class: 'error' }, errorMessage(err)), details(run));
    }
  });
  return h('li', {}, box);
}

/** One comparison: a row that opens to its strategies, each a run of its own. */
function comparisonItem(runs: RunRecord[]): HTMLLIElement {
  const first = runs[0]!;
  const failed = runs.filter((r) => r.status === 'failed').length;
  const names = runs.map((r) => (r.strategy ? strategyLabel(r.strategy) : '–')).join(', ');
  const box = h(
    'details',
    { class: 'run comparison', 'data-runs': runs.map((r) => r.id).join(' '), 'data-testid': 'history-comparison' },
    h(
      'summary',
      {},
      h('span', { class: 'run-date' }, formatDate(first.created_at)),
      h('span', { class: 'badge kind-compare' }, 'compare'),
      h('span', { class: 'run-strategy', title: names }, `${runs.length} strategies`),
      h('span', { class: 'run-q' }, first.question),
      failed > 0 ? h('span', { class: 'badge status-failed' }, `${failed} failed`) : null,
    ),
    h('ul', { class: 'history-list comparison-runs', 'aria-label': 'Strategies of this comparison' }, ...runs.map(item)),
  );
  return h('li', {}, box);
}

function entryItem(entry: HistoryEntry): HTMLLIElement {
  return entry.kind === 'run' ? item(entry.run) : comparisonItem(entry.runs);
}

async function refresh(): Promise<void> {
  const mine = ++token;
  const needle = search.value.trim();
  status.textContent = 'Loading…';
  try {
    const runs = await api.history(needle === '' ? null : needle, LIMIT);
    if (mine !== token) return;
    const entries = groupRuns(runs);
    replace(list, ...entries.map(entryItem));
    status.textContent =
      entries.length === 0
        ? needle
          ? `No runs match “${needle}”.`
          : 'No runs yet: ask a question or compare strategies.'
        : `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}${runs.length === LIMIT ? ' (the newest)' : ''}`;
  } catch (err) {
    if (mine !== token) return;
    status.textContent = `Could not load the history: ${errorMessage(err)}`;
  }
}

async function exportAs(format: ExportFormat, button: HTMLButtonElement): Promise<void> {
  try {
    const text = await busy(button, () => api.exportHistory(format));
    const type = format === 'md' ? 'text/markdown' : 'application/json';
    await offerDownload(exportArea, text, `pagetree-history-${dateStamp()}.${format}`, type);
  } catch (err) {
    replace(exportArea, h('span', { class: 'error' }, `Export failed: ${errorMessage(err)}`));
  }
}

export function showHistory(): void {
  void refresh();
}

export function createHistoryView(): HTMLElement {
  const md = h('button', { type: 'button', class: 'secondary', 'data-testid': 'history-export-md' }, 'Export Markdown');
  const json = h('button', { type: 'button', class: 'secondary', 'data-testid': 'history-export-json' }, 'Export JSON');
  md.addEventListener('click', () => void exportAs('md', md));
  json.addEventListener('click', () => void exportAs('json', json));
  const refreshSoon = debounce(() => void refresh(), 250);
  search.addEventListener('input', () => refreshSoon());
  search.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      refreshSoon.cancel();
      void refresh();
    }
  });
  return h(
    'section',
    { class: 'view history', 'aria-labelledby': 'history-title' },
    h('h2', { id: 'history-title', tabindex: -1 }, 'History'),
    h('div', { class: 'toolbar' }, field('Search history', search), md, json),
    exportArea,
    status,
    list,
  );
}
