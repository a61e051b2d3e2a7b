// @vitest-environment jsdom
// How the library list copes with 500 documents: building its rows, re-rendering them
// unchanged (a refresh), typing a filter that narrows them (and clearing it) and
// changing the sort, in jsdom against the DemoBackend test double holding 500 made-up
// filings. `npm run bench`. jsdom builds elements far slower than a browser engine
// does, so these are upper bounds for the window, not its timings.
//
// Each bench's own timer brackets only the step it names (resets between iterations
// stay outside), and the medians of those timings are printed at the end; vitest's
// table times the whole iteration, resets included.

import { afterAll, beforeAll, bench, describe } from 'vitest';
import { api, useTransport, type DocumentRecord } from './api';
import { DemoBackend } from './api-double';
import { state } from './app';
import { visibleDocuments } from './library-list';
import { _internal, createLibraryView } from './views/library';

const DOCUMENTS = 500;
const WORD = 'borealis 2019';

let docs: DocumentRecord[] = [];
const timings = new Map<string, number[]>();

function timed(name: string, step: () => void): void {
  const start = performance.now();
  step();
  const list = timings.get(name) ?? [];
  list.push(performance.now() - start);
  timings.set(name, list);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function setFilter(value: string): void {
  _internal.filter.value = value;
  _internal.render();
}

beforeAll(async () => {
  useTransport(new DemoBackend({ speed: 0, shelf: DOCUMENTS - 2 }));
  docs = await api.listDocuments();
  document.body.append(createLibraryView());
  // Straight into the state: the bus would also schedule a render for the next frame.
  state.documents = docs;
});

afterAll(() => {
  const shown = visibleDocuments(docs, WORD, 'name').length;
  const lines = [...timings].map(
    ([name, values]) => `  ${name.padEnd(58)} median ${median(values).toFixed(2)} ms over ${values.length} runs`,
  );
  console.log(`Library list, ${docs.length} documents (“${WORD}” shows ${shown}):\n${lines.join('\n')}`);
});

describe(`the library list with ${DOCUMENTS} documents`, () => {
  bench('render every row from scratch', () => {
    _internal.rows.clear();
    _internal.list.replaceChildren();
    setFilter('');
    _internal.rows.clear();
    _internal.list.replaceChildren();
    timed('render 500 rows from scratch', () => _internal.render());
  });

  bench('re-render unchanged (a refresh of the list)', () => {
    timed('re-render 500 unchanged rows', () => _internal.render());
  });

  bench('type a filter that narrows the list', () => {
    setFilter('');
    timed(`filter 500 rows by “${WORD}” (DOM updated)`, () => setFilter(WORD));
  });

  bench('clear the filter: every row comes back', () => {
    setFilter(WORD);
    timed('clear the filter (500 rows back)', () => setFilter(''));
  });

  let byPages = false;
  bench('change the sort: every row moves', () => {
    byPages = !byPages;
    _internal.sort.value = byPages ? 'pages' : 'name';
    timed('re-sort 500 rows (name <-> pages)', () => _internal.render());
  });

  bench('filter and sort the records only (no DOM)', () => {
    timed('filter + sort 500 records only (no DOM)', () => visibleDocuments(docs, WORD, 'pages'));
  });
});
