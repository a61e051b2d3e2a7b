// Entry point: the frame (header, navigation, views), theme, drag and drop, and the
// shell's events.

import './style.css';
import { errorMessage, isDemo, onIngestFinished, onIngestProgress, onIngestQueued, onLibraryDrag, onLibraryDropped } from './api';
import { bus, currentView, state, VIEWS, type ViewName } from './app';
import { h, svg } from './dom';
import { openAbout } from './views/about';
import { createAskView } from './views/ask';
import { createCompareView } from './views/compare';
import { createHistoryView, showHistory } from './views/history';
import { createLibraryView, handleDrop, ingest, onFinished, onProgress, onQueued, refreshDocuments } from './views/library';
import { createSettingsView, loadSettings } from './views/settings';
import { createTreeView } from './views/tree';

type Theme = 'system' | 'light' | 'dark';
const THEME_KEY = 'pagetree.theme';

function storedTheme(): Theme {
  try {
    const t = localStorage.getItem(THEME_KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}

function applyTheme(theme: Theme, button: HTMLButtonElement): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  button.textContent = theme === 'system' ? '◐ Theme: system' : theme === 'light' ? '☀ Theme: light' : '☾ Theme: dark';
  button.setAttribute('aria-label', `Colour theme: ${theme}. Change it`);
  try {
    if (theme === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, theme);
  } catch {
    // private mode: the choice lasts for this session only
  }
}

/** A small tree of pages: the app's mark. */
function logo(): SVGSVGElement {
  return svg(
    'svg',
    { class: 'logo', viewBox: '0 0 24 24', width: 22, height: 22, 'aria-hidden': 'true' },
    svg('path', { d: 'M12 5v4M12 9H6v4M12 9h6v4', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6 }),
    svg('rect', { x: 9, y: 1.5, width: 6, height: 4, rx: 1, fill: 'currentColor' }),
    svg('rect', { x: 3.5, y: 13, width: 5, height: 7, rx: 1, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6 }),
    svg('rect', { x: 15.5, y: 13, width: 5, height: 7, rx: 1, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6 }),
  );
}

function build(): void {
  const app = document.getElementById('app');
  if (!app) return;
  const views: Record<ViewName, HTMLElement> = {
    library: createLibraryView(),
    tree: createTreeView(),
    compare: createCompareView(),
    ask: createAskView(),
    history: createHistoryView(),
    settings: createSettingsView(),
  };
  const links = new Map<ViewName, HTMLAnchorElement>();
  const nav = h(
    'nav',
    { class: 'tabs', 'aria-label': 'Views' },
    h(
      'ul',
      {},
      ...VIEWS.map((v, i) => {
        const a = h('a', { href: `#${v.name}`, 'data-nav': v.name, title: `${v.label} (Alt+${i + 1})` }, v.label);
        links.set(v.name, a);
        return h('li', {}, a);
      }),
    ),
  );
  const badge = h(
    'span',
    {
      class: 'demo-badge',
      hidden: true,
      title: 'Not connected to the PageTree shell: a built-in test double (DemoBackend) answers with canned data.',
      'data-testid': 'demo-badge',
    },
    'demo data',
  );
  const themeButton = h('button', { type: 'button', class: 'secondary small theme-toggle' });
  let theme = storedTheme();
  applyTheme(theme, themeButton);
  themeButton.addEventListener('click', () => {
    theme = theme === 'system' ? 'light' : theme === 'light' ? 'dark' : 'system';
    applyTheme(theme, themeButton);
  });
  const aboutButton = h(
    'button',
    { type: 'button', class: 'secondary small', 'data-testid': 'about-open', title: 'Version, assets and log' },
    'About',
  );
  aboutButton.addEventListener('click', () => void openAbout(aboutButton));
  const main = h('main', { id: 'main', tabindex: -1 });
  for (const [name, el] of Object.entries(views)) {
    el.hidden = true;
    el.dataset.view = name;
    main.append(el);
  }
  const dropOverlay = h(
    'div',
    { class: 'drop-overlay', hidden: true, 'aria-hidden': 'true', 'data-testid': 'drop-overlay' },
    h('p', {}, 'Drop PDFs or folders to add them to the library'),
  );
  app.append(
    h('a', { class: 'skip-link', href: '#main', onclick: (e: Event) => { e.preventDefault(); main.focus(); } }, 'Skip to content'),
    h(
      'header',
      { class: 'app-header' },
      h('h1', {}, logo(), 'PageTree'),
      badge,
      h('div', { class: 'spacer' }),
      aboutButton,
      themeButton,
    ),
    nav,
    main,
    dropOverlay,
    h('div', { id: 'announcer', class: 'visually-hidden', 'aria-live': 'polite', role: 'status' }),
  );

  let shown: ViewName | null = null;
  const show = (name: ViewName, focus: boolean) => {
    for (const [n, el] of Object.entries(views)) el.hidden = n !== name;
    for (const [n, a] of links) {
      if (n === name) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    document.title = `${VIEWS.find((v) => v.name === name)?.label ?? ''} · PageTree`;
    if (name === 'history') showHistory();
    // Read from the library each time: an ingest may have chosen its model since.
    if (name === 'settings' && shown !== 'settings') void loadSettings();
    if (focus && shown !== null && shown !== name) views[name].querySelector<HTMLElement>('h2')?.focus();
    shown = name;
    bus.emit('shown', name);
  };
  window.addEventListener('hashchange', () => show(currentView(), true));
  bus.on('view', (v) => show(v, true));
  show(currentView(), false);

  window.addEventListener('keydown', (e) => {
    if (!e.altKey || e.ctrlKey || e.metaKey) return;
    const index = Number(e.key) - 1;
    const view = VIEWS[index];
    if (view) {
      e.preventDefault();
      location.hash = view.name;
    }
  });

  // Inside Tauri the shell sees files dragged from the desktop, and says so.
  onLibraryDrag(({ over }) => {
    dropOverlay.hidden = !over;
  }).catch((err: unknown) => console.error('could not listen to drags', errorMessage(err)));
  // HTML5 drag and drop anywhere on the window.
  let depth = 0;
  const hasFiles = (e: DragEvent) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  window.addEventListener('dragenter', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth++;
    dropOverlay.hidden = false;
  });
  window.addEventListener('dragover', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
  });
  window.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) dropOverlay.hidden = true;
  });
  window.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    dropOverlay.hidden = true;
    if (e.dataTransfer) {
      if (shown !== 'library') location.hash = 'library';
      void handleDrop(e.dataTransfer);
    }
  });

  void isDemo().then((demo) => {
    state.demo = demo;
    badge.hidden = !demo;
    document.documentElement.classList.toggle('demo', demo);
  });
}

async function start(): Promise<void> {
  build();
  // The shell's events.
  try {
    await Promise.all([
      onIngestProgress((p) => {
        state.progress.set(p.file, p);
        onProgress(p);
        bus.emit('progress', state.progress);
      }),
      onIngestFinished((f) => {
        state.progress.delete(f.file);
        bus.emit('progress', state.progress);
        bus.emit('finished', f);
        onFinished(f);
      }),
      onIngestQueued(onQueued),
      onLibraryDropped(({ paths }) => {
        if (location.hash !== '#library') location.hash = 'library';
        void ingest(paths);
      }),
    ]);
  } catch (err) {
    console.error('could not listen to the shell', errorMessage(err));
  }
  await Promise.all([refreshDocuments(), loadSettings()]);
  // Documents that were ingesting when the window opened: keep the list fresh.
  if (state.documents.some((d) => d.status === 'ingesting')) {
    const poll = setInterval(() => {
      if (!state.documents.some((d) => d.status === 'ingesting')) clearInterval(poll);
      else void refreshDocuments();
    }, 3000);
  }
}

void start();
