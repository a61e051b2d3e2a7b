// Ask: a chat over the library. Answers stream token by token; when complete their
// citations become links to the cited page, with the cited passage highlighted.

import {
  api,
  DEFAULT_SECTION_SCORING,
  defaultFusion,
  errorMessage,
  newRequestId,
  onAskToken,
  STRATEGY_NAMES,
  type AskOutcome,
  type Citation,
  type SearchSettings,
  type Strategy,
  type StrategyName,
} from '../api';
import { announce, bus, setScope, state, type Prefill } from '../app';
import { segmentAnswer, uniqueCitations } from '../citations';
import { field, h, replace } from '../dom';
import { answerNotes, formatMs, uniquePages } from '../format';
import {
  completeStrategies,
  describeFusion,
  describeStrategy,
  fusionFromJson,
  sectionScoringLabel,
  strategyLabel,
} from '../strategy-form';
import { answerSources, sourcesText, withScope } from '../search-scope';
import { analysisBanner } from './analysis-banner';
import { citationChip, facts, pageChip, paramsEditor, renderAnswer, type ParamsEditor } from './parts';
import { scopeChip } from './scope-chip';

const DEFAULT_STRATEGY: StrategyName = 'knee';

const chat = h('ol', {
  class: 'chat',
  role: 'log',
  'aria-live': 'polite',
  'aria-relevant': 'additions',
  'aria-label': 'Conversation',
  'data-testid': 'chat',
});
const emptyChat = h(
  'li',
  { class: 'chat-empty' },
  'Ask a question about your documents. Answers cite pages like [BOEING_2022_10K p.34]; click a citation to see the page.',
);
const question = h('textarea', {
  id: 'ask-question',
  rows: 2,
  placeholder: 'Ask about your documents…',
  'data-testid': 'ask-question',
});
const send = h('button', { type: 'submit', class: 'primary', 'data-testid': 'ask-send' }, 'Ask');
const strategySelect = h(
  'select',
  { id: 'ask-strategy', 'data-testid': 'ask-strategy' },
  ...STRATEGY_NAMES.map((n) => h('option', { value: n, selected: n === DEFAULT_STRATEGY }, strategyLabel(n))),
);
const paramsSlot = h('div', { class: 'ask-params' });
const conversationLine = h('p', { class: 'conversation-line muted' }, 'New conversation');
const newConversation = h('button', { type: 'button', class: 'secondary small', disabled: true }, 'New conversation');
const status = h('p', { class: 'ask-status', role: 'status' });

let editor: ParamsEditor | null = null;
let conversationId: number | null = null;
let overrideSettings: SearchSettings | null = null;
let answering = false;
const streams = new Map<string, { text: Text }>();
let listening: Promise<unknown> | null = null;

function listenTokens(): Promise<unknown> {
  if (!listening) {
    listening = onAskToken(({ request_id, piece }) => {
      const stream = streams.get(request_id);
      if (stream) stream.text.appendData(piece);
    });
  }
  return listening;
}

function strategyFromDefaults(name: StrategyName): Strategy {
  const all = completeStrategies(state.settings?.defaults.strategies);
  return all.find((s) => s.name === name) ?? (completeStrategies(null).find((s) => s.name === name) as Strategy);
}

function mountEditor(name: StrategyName, strategy?: Strategy): void {
  editor = paramsEditor(name, strategy ?? strategyFromDefaults(name), `ask-${name}`);
  replace(paramsSlot, editor.el);
}

function searchSettings(): SearchSettings {
  const d = state.settings?.defaults;
  const base = overrideSettings ?? {
    fusion: fusionFromJson(d?.fusion) ?? defaultFusion(),
    section_scoring: DEFAULT_SECTION_SCORING,
    token_budget: d?.token_budget ?? null,
    documents: null,
  };
  // The chip above the chat is the one place that says which documents are searched.
  return withScope(base, state.scope);
}

/** "From BOEING_2022_10K (5 pages), 3M_2018_10K (1 page)": where the context's pages came from. */
function sourcesLine(outcome: AskOutcome): HTMLElement | null {
  const sources = answerSources(outcome.search.context.pages);
  if (sources.length === 0) return null;
  const scoped = outcome.search.settings.documents;
  return h(
    'p',
    { class: 'answer-sources', 'data-testid': 'answer-sources' },
    h('span', { class: 'meta-label' }, sources.length === 1 ? 'From the document' : `From ${sources.length} documents`),
    ' ',
    sourcesText(sources),
    scoped ? h('span', { class: 'muted' }, ` · searched only the ${scoped.length} chosen`) : null,
  );
}

function scrollToEnd(): void {
  const last = chat.lastElementChild;
  if (last && typeof last.scrollIntoView === 'function') last.scrollIntoView({ block: 'end' });
}

function addMessage(el: HTMLElement): void {
  emptyChat.remove();
  chat.append(el);
  scrollToEnd();
}

function quotesByCitation(text: string): Map<string, string> {
  const quotes = new Map<string, string>();
  for (const seg of segmentAnswer(text)) {
    if (seg.kind !== 'cite') continue;
    for (const c of seg.citations) {
      const key = `${c.document.toLowerCase()}:${c.page}`;
      if (!quotes.has(key)) quotes.set(key, seg.quote);
    }
  }
  return quotes;
}

function answerDetails(outcome: AskOutcome): HTMLElement {
  const search = outcome.search;
  const notes = answerNotes(outcome);
  const quotes = quotesByCitation(outcome.answer.text);
  const cited: Citation[] = uniqueCitations(outcome.answer.citations);
  const timing = [
    outcome.model ? `model ${outcome.model}` : 'no model',
    `first token ${formatMs(outcome.first_token_ms)}`,
    `total ${formatMs(outcome.total_ms)}`,
  ].join(' · ');
  return h(
    'div',
    { class: 'answer-meta' },
    analysisBanner(search.analysis, state.documents),
    sourcesLine(outcome),
    cited.length > 0
      ? h(
          'div',
          { class: 'cited' },
          h('span', { class: 'meta-label' }, 'Cited pages'),
          h(
            'div',
            { class: 'chips', role: 'group', 'aria-label': 'Cited pages' },
            ...cited.map((c) =>
              citationChip(c, quotes.get(`${c.document.toLowerCase()}:${c.page}`) ?? '', outcome.passages),
            ),
          ),
        )
      : null,
    notes.length > 0
      ? h('ul', { class: 'notes', 'aria-label': 'Notes' }, ...notes.map((n) => h('li', {}, n)))
      : null,
    h('p', { class: 'timing' }, timing),
    h(
      'details',
      { class: 'settings-used' },
      h('summary', {}, `Strategy and settings: ${describeStrategy(search.strategy)}`),
      facts([
        ['strategy', describeStrategy(search.strategy)],
        ['fusion', describeFusion(search.settings.fusion)],
        ['section scoring', sectionScoringLabel(search.settings.section_scoring)],
        ['weights', `dense ${search.settings.fusion.dense_weight} · sparse ${search.settings.fusion.sparse_weight}`],
        ['token budget', search.settings.token_budget === null ? 'none' : String(search.settings.token_budget)],
        ['context', `${uniquePages(search.context.pages).length} pages, ${search.context.tokens} tokens (${search.context.tokenizer})`],
        ['search', `${formatMs(search.latency_ms)}, stopped because ${search.stopped_because || '–'}`],
        ['run', `#${outcome.run_id} in conversation #${outcome.conversation_id}`],
      ]),
      h(
        'div',
        { class: 'chips', role: 'group', 'aria-label': 'Pages in the context' },
        ...uniquePages(search.context.pages).map((p) => pageChip(p)),
      ),
    ),
  );
}

async function ask(): Promise<void> {
  const text = question.value.trim();
  if (text === '' || answering) return;
  const parsed = editor?.read();
  if (!parsed || !parsed.ok) {
    status.textContent = 'Fix the strategy settings first.';
    return;
  }
  answering = true;
  send.disabled = true;
  question.value = '';
  addMessage(h('li', { class: 'msg user' }, h('p', { class: 'who' }, 'You'), h('p', {}, text)));
  const streamed = document.createTextNode('');
  const body = h('div', { class: 'answer-text streaming' }, streamed);
  const message = h(
    'li',
    { class: 'msg assistant', 'aria-busy': 'true', 'data-testid': 'answer' },
    h('p', { class: 'who' }, 'PageTree'),
    body,
  );
  addMessage(message);
  status.textContent = 'Searching and answering…';
  const requestId = newRequestId();
  streams.set(requestId, { text: streamed });
  const observer =
    typeof MutationObserver === 'function' ? new MutationObserver(() => scrollToEnd()) : null;
  observer?.observe(body, { characterData: true, subtree: true, childList: true });
  try {
    await listenTokens();
    const outcome = await api.ask(text, parsed.value, searchSettings(), conversationId, requestId);
    conversationId = outcome.conversation_id;
    const rendered = renderAnswer(outcome.answer.text, outcome.passages, outcome.answer.citations);
    body.replaceWith(rendered);
    message.append(answerDetails(outcome));
    message.setAttribute('aria-busy', 'false');
    conversationLine.textContent = `Conversation #${conversationId}: follow-up questions keep its context`;
    newConversation.disabled = false;
    status.textContent = '';
    announce('Answer complete');
  } catch (err) {
    const reason = errorMessage(err);
    if (streamed.data === '') body.remove();
    message.setAttribute('aria-busy', 'false');
    message.classList.add('failed');
    message.append(h('p', { class: 'error', role: 'alert' }, `The question could not be answered: ${reason}`));
    status.textContent = '';
  } finally {
    observer?.disconnect();
    streams.delete(requestId);
    answering = false;
    send.disabled = false;
    scrollToEnd();
  }
}

function prefill(p: Prefill): void {
  question.value = p.question;
  if (p.strategy) {
    strategySelect.value = p.strategy.name;
    mountEditor(p.strategy.name, p.strategy);
  }
  overrideSettings = p.settings;
  // Re-run as it ran: on the documents it was restricted to, or on the whole library.
  if (p.settings) setScope(p.settings.documents);
  conversationId = null;
  conversationLine.textContent = 'New conversation (settings from the history entry)';
}

export function createAskView(): HTMLElement {
  mountEditor(DEFAULT_STRATEGY);
  void listenTokens();
  strategySelect.addEventListener('change', () => mountEditor(strategySelect.value as StrategyName));
  newConversation.addEventListener('click', () => {
    conversationId = null;
    overrideSettings = null;
    replace(chat, emptyChat);
    conversationLine.textContent = 'New conversation';
    newConversation.disabled = true;
    question.focus();
  });
  bus.on('settings', () => {
    if (!answering) mountEditor(strategySelect.value as StrategyName);
  });
  bus.on('prefill-ask', prefill);
  const form = h(
    'form',
    { class: 'ask-form' },
    field('Question', question, 'Enter sends; Shift+Enter starts a new line.'),
    h('div', { class: 'actions' }, send),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void ask();
  });
  question.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void ask();
    }
  });
  chat.append(emptyChat);
  return h(
    'section',
    { class: 'view ask', 'aria-labelledby': 'ask-title' },
    h('h2', { id: 'ask-title', tabindex: -1 }, 'Ask'),
    h(
      'div',
      { class: 'ask-toolbar' },
      field('Strategy', strategySelect),
      h('details', { class: 'ask-settings' }, h('summary', {}, 'Strategy settings'), paramsSlot),
      h('div', { class: 'conversation' }, conversationLine, newConversation),
    ),
    scopeChip('ask-scope'),
    chat,
    status,
    form,
  );
}
