// Under the Compare view's cards: which pages every strategy chose, which only one did,
// and which strategies found the pages that answer the question, when those are known
// (a bench run asked it, or the person types them). Exports the comparison.

import { api, errorMessage, type GoldPage, type SearchResult } from '../api';
import { state } from '../app';
import { field, h, markInvalid, replace } from '../dom';
import {
  comparisonJson,
  comparisonMarkdown,
  difference,
  formatGold,
  parseGold,
  resolveGold,
  type Difference,
  type PageRef,
} from '../compare-diff';
import { strategyLabel } from '../strategy-form';
import { pageChip } from './parts';
import { dateStamp, offerDownload } from './save';
import { STRATEGY_COLOURS } from './trace-tree';

export interface CompareSummary {
  el: HTMLElement;
  show(question: string, results: SearchResult[]): Promise<void>;
  update(result: SearchResult): void;
}

export function createCompareSummary(): CompareSummary {
  const goldInput = h('input', {
    id: 'compare-gold',
    type: 'text',
    placeholder: 'e.g. BOEING_2022_10K p. 34, 35',
    'data-testid': 'compare-gold',
    autocomplete: 'off',
  });
  const goldSource = h('p', { class: 'hint', id: 'compare-gold-source', 'data-testid': 'compare-gold-source' });
  const goldError = h('p', { class: 'field-error', role: 'alert', hidden: true });
  const body = h('div', { class: 'difference-body' });
  const exportArea = h('p', { class: 'export-area', 'aria-live': 'polite' });
  const md = h('button', { type: 'button', class: 'secondary small', 'data-testid': 'compare-export-md' }, 'Export Markdown');
  const json = h('button', { type: 'button', class: 'secondary small', 'data-testid': 'compare-export-json' }, 'Export JSON');
  const el = h(
    'section',
    { class: 'difference', 'aria-labelledby': 'difference-title', 'data-testid': 'compare-difference', hidden: true },
    h('div', { class: 'difference-head' }, h('h3', { id: 'difference-title' }, 'Where they agree'), md, json),
    body,
    field('Pages that answer it', goldInput, 'Optional: the pages you know hold the answer, to see which strategies found them.'),
    goldSource,
    goldError,
    exportArea,
  );

  let question = '';
  let results: SearchResult[] = [];
  let current: Difference = difference([], null);

  function readGold(): GoldPage[] | null {
    const parsed = parseGold(goldInput.value);
    markInvalid(goldInput, !parsed.ok);
    goldError.hidden = parsed.ok;
    goldError.textContent = parsed.ok ? '' : parsed.error;
    return parsed.ok ? parsed.value : null;
  }

  function draw(): void {
    const gold = readGold();
    current = difference(results, gold && gold.length > 0 ? resolveGold(gold, state.documents) : null);
    replace(body, ...render(current));
  }

  goldInput.addEventListener('input', () => {
    goldSource.textContent = '';
    draw();
  });
  md.addEventListener('click', () =>
    void offerDownload(exportArea, comparisonMarkdown(question, results, current), `pagetree-comparison-${dateStamp()}.md`, 'text/markdown'),
  );
  json.addEventListener('click', () =>
    void offerDownload(
      exportArea,
      JSON.stringify(comparisonJson(question, results, current), null, 2),
      `pagetree-comparison-${dateStamp()}.json`,
      'application/json',
    ),
  );

  return {
    el,
    async show(q, rs) {
      const sameQuestion = q === question;
      question = q;
      results = rs;
      el.hidden = rs.length === 0;
      replace(exportArea);
      if (!sameQuestion) {
        goldInput.value = '';
        goldSource.textContent = '';
        try {
          const known = await api.benchGold(q);
          if (known.length > 0 && question === q) {
            goldInput.value = formatGold(known);
            goldSource.textContent = 'From a bench run that asked this question.';
          }
        } catch (err) {
          goldSource.textContent = `Could not look for a bench run of this question: ${errorMessage(err)}`;
        }
      }
      draw();
    },
    update(result) {
      results = results.map((r) => (r.strategy.name === result.strategy.name ? result : r));
      draw();
    },
  };
}

function chips(pages: PageRef[]): HTMLElement {
  return h(
    'span',
    { class: 'chips' },
    ...(pages.length ? pages.map((p) => pageChip(p)) : [h('span', { class: 'muted' }, 'none')]),
  );
}

function swatch(name: SearchResult['strategy']['name']): HTMLElement {
  return h('span', { class: 'swatch', style: `background:${STRATEGY_COLOURS[name]}`, 'aria-hidden': 'true' });
}

function render(d: Difference): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (d.strategies.length > 1) {
    out.push(h('p', { 'data-testid': 'difference-everyone' }, h('strong', {}, 'Every strategy: '), chips(d.everyone)));
    out.push(
      h(
        'ul',
        { class: 'only-one', 'data-testid': 'difference-only' },
        ...(d.onlyOne.length
          ? d.onlyOne.map((o) =>
              h('li', {}, swatch(o.strategy), h('strong', {}, `Only ${strategyLabel(o.strategy)}: `), chips(o.pages)),
            )
          : [h('li', { class: 'muted' }, 'No strategy chose a page that no other chose.')]),
      ),
    );
  }
  const gold = d.gold;
  if (gold) {
    const rows = gold.outcomes.map((o) =>
      h(
        'tr',
        { class: o.hit ? 'hit' : 'miss', 'data-strategy': o.strategy },
        h('th', { scope: 'row' }, swatch(o.strategy), strategyLabel(o.strategy)),
        h('td', {}, o.hit ? `found ${o.found.length} of ${gold.pages.length}` : 'missed'),
        h('td', {}, chips(o.found)),
      ),
    );
    out.push(
      h(
        'table',
        { class: 'gold-table', 'data-testid': 'difference-gold' },
        h('caption', {}, 'Which strategies found the pages that answer it'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'strategy'), h('th', { scope: 'col' }, 'answer'), h('th', { scope: 'col' }, 'pages found'))),
        h('tbody', {}, ...rows),
      ),
    );
    if (gold.missing.length > 0) {
      const names = [...new Set(gold.missing.map((g) => g.document))].join(', ');
      out.push(h('p', { class: 'note' }, `Not in the library: ${names}.`));
    }
  }
  return out;
}
