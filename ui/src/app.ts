// Shared application state, a small typed event bus, navigation and announcements.

import type { AppSettings, DocumentRecord, IngestFinished, IngestProgress, SearchSettings, Strategy } from './api';
import { liveScope } from './search-scope';

export type ViewName = 'library' | 'tree' | 'compare' | 'ask' | 'history' | 'settings';
export const VIEWS: { name: ViewName; label: string }[] = [
  { name: 'library', label: 'Library' },
  { name: 'tree', label: 'Tree' },
  { name: 'compare', label: 'Compare' },
  { name: 'ask', label: 'Ask' },
  { name: 'history', label: 'History' },
  { name: 'settings', label: 'Settings' },
];

export interface Highlight {
  ids: Set<number>;
  /** What the highlight shows, e.g. "knee · 6 nodes". */
  label: string;
  /** Documents holding highlighted nodes, in order of the first one. */
  docIds: number[];
}

export interface Prefill {
  question: string;
  strategy: Strategy | null;
  settings: SearchSettings | null;
}

interface BusEvents {
  documents: DocumentRecord[];
  progress: Map<string, IngestProgress>;
  finished: IngestFinished;
  highlight: Highlight | null;
  settings: AppSettings;
  'prefill-compare': Prefill;
  'prefill-ask': Prefill;
  'show-tree': { docId: number };
  /** The documents Ask and Compare are restricted to; null for the whole library. */
  scope: number[] | null;
  view: ViewName;
  /** A view became visible. */
  shown: ViewName;
}

type BusHandler<K extends keyof BusEvents> = (value: BusEvents[K]) => void;

class Bus {
  private handlers = new Map<keyof BusEvents, Set<BusHandler<never>>>();
  on<K extends keyof BusEvents>(name: K, handler: BusHandler<K>): () => void {
    let set = this.handlers.get(name);
    if (!set) {
      set = new Set();
      this.handlers.set(name, set);
    }
    set.add(handler as BusHandler<never>);
    return () => set?.delete(handler as BusHandler<never>);
  }
  emit<K extends keyof BusEvents>(name: K, value: BusEvents[K]): void {
    for (const handler of this.handlers.get(name) ?? []) (handler as BusHandler<K>)(value);
  }
}

export const bus = new Bus();

export const state = {
  documents: [] as DocumentRecord[],
  progress: new Map<string, IngestProgress>(),
  highlight: null as Highlight | null,
  settings: null as AppSettings | null,
  scope: null as number[] | null,
  demo: false,
};

export function setDocuments(documents: DocumentRecord[]): void {
  state.documents = documents;
  bus.emit('documents', documents);
  // A removed document cannot be searched: the scope forgets it, and says so.
  const scope = liveScope(state.scope, documents);
  if (scope?.length !== state.scope?.length) setScope(scope);
}

/** Restricts Ask and Compare to `ids` (null or none: the whole library). */
export function setScope(ids: readonly number[] | null): void {
  state.scope = ids && ids.length > 0 ? [...ids] : null;
  bus.emit('scope', state.scope);
}

/** Replaces one document's record (after a command returned it fresh, e.g. a corrected card). */
export function updateDocument(record: DocumentRecord): void {
  setDocuments(state.documents.map((d) => (d.id === record.id ? record : d)));
}

export function setHighlight(highlight: Highlight | null): void {
  state.highlight = highlight;
  bus.emit('highlight', highlight);
}

export function setSettings(settings: AppSettings): void {
  state.settings = settings;
  bus.emit('settings', settings);
}

export function navigate(view: ViewName): void {
  if (location.hash !== `#${view}`) location.hash = view;
  else bus.emit('view', view);
}

export function currentView(): ViewName {
  const name = location.hash.replace(/^#\/?/, '').split(/[?/]/)[0] ?? '';
  return (VIEWS.find((v) => v.name === name)?.name ?? 'library') as ViewName;
}

/** Says `text` through the polite live region (screen readers). */
export function announce(text: string): void {
  const region = document.getElementById('announcer');
  if (!region) return;
  region.textContent = '';
  // A fresh text node after a tick, so the same message twice is read twice.
  setTimeout(() => {
    region.textContent = text;
  }, 30);
}
