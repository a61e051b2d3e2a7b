// The page viewer: a page rendered large, its text beside it, and the cited passage
// marked: boxed on the page image where the answer gave its place (an extractive
// answer's quote), and highlighted in the text (the passage, else the sentence of the
// answer the citation backs, matched by word overlap).

import { api, errorMessage, type Citation, type Passage } from '../api';
import { state, setDocuments } from '../app';
import { h, replace } from '../dom';
import { documentFor, stem } from '../format';
import { bestSentence, markRanges } from '../highlight';
import { reflow } from '../reflow';
import { labelsByPage, pageInWords } from '../page-labels';
import { boxStyles, rowLabel, rowRanges } from '../passages';
import { closeDialog, openDialog } from './dialogs';

export interface PageTarget {
  docId: number;
  page: number;
  /** Shown in the title; the document's name is looked up when missing. */
  name?: string;
  /** The answer's sentence to find on the page. */
  quote?: string;
  /** Other pages of the same citation, for prev/next (e.g. pp.3-4). */
  pageCount?: number | null;
  /** The quoted passage with its place on the page, when the answer gave one. */
  passage?: Passage;
  /** The number printed on `page` as opened (its PDF page label), when a citation says
   * it: it names that page until the document's own labels are read. */
  label?: string | null;
}

const VIEW_WIDTH = 1000;

let dialog: HTMLDialogElement | null = null;
let current: PageTarget | null = null;
/** What had focus before the viewer opened; it gets it back on close. */
let opener: HTMLElement | null = null;
let token = 0;
/** The page the viewer was opened on, the one its target's `label` is printed on. */
let labelledPage = 0;
/** The printed labels of every page of the document shown, once read, so that Prev and
 * Next name each page as the citation named the first. */
let documentLabels: { docId: number; byPage: Map<number, string> } | null = null;

const els = {
  title: h('h2', { id: 'viewer-title', class: 'viewer-title' }),
  image: h('div', { class: 'viewer-image' }),
  text: h('div', { class: 'viewer-text', tabindex: 0, 'aria-label': 'Page text' }),
  quote: h('p', { class: 'viewer-quote' }),
  prev: h('button', { type: 'button', class: 'secondary', 'aria-label': 'Previous page' }, '‹ Prev'),
  next: h('button', { type: 'button', class: 'secondary', 'aria-label': 'Next page' }, 'Next ›'),
  close: h('button', { type: 'button', class: 'secondary', 'aria-label': 'Close page viewer' }, 'Close ✕'),
  status: h('p', { class: 'viewer-status', role: 'status' }),
};

function ensureDialog(): HTMLDialogElement {
  if (dialog) return dialog;
  els.prev.addEventListener('click', () => step(-1));
  els.next.addEventListener('click', () => step(1));
  els.close.addEventListener('click', () => dialog && closeDialog(dialog));
  dialog = h(
    'dialog',
    { class: 'viewer', 'aria-labelledby': 'viewer-title', 'data-testid': 'page-viewer' },
    h('header', { class: 'viewer-head' }, els.title, h('div', { class: 'viewer-nav' }, els.prev, els.next, els.close)),
    els.quote,
    els.status,
    h('div', { class: 'viewer-body' }, els.image, els.text),
  );
  dialog.addEventListener('close', () => {
    if (opener?.isConnected) opener.focus();
    opener = null;
  });
  dialog.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === 'ArrowLeft' && e.altKey) step(-1);
    if (e.key === 'ArrowRight' && e.altKey) step(1);
  });
  document.body.append(dialog);
  return dialog;
}

function rememberOpener(d: HTMLDialogElement): void {
  const active = document.activeElement;
  if (!d.open && active instanceof HTMLElement && !d.contains(active)) opener = active;
}

function step(delta: number): void {
  if (!current) return;
  const page = current.page + delta;
  const max = current.pageCount ?? state.documents.find((d) => d.id === current?.docId)?.page_count ?? null;
  if (page < 1 || (max !== null && page > max)) return;
  void show({ ...current, page });
}

/** Reads the printed labels of `docId`'s pages and names the page shown by them. */
function loadLabels(docId: number): void {
  // Read again on every opening (a document may have been added again since).
  if (documentLabels?.docId !== docId) documentLabels = null;
  api
    .pageLabels(docId)
    .then((labels) => {
      if (current?.docId !== docId) return;
      documentLabels = { docId, byPage: labelsByPage(labels) };
      showTitle(current);
    })
    .catch(() => {
      // Without them the title keeps the PDF page, and the citation's label on its page.
    });
}

/** The number printed on the target's page: the document's label, else the citation's. */
function labelOf(target: PageTarget): string | null {
  if (documentLabels?.docId === target.docId) return documentLabels.byPage.get(target.page) ?? null;
  return target.page === labelledPage ? (target.label ?? null) : null;
}

/** The target's document name and page count, from the target or the library list. */
function documentOf(target: PageTarget): { name: string; pages: number | null } {
  const doc = state.documents.find((d) => d.id === target.docId);
  return {
    name: target.name ?? (doc ? doc.name : `document ${target.docId}`),
    pages: target.pageCount ?? doc?.page_count ?? null,
  };
}

function showTitle(target: PageTarget): void {
  const { name, pages } = documentOf(target);
  els.title.textContent = `${stem(name)} ${pageInWords(target.page, labelOf(target))}${pages ? ` of ${pages}` : ''}`;
}

/** Opens the viewer on a page. */
export function openPage(target: PageTarget): void {
  labelledPage = target.page;
  loadLabels(target.docId);
  const d = ensureDialog();
  rememberOpener(d);
  openDialog(d);
  void show(target);
  els.close.focus();
}

/** Opens the viewer on a cited page, finding the document by the name the answer used. */
export async function openCitation(citation: Citation, quote: string, passage?: Passage): Promise<void> {
  let doc = documentFor(citation, state.documents);
  if (!doc) {
    try {
      setDocuments(await api.listDocuments());
      doc = documentFor(citation, state.documents);
    } catch {
      // handled below
    }
  }
  if (!doc) {
    const d = ensureDialog();
    rememberOpener(d);
    openDialog(d);
    current = null;
    els.title.textContent = `${citation.document} ${pageInWords(citation.page, citation.page_label)}`;
    els.status.textContent = `There is no document named “${citation.document}” in the library any more.`;
    els.status.classList.add('error');
    replace(els.image);
    replace(els.text);
    els.quote.textContent = '';
    els.close.focus();
    return;
  }
  openPage({
    docId: doc.id,
    page: citation.page,
    name: doc.name,
    quote: passage?.quote ?? quote,
    pageCount: doc.page_count,
    label: citation.page_label,
    ...(passage ? { passage } : {}),
  });
}

/**
 * Draws the pages before and after `page` while the reader reads this one: the image cache
 * keeps them, so Prev and Next show a page at once. One after the other, after this page,
 * so that they never delay the page asked for.
 */
function preloadNeighbours(docId: number, page: number, pages: number | null): void {
  const wanted = [page + 1, page - 1].filter((p) => p >= 1 && (pages === null || p <= pages));
  void wanted.reduce<Promise<unknown>>(
    (previous, p) => previous.then(() => api.pageImage(docId, p, VIEW_WIDTH)).catch(() => undefined),
    Promise.resolve(),
  );
}

async function show(target: PageTarget): Promise<void> {
  current = target;
  const mine = ++token;
  const { name, pages } = documentOf(target);
  showTitle(target);
  els.prev.disabled = target.page <= 1;
  els.next.disabled = pages !== null && target.page >= pages;
  els.quote.textContent = target.quote ? `Cited for: “${target.quote}”` : '';
  els.quote.hidden = !target.quote;
  els.status.classList.remove('error');
  els.status.textContent = 'Loading page…';
  replace(els.image, h('div', { class: 'skeleton page-skeleton', 'aria-hidden': 'true' }));
  replace(els.text);
  const [image, text] = await Promise.allSettled([
    api.pageImage(target.docId, target.page, VIEW_WIDTH),
    api.pageText(target.docId, target.page),
  ]);
  if (mine !== token) return;
  preloadNeighbours(target.docId, target.page, pages);
  const problems: string[] = [];
  if (image.status === 'fulfilled') {
    const img = h('img', { src: image.value, alt: `Page ${target.page} of ${stem(name)}`, width: VIEW_WIDTH, decoding: 'async' });
    // Boxes are drawn for the page they were found on only (prev/next leave them).
    const boxes = target.passage?.page === target.page ? target.passage.boxes : null;
    const marks = boxes
      ? boxStyles(boxes).map((box) =>
          h('div', {
            class: 'passage-box',
            'data-testid': 'passage-box',
            'aria-hidden': 'true',
            style: `left:${box.left};top:${box.top};width:${box.width};height:${box.height}`,
          }),
        )
      : [];
    replace(els.image, h('div', { class: 'page-figure' }, img, ...marks));
    const first = marks[0];
    if (first && typeof first.scrollIntoView === 'function') first.scrollIntoView({ block: 'center' });
  } else {
    replace(els.image, h('p', { class: 'error' }, `The page could not be rendered: ${errorMessage(image.reason)}`));
    problems.push('image');
  }
  if (text.status === 'fulfilled') {
    // Offsets are kept: the passage's marks fall on the same characters either way.
    const pageText = reflow(text.value);
    if (pageText.trim() === '') {
      replace(els.text, h('p', { class: 'muted' }, 'This page has no text layer (a scanned image?).'));
    } else {
      const passage = target.passage;
      const row = passage?.kind === 'row' ? rowRanges(pageText, rowLabel(passage), passage.values) : [];
      const sentence = row.length === 0 && target.quote ? bestSentence(pageText, target.quote) : null;
      const ranges = row.length > 0 ? row : sentence ? [sentence] : [];
      const parts = markRanges(pageText, ranges);
      replace(
        els.text,
        ...parts.map((p) => (p.mark ? h('mark', { class: 'cited', 'data-testid': 'cited-passage' }, p.text) : p.text)),
      );
      if (target.quote && ranges.length === 0) problems.push('no match');
      const mark = els.text.querySelector('mark');
      if (mark && typeof mark.scrollIntoView === 'function') mark.scrollIntoView({ block: 'center' });
    }
  } else {
    replace(els.text, h('p', { class: 'error' }, `The page text could not be read: ${errorMessage(text.reason)}`));
    problems.push('text');
  }
  els.status.textContent = problems.includes('no match')
    ? 'The cited sentence was not found word for word on this page; read the page to check the claim.'
    : '';
}
