// End-to-end: the real PageTree window (the Tauri shell built with the UI embedded),
// driven through tauri-driver + WebKitWebDriver under Xvfb, with real PDFs dropped from
// a real drag source, the real engine, and a real local model (llama-server + SmolLM2).
// run.sh sets the environment up; see ../docs/development.md, "Test".

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { ask, count, dropFiles, go, paintedImages, rows, shot, sleep, testWithScreenshot, closeWindow, openWindow, xdotool } from './window.mjs';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set; run e2e/run.sh`);
  return value;
};

const APP = env('PAGETREE_E2E_APP');
const FILING = env('PAGETREE_E2E_FILING');
const FIXTURE = env('PAGETREE_E2E_FIXTURE');
const CORRUPT = env('PAGETREE_E2E_CORRUPT');
const LONG_FILING = env('PAGETREE_E2E_LONG_FILING');
const DOWNLOADS = env('PAGETREE_E2E_DOWNLOADS');
const DIALOG_PICK = env('PAGETREE_E2E_DIALOG_PICK');
const LLM_URL = env('PAGETREE_E2E_LLM_URL');
const GGUF = env('PAGETREE_E2E_GGUF');
const SHOTS = env('PAGETREE_E2E_SCREENSHOTS');
const DRIVER_PORT = Number(process.env.PAGETREE_E2E_DRIVER_PORT ?? 4444);
// A real Qdrant server for the remote-index test; without one that test is skipped.
const QDRANT_URL = process.env.PAGETREE_E2E_QDRANT_URL ?? '';
const QDRANT_KEY = process.env.PAGETREE_E2E_QDRANT_KEY ?? '';
const FILING_NAME = 'FOOTLOCKER_2022_8K_dated-2022-05-20';
const QUESTION = 'How many votes against did Richard A. Johnson receive as a board nominee?';

/** Generous: debug builds on 2 loaded cores are slow, and waits end as soon as they can. */
const LONG = 240_000;

let browser;
before(async () => {
  browser = await openWindow({ app: APP, port: DRIVER_PORT, shots: SHOTS, long: LONG });
});
after(closeWindow);

const e2eTest = (name, body) => testWithScreenshot(name, body);

async function saveSettings() {
  await (await browser.$('[data-testid="settings-save"]')).click();
  await browser.waitUntil(async () => (await (await browser.$('p.save-result')).getText()).startsWith('Saved'), {
    timeout: 30_000,
    timeoutMsg: 'the settings were not saved',
  });
}

/**
 * Scrolls `el` to the middle of the window and clicks it, again when something moved over
 * it (the chat keeps scrolling while an answer settles; the header stays on top).
 */
async function clickInView(el, what) {
  let cover = '';
  for (let attempt = 0; attempt < 4; attempt += 1) {
    // In the page itself: WebKitWebDriver has no wheel actions for wdio's scrollIntoView.
    await browser.execute((el) => el.scrollIntoView({ block: 'center' }), el);
    await sleep(250);
    try {
      await el.click();
      cover = '';
      break;
    } catch (err) {
      if (!/intercepted/.test(String(err))) throw err;
      cover = await browser.execute((el) => {
        const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return `${top?.tagName}.${top?.className} over ${el.tagName}.${el.className} at ${Math.round(r.x)},${Math.round(r.y)}`;
      }, el);
    }
  }
  if (cover) throw new Error(`the click on ${what} kept being intercepted: ${cover}`);
}

/**
 * The library list's words, from the DOM: WebKitWebDriver's getText leaves out the text
 * of a cell cut with an ellipsis (the names), which a person sees.
 */
const libraryText = () => browser.execute(() => document.querySelector('[data-testid="doc-list"]')?.textContent ?? '');

/** Opens the library row of the document `name` (its details and actions) and returns it. */
async function openRow(name) {
  const row = await browser.$(`//li[contains(@class,"doc")][.//h3[text()="${name}"]]`);
  if ((await row.getAttribute('class')).split(' ').includes('open')) return row;
  await (await row.$('h3')).click();
  await browser.waitUntil(async () => (await row.getAttribute('class')).split(' ').includes('open'), {
    timeout: 10_000,
    timeoutMsg: `the row of ${name} did not open`,
  });
  return row;
}

/** Clicks a citation or page chip and waits for the viewer to show the drawn page. */
async function openPage(link) {
  await clickInView(link, 'the page link');
  const viewer = await browser.$('[data-testid="page-viewer"]');
  await viewer.waitForDisplayed({ timeout: 60_000 });
  await browser.waitUntil(async () => (await paintedImages('[data-testid="page-viewer"]')) === 1, {
    timeout: 60_000,
    timeoutMsg: 'the page was not drawn',
  });
}

/** Closes the page viewer with Escape and waits until it is gone, so that the next
 * screenshot shows the view under it. */
/** Whether the page viewer dialog is open, read from the DOM (WebKitWebDriver's
 * isDisplayed says false for an open modal <dialog>). */
const viewerOpen = () => browser.execute(() => document.querySelector('[data-testid="page-viewer"]')?.open === true);

async function closeViewer() {
  await browser.keys('Escape');
  await browser.waitUntil(async () => !(await viewerOpen()), {
    timeout: 10_000,
    timeoutMsg: 'Escape did not close the page viewer',
  });
}

e2eTest('the window opens on the real (empty) library, not the demo data', async () => {
  await (await browser.$('[data-testid="doc-list"]')).waitForExist({ timeout: 60_000 });
  const badge = await browser.$('[data-testid="demo-badge"]');
  assert.equal(await badge.isDisplayed().catch(() => false), false, 'the demo badge is shown');
  assert.equal(await count('[data-testid="doc-list"] li.doc'), 0);
  await shot('01-library-empty.png');
});

e2eTest('PDFs dropped from the file manager are ingested with progress', async () => {
  await dropFiles([FILING, FIXTURE]);
  await browser.waitUntil(async () => (await rows('ready')).length === 2, {
    timeout: LONG,
    interval: 500,
    timeoutMsg: 'the two dropped PDFs did not become ready',
  });
  const text = await libraryText();
  assert.match(text, new RegExp(FILING_NAME));
  assert.match(text, /\d+ pages/);
  // The card is read from the filing's cover, never from its file name.
  const filingCard = await browser.$(`//li[contains(@class,"doc")][.//h3[text()="${FILING_NAME}"]]//*[@data-testid="doc-card"]`);
  assert.match(await filingCard.getText(), /8-K current report/);
  await shot('02-library-ingested.png');
});

e2eTest('a corrupt PDF dropped on the window shows its error and the library keeps working', async () => {
  await dropFiles([CORRUPT]);
  await browser.waitUntil(async () => (await rows('failed')).length === 1, {
    timeout: LONG,
    interval: 500,
    timeoutMsg: 'the corrupt PDF was not reported as failed',
  });
  const failed = await (await rows('failed'))[0].getText();
  assert.match(failed, /damaged or truncated/);
  assert.equal((await rows('ready')).length, 2);
  await shot('03-library-corrupt-pdf.png');
});

e2eTest('Settings after the first ingest shows the model the library chose, and Save unchanged re-embeds nothing', async () => {
  await go('settings');
  const libraryModel = await browser.$('[data-testid="library-model"]');
  // The first document was in English, so the library took e5 and MiniLM together.
  await browser.waitUntil(async () => /multilingual-e5-small \+ all-MiniLM-L6-v2/.test(await libraryModel.getText()), {
    timeout: 10_000,
    timeoutMsg: 'Settings does not show the model the first ingest chose',
  });
  assert.equal(await (await browser.$('[data-testid="dense-model"]')).getValue(), 'e5-small+minilm');
  await saveSettings();
  const confirmOpen = await browser.execute(() => document.querySelector('dialog.confirm') !== null);
  assert.equal(confirmOpen, false, 'saving unchanged settings asked to re-embed');
  assert.doesNotMatch(await (await browser.$('p.save-result')).getText(), /Re-embedding/);
  assert.match(await libraryModel.getText(), /multilingual-e5-small \+ all-MiniLM-L6-v2/);
  await go('library');
});

e2eTest('the tree of a filing opens with its sections and page thumbnails', async () => {
  const filingRow = await openRow(FILING_NAME);
  await (await filingRow.$('button=Show tree')).click();
  await browser.waitUntil(async () => (await browser.getUrl()).endsWith('#tree'), { timeout: 10_000 });
  const tree = await browser.$('[data-testid="tree"]');
  await tree.waitForExist({ timeout: 30_000 });
  await browser.waitUntil(async () => (await count('[data-testid="tree"] [role="treeitem"]')) > 1, {
    timeout: 30_000,
    timeoutMsg: 'the tree has no nodes',
  });
  await browser.waitUntil(async () => (await paintedImages('[data-testid="tree"]')) >= 3, {
    timeout: 60_000,
    timeoutMsg: 'the page thumbnails were not drawn',
  });
  await (await browser.$('button[aria-label="Zoom in"]')).click();
  const zoom = await browser.$('[data-testid="tree-zoom"]');
  await browser.waitUntil(async () => (await zoom.getText()) === '125%', { timeout: 5_000, timeoutMsg: 'the tree did not zoom' });
  await shot('04-tree.png');
});

e2eTest('a comparison runs the strategies side by side on the real engine', async () => {
  await go('compare');
  const question = await browser.$('[data-testid="compare-question"]');
  await question.setValue(QUESTION);
  await (await browser.$('[data-testid="compare-run"]')).click();
  for (const name of ['flat', 'branch', 'beam', 'knee', 'sensitive-knee', 'largest-gap', 'collapsed-tree']) {
    const column = await browser.$(`[data-testid="col-${name}"]`);
    await column.waitForExist({ timeout: LONG, timeoutMsg: `no ${name} column` });
  }
  await browser.waitUntil(async () => /page|p\.\s?\d/i.test(await (await browser.$('[data-testid="col-knee"]')).getText()), {
    timeout: 30_000,
    timeoutMsg: 'the knee column shows no pages',
  });
  // The view scrolls to the results by itself, smoothly; the picture waits for none of that.
  await browser.execute(() => document.querySelector('[data-testid="compare-columns"]').scrollIntoView({ block: 'start' }));
  await sleep(300);
  await shot('05-compare.png');
});

e2eTest('the trace view draws where knee and flat went in the filing, and where they agree', async () => {
  const tree = await browser.$('[data-testid="trace-tree"] svg.trace-tree');
  await tree.waitForExist({ timeout: 30_000, timeoutMsg: 'no trace tree' });
  assert.equal(await (await browser.$('[data-testid="trace-primary"]')).getValue(), 'knee');
  assert.equal(await (await browser.$('[data-testid="trace-overlay"]')).getValue(), 'flat');
  assert.match(await tree.getText(), new RegExp(`${FILING_NAME} · \\d+ pages`));
  // At the last step both strategies' chosen pages are drawn, each in its own column.
  const steps = Number(await (await browser.$('[data-testid="trace-step"]')).getAttribute('max'));
  assert.ok(steps > 1, `knee took ${steps} steps`);
  await browser.execute((n) => {
    const slider = document.querySelector('[data-testid="trace-step"]');
    slider.value = String(n);
    slider.dispatchEvent(new Event('input'));
  }, steps);
  const columns = await browser.execute(() =>
    new Set([...document.querySelectorAll('[data-testid="trace-tree"] .mark.selected rect')].map((r) => r.getAttribute('x'))).size,
  );
  assert.equal(columns, 2, 'knee and flat each chose pages');
  assert.match(await (await browser.$('[data-testid="trace-step-label"]')).getText(), new RegExp(`^${steps} of ${steps}`));
  // The page flat ranks first holds the answer: say so, and see who found it.
  const flatFirst = await (await browser.$('[data-testid="col-flat"] .page-chip')).getText();
  const page = Number(/p\.(\d+)$/.exec(flatFirst)?.[1]);
  const gold = await browser.$('[data-testid="compare-gold"]');
  await gold.setValue(`${FILING_NAME} p. ${page}`);
  const flatRow = await browser.$('[data-testid="difference-gold"] tr[data-strategy="flat"] td');
  await flatRow.waitForExist({ timeout: 10_000, timeoutMsg: 'no table of who found the answer' });
  assert.equal(await flatRow.getText(), 'found 1 of 1');
  assert.match(await (await browser.$('[data-testid="difference-everyone"]')).getText(), /^Every strategy: /);
  // The table goes to the Downloads folder as Markdown.
  await clickInView(await browser.$('[data-testid="compare-export-md"]'), 'Export Markdown');
  const saved = await browser.$('[data-testid="compare-difference"] .saved');
  await saved.waitForExist({ timeout: 30_000, timeoutMsg: 'the comparison was not saved' });
  const savedText = await saved.getText();
  assert.ok(savedText.startsWith(`Saved to ${DOWNLOADS}/pagetree-comparison-`), savedText);
  const markdown = readFileSync(savedText.slice('Saved to '.length), 'utf8');
  assert.match(markdown, /\| flat \| .* \| yes \(/);
  await browser.execute(() => document.querySelector('[data-testid="trace-view"]').scrollIntoView({ block: 'start' }));
  await sleep(300);
  await shot('05b-compare-trace.png');
});

e2eTest('settings take a real local model and its connection test passes', async () => {
  await go('settings');
  const url = await browser.$('#set-llm-url');
  await url.waitForExist({ timeout: 10_000 });
  assert.equal(await (await browser.$('[data-testid="llm-deadline"]')).getValue(), '300');
  // A key bound for another machine over plain http is named beside the URL, in words.
  const key = await browser.$('[data-testid="llm-key"]');
  const warning = await browser.$('[data-testid="llm-key-warning"]');
  await url.setValue('http://llm.example:8080/v1');
  await key.setValue('sk-not-a-real-key');
  await warning.waitForDisplayed({ timeout: 10_000, timeoutMsg: 'no warning about the key in clear' });
  assert.match(await warning.getText(), /API key goes to http:\/\/llm\.example:8080\/v1 over plain http:\/\//);
  await key.clearValue();
  await url.setValue(LLM_URL);
  await warning.waitForDisplayed({ reverse: true, timeout: 10_000, timeoutMsg: 'the warning stayed for a local server' });
  await (await browser.$('#set-llm-model')).setValue('smollm2');
  await clickInView(await browser.$('button=Test connection'), 'Test connection');
  const result = await browser.$('p.test-result');
  await browser.waitUntil(async () => (await result.getText()).startsWith('✓'), {
    timeout: 30_000,
    timeoutMsg: 'the connection test did not pass',
  });
  await saveSettings();
  await shot('06-settings.png');
});

e2eTest('a question is answered by the local model, with its pages one click away', async () => {
  const answer = await ask(QUESTION);
  const text = await answer.getText();
  assert.ok(text.trim().length > 0, 'the answer is empty');
  assert.doesNotMatch(text, /No language model is configured/);
  // A 135M-parameter model does not always cite; the context's pages are always there,
  // under "Strategy and settings".
  let link = await answer.$('[data-testid="citation"]');
  if (!(await link.isExisting())) {
    await (await answer.$('details.settings-used summary')).click();
    link = await answer.$('details.settings-used .chips button');
  }
  await openPage(link);
  // From the DOM: WebKitWebDriver reads no text out of an open modal dialog.
  const viewerText = await browser.execute(() => document.querySelector('[data-testid="page-viewer"]')?.textContent ?? '');
  assert.doesNotMatch(viewerText, /Loading page/);
  assert.match(viewerText, new RegExp(`${FILING_NAME} p\\.\\d+ of \\d+`));
  await shot('07-ask-local-model.png');
  await closeViewer();
});

e2eTest('without a model, the answer quotes its pages and a citation opens the cited passage', async () => {
  await go('settings');
  const url = await browser.$('#set-llm-url');
  await url.clearValue();
  await (await browser.$('#set-llm-model')).clearValue();
  await saveSettings();
  await go('ask');
  await (await browser.$('button=New conversation')).click();
  const answer = await ask(QUESTION);
  assert.match(await answer.getText(), /No language model is configured/);
  const citation = await answer.$('[data-testid="citation"]');
  await citation.waitForExist({ timeout: 10_000, timeoutMsg: 'the extractive answer has no citation' });
  assert.match(await citation.getText(), new RegExp(`${FILING_NAME} p\\.\\d+`));
  await openPage(citation);
  await (await browser.$('[data-testid="cited-passage"]')).waitForExist({
    timeout: 10_000,
    timeoutMsg: 'the cited passage is not highlighted',
  });
  await shot('08-cited-page.png');
  await closeViewer();
});

e2eTest('history finds the question and shows its runs', async () => {
  await go('history');
  const search = await browser.$('[data-testid="history-search"]');
  await search.setValue('Richard A. Johnson');
  // textContent, not getText: WebKitWebDriver reads no rendered text out of <summary>.
  const listText = () =>
    browser.execute(() => document.querySelector('[data-testid="history-list"]')?.textContent ?? '');
  await browser.waitUntil(async () => (await listText()).includes('Richard A. Johnson'), {
    timeout: 30_000,
    timeoutMsg: 'the question is not in history',
  });
  const text = await listText();
  assert.match(text, /ask/i);
  assert.match(text, /compare/i);
  // A comparison is one row that opens to its strategies.
  const strategiesOfComparisons = await browser.execute(() =>
    [...document.querySelectorAll('[data-testid="history-list"] > li > [data-testid="history-comparison"]')].map(
      (c) => c.querySelectorAll('.comparison-runs > li').length,
    ),
  );
  assert.ok(strategiesOfComparisons.length >= 1 && strategiesOfComparisons.every((n) => n >= 2), JSON.stringify(strategiesOfComparisons));
  await (await browser.$('[data-testid="history-export-md"]')).click();
  const saved = await browser.$('[data-view="history"] .saved');
  await saved.waitForExist({ timeout: 30_000, timeoutMsg: 'the export was not saved' });
  const savedText = await saved.getText();
  assert.ok(savedText.startsWith(`Saved to ${DOWNLOADS}/pagetree-history-`), savedText);
  const markdown = readFileSync(savedText.slice('Saved to '.length), 'utf8');
  assert.match(markdown, /Richard A\. Johnson/);
  assert.equal(await viewerOpen(), false, 'a dialog covers History');
  await shot('09-history.png');
});

/** The names of the library rows the filter shows. */
const shownNames = () =>
  browser.execute(() =>
    [...document.querySelectorAll('[data-testid="doc-list"] li.doc:not([hidden]) .doc-name')].map((e) => e.textContent),
  );

e2eTest('the library filter narrows the list, and Ask searches only the selected document', async () => {
  await go('library');
  const filter = await browser.$('[data-testid="library-filter"]');
  // "8-K" is in the filing's card, not in its name: the filter reads both.
  await filter.setValue('footlocker 8-K');
  await browser.waitUntil(async () => {
    const names = await shownNames();
    return names.length === 1 && names[0] === FILING_NAME;
  }, { timeout: 10_000, timeoutMsg: 'the filter did not narrow the list to the filing' });
  assert.match(await (await browser.$('[data-testid="library-count"]')).getText(), /^1 of \d+ documents$/);
  await (await browser.$('[data-testid="doc-list"] li.doc:not([hidden]) input.doc-select')).click();
  const selection = await browser.$('[data-testid="library-selection"]');
  await browser.waitUntil(async () => (await selection.getText()) === '1 selected', {
    timeout: 5_000,
    timeoutMsg: 'the filing was not selected',
  });
  await shot('10-library-filtered.png');

  await (await browser.$('[data-testid="library-search-only"]')).click();
  await browser.waitUntil(async () => (await browser.getUrl()).endsWith('#ask'), { timeout: 10_000 });
  const scope = await browser.$('[data-testid="ask-scope"]');
  await scope.waitForDisplayed({ timeout: 5_000, timeoutMsg: 'Ask does not say it searches only the filing' });
  assert.equal(await scope.getText(), `Searching only: ${FILING_NAME} (clear)`);
  await (await browser.$('button=New conversation')).click();
  const answer = await ask(QUESTION);
  const sources = await answer.$('[data-testid="answer-sources"]');
  await sources.waitForExist({ timeout: 10_000, timeoutMsg: 'the answer does not say where its pages came from' });
  const from = await sources.getText();
  assert.match(from, new RegExp(`^From the document ${FILING_NAME} \\(\\d+ pages?\\) · searched only the 1 chosen$`));
  assert.doesNotMatch(from, /multipage/);
  await shot('11-ask-search-only.png');

  // Back to the whole library, for the tests after this one.
  await (await browser.$('[data-testid="ask-scope-clear"]')).click();
  await scope.waitForDisplayed({ reverse: true, timeout: 5_000, timeoutMsg: 'the scope was not cleared' });
  await go('library');
  await (await browser.$('[data-testid="library-clear-selection"]')).click();
  await filter.clearValue();
  await browser.waitUntil(async () => (await shownNames()).length >= 2, {
    timeout: 10_000,
    timeoutMsg: 'clearing the filter did not bring the documents back',
  });
});

e2eTest('a document removed from the library is gone, and the rest stays searchable', async () => {
  await go('library');
  const fixtureRow = await openRow('multipage');
  await (await fixtureRow.$('button=Remove…')).click();
  const confirm = await browser.$('dialog[open] button.danger');
  await confirm.waitForDisplayed({ timeout: 10_000 });
  await confirm.click();
  await browser.waitUntil(async () => (await rows('ready')).length === 1, {
    timeout: 30_000,
    timeoutMsg: 'the removed document is still listed',
  });
  await go('compare');
  const flatColumn = async () => (await browser.$('[data-testid="col-flat"]')).getText().catch(() => '');
  const earlier = await flatColumn();
  const question = await browser.$('[data-testid="compare-question"]');
  await question.setValue('Who was designated audit committee financial expert?');
  await (await browser.$('[data-testid="compare-run"]')).click();
  await browser.waitUntil(async () => {
    const text = await flatColumn();
    return text !== earlier && /FOOTLOCKER/.test(text);
  }, { timeout: LONG, timeoutMsg: 'the comparison after removal did not run' });
  const flat = await (await browser.$('[data-testid="col-flat"]')).getText();
  assert.doesNotMatch(flat, /multipage p\./);
  await shot('12-after-removal.png');
});

e2eTest('a long ingestion can be cancelled from its progress bar, and leaves nothing behind', async () => {
  await go('library');
  const readyBefore = (await rows('ready')).length;
  await dropFiles([LONG_FILING]);
  const ingesting = await browser.$('[data-testid="doc-list"] li.doc[data-status="ingesting"]');
  await ingesting.waitForExist({ timeout: 60_000, timeoutMsg: 'the long filing never showed progress' });
  await browser.waitUntil(async () => (await ingesting.$('progress').isDisplayed().catch(() => false)), {
    timeout: 60_000,
    timeoutMsg: 'no progress bar',
  });
  await shot('13-library-ingesting.png');
  await (await ingesting.$('button=Cancel')).click();
  await browser.waitUntil(async () => (await rows('ingesting')).length === 0, {
    timeout: LONG,
    timeoutMsg: 'the ingestion did not stop',
  });
  const listText = await libraryText();
  assert.match(listText, /cancelled/);
  assert.equal((await rows('ready')).length, readyBefore);
});

e2eTest('"Add PDFs…" opens the system file dialog and adds the chosen file', async () => {
  await go('library');
  const readyBefore = (await rows('ready')).length;
  await (await browser.$('[data-testid="add-pdfs"]')).click();
  // The GTK file chooser is a native window: type the path into it as a person would.
  const dialog = xdotool('search', '--sync', '--onlyvisible', '--name', '^Add PDFs to the library$').split('\n')[0];
  // No window manager under Xvfb: focus the dialog directly.
  xdotool('windowfocus', '--sync', dialog);
  xdotool('key', '--window', dialog, 'ctrl+l');
  await sleep(300);
  xdotool('type', '--window', dialog, '--delay', '20', DIALOG_PICK);
  await sleep(300);
  xdotool('key', '--window', dialog, 'Return');
  await browser.waitUntil(async () => (await rows('ready')).length === readyBefore + 1, {
    timeout: LONG,
    interval: 500,
    timeoutMsg: 'the file picked in the dialog was not added',
  });
  const listText = await libraryText();
  assert.match(listText, /with-empty-page/);
  await shot('14-library-picked.png');
});

// The outline of with-outline.pdf, chapters and their sections in page order, as
// scripts/make-fixtures.py writes it (tests/document_structure.rs checks the engine).
const OUTLINE = ['1 Getting started', '2 Installing the pump', '2.1 Mounting bracket', '2.2 Wiring the motor', '3 Maintenance'];

/** The titles of the tree's sections shown (rows with children below the root), in order. */
const sectionTitles = () =>
  browser.execute(() =>
    [...document.querySelectorAll('[data-testid="tree"] li[role="treeitem"][aria-expanded]:not([aria-level="1"])')].map(
      (li) => li.querySelector('.node-head')?.firstElementChild?.textContent ?? '',
    ),
  );

/** Opens the tree of the library's document `name` from its row and waits for its rows. */
async function showTree(name) {
  await go('library');
  const row = await openRow(name);
  await (await row.$('button=Show tree')).click();
  await browser.waitUntil(async () => (await browser.getUrl()).endsWith('#tree'), { timeout: 10_000 });
  await browser.waitUntil(
    async () => (await browser.execute(() => document.querySelector('[data-testid="tree-doc"] option:checked')?.textContent ?? '')).startsWith(`${name} (`),
    { timeout: 30_000, timeoutMsg: `the tree of ${name} was not chosen` },
  );
  await browser.waitUntil(async () => (await count('[data-testid="tree"] [role="treeitem"]')) > 1, {
    timeout: 30_000,
    timeoutMsg: `the tree of ${name} has no nodes`,
  });
}

e2eTest('the tree of a manual with an outline shows its chapters and sections by their titles', async () => {
  await go('library');
  const readyBefore = (await rows('ready')).length;
  await dropFiles([join(dirname(FIXTURE), 'with-outline.pdf'), join(dirname(FIXTURE), 'page-labels.pdf')]);
  await browser.waitUntil(async () => (await rows('ready')).length === readyBefore + 2, {
    timeout: LONG,
    interval: 500,
    timeoutMsg: 'with-outline.pdf and page-labels.pdf did not become ready',
  });
  await showTree('with-outline');
  // Back to 100% (the tree of the filing was zoomed in), so that every section fits.
  await (await browser.$('[data-testid="tree-zoom"]')).click();
  // The root reads as the manual (its card's title); it opens on the three chapters.
  const rootTitle = () => browser.execute(() => document.querySelector('[data-testid="tree"] li[aria-level="1"] .node-title')?.textContent ?? '');
  await browser.waitUntil(async () => (await sectionTitles()).length === 3, {
    timeout: 10_000,
    timeoutMsg: 'the root does not show three chapters',
  });
  assert.equal(await rootTitle(), 'Pump installation manual');
  assert.deepEqual(await sectionTitles(), OUTLINE.filter((title) => !title.includes('.')));
  // Chapter 2 opens on its two sections; each section reads as its title first.
  await clickInView(await browser.$('//*[@data-testid="tree"]//span[@class="node-title"][text()="2 Installing the pump"]'), 'chapter 2');
  await browser.waitUntil(async () => (await sectionTitles()).length === OUTLINE.length, {
    timeout: 10_000,
    timeoutMsg: 'chapter 2 did not open on its sections',
  });
  assert.deepEqual(await sectionTitles(), OUTLINE);
  // The picture shows the five sections, from chapter 1 down.
  await browser.execute(() => document.querySelector('[data-testid="tree"] li[aria-level="2"]').scrollIntoView({ block: 'start' }));
  await sleep(300);
  await shot('04b-tree-sections.png');
});

e2eTest('the page viewer names every page of a labelled PDF by its printed number, Next and Prev too', async () => {
  // page-labels.pdf prints i, ii on its first two pages, then 1 to 4.
  await showTree('page-labels');
  await (await browser.$('button=Expand all')).click();
  const title = () => browser.execute(() => document.querySelector('#viewer-title')?.textContent ?? '');
  await openPage(await browser.$('[data-testid="tree"] button[aria-label="Open page 3"]'));
  await browser.waitUntil(async () => (await title()) === 'page-labels p. 1 · PDF page 3 of 6', {
    timeout: 10_000,
    timeoutMsg: 'the viewer does not name page 3 by its label',
  });
  await browser.execute(() => document.querySelector('[aria-label="Next page"]').click());
  await browser.waitUntil(async () => (await title()) === 'page-labels p. 2 · PDF page 4 of 6', {
    timeout: 30_000,
    timeoutMsg: 'Next does not name page 4 by its label',
  });
  await browser.execute(() => {
    const previous = document.querySelector('[aria-label="Previous page"]');
    previous.click();
    previous.click();
  });
  await browser.waitUntil(async () => (await title()) === 'page-labels p. ii · PDF page 2 of 6', {
    timeout: 30_000,
    timeoutMsg: 'Prev does not name page 2 by its label',
  });
  await browser.waitUntil(
    async () =>
      (await paintedImages('[data-testid="page-viewer"]')) === 1 &&
      (await browser.execute(() => document.querySelector('.viewer-status')?.textContent ?? '')) === '',
    { timeout: 60_000, timeoutMsg: 'page 2 was not drawn' },
  );
  await shot('04c-viewer-page-labels.png');
  await closeViewer();
});

const remoteTest = QDRANT_URL
  ? e2eTest
  : (name) => test(name, { skip: 'set PAGETREE_TEST_QDRANT_URL to a Qdrant server to run it' }, () => {});

/** Clicks an element after scrolling it to the middle, clear of the sticky save bar. */
/**
 * Clicks what `selector` finds, found again when the view drew it anew meanwhile (the
 * list of local servers is redrawn when a look for them ends); `screenshot` is taken
 * just before the click.
 */
async function clickFresh(selector, what, screenshot) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const element = await browser.$(selector);
      await browser.execute((el) => el.scrollIntoView({ block: 'center' }), element);
      if (screenshot) await shot(screenshot);
      await clickInView(element, what);
      return;
    } catch (err) {
      if (attempt >= 4 || !/stale element|was not found/i.test(String(err))) throw err;
      await sleep(500);
    }
  }
}

async function clickCentred(selector) {
  const element = await browser.$(selector);
  await browser.execute((el) => el.scrollIntoView({ block: 'center' }), element);
  await element.click();
}

remoteTest('settings move the library to a remote Qdrant and back, and search keeps working', async () => {
  await go('settings');
  await clickCentred('#qdrant-remote');
  await (await browser.$('#set-qdrant-url')).setValue(QDRANT_URL);
  if (QDRANT_KEY) await (await browser.$('#set-qdrant-key')).setValue(QDRANT_KEY);
  await saveSettings();
  assert.equal(await (await browser.$('#qdrant-remote')).isSelected(), true);
  await shot('15-settings-remote-qdrant.png');

  await go('compare');
  const flatColumn = async () => (await browser.$('[data-testid="col-flat"]')).getText().catch(() => '');
  const earlier = await flatColumn();
  await (await browser.$('[data-testid="compare-question"]')).setValue('Who is the new CEO of Foot Locker?');
  await (await browser.$('[data-testid="compare-run"]')).click();
  await browser.waitUntil(async () => {
    const text = await flatColumn();
    return text !== earlier && /FOOTLOCKER/.test(text);
  }, { timeout: LONG, timeoutMsg: 'the comparison on the remote index did not run' });

  await go('settings');
  await clickCentred('#qdrant-embedded');
  await saveSettings();
  assert.equal(await (await browser.$('#qdrant-embedded')).isSelected(), true);
});

// Small filings of the dev bench (8-Ks and earnings releases) and small test PDFs,
// dropped as one folder with a PDF that cannot be read (encrypted).
const MORE_FIXTURES = ['headings-only', 'mixed', 'slides'];
const MORE_FILINGS = [
  'FOOTLOCKER_2022_8K_dated_2023-02-21',
  'FOOTLOCKER_2022_8K_dated_2022-08-19',
  'MGMRESORTS_2023_8K_dated-2023-09-12',
  'MGMRESORTS_2023_8K_dated-2023-03-01',
  'AMCOR_2022_8K_dated-2022-07-01',
  'AMCOR_2023Q4_EARNINGS',
  'PFIZER_2023Q2_EARNINGS',
];

e2eTest('a folder of filings joins the library, which filters and sorts them', async () => {
  await go('library');
  const before = (await rows('ready')).length;
  const listed = await count('[data-testid="doc-list"] li.doc');
  const folder = mkdtempSync(join(tmpdir(), 'pagetree-e2e-folder-'));
  for (const name of MORE_FILINGS) symlinkSync(join(dirname(FILING), `${name}.pdf`), join(folder, `${name}.pdf`));
  for (const name of [...MORE_FIXTURES, 'encrypted']) {
    symlinkSync(join(dirname(FIXTURE), `${name}.pdf`), join(folder, `${name}.pdf`));
  }
  const adding = MORE_FILINGS.length + MORE_FIXTURES.length;
  await dropFiles([folder]);
  // Mid-batch: the status counts files and pages, and the files not started are listed.
  const status = await browser.$('[data-testid="ingest-status"]');
  const counting = new RegExp(`^Adding \\d+ of ${adding + 1} files · \\d+ of \\d+ pages · `);
  await browser.waitUntil(async () => counting.test(await status.getText()) && (await rows('waiting')).length > 0, {
    timeout: LONG,
    interval: 200,
    timeoutMsg: 'the batch was not counted in files and pages with its queued files listed',
  });
  await shot('16-library-ingesting-batch.png');
  await browser.waitUntil(async () => (await rows('ready')).length === before + adding, {
    // Ten PDFs, 116 pages, on a debug build.
    timeout: 2 * LONG,
    interval: 1_000,
    timeoutMsg: `the ${adding} PDFs of the dropped folder did not become ready`,
  });
  // At the end, what the batch came to, naming the file that was not added and why.
  const outcome = await browser.$('[data-testid="ingest-outcome"]');
  await browser.waitUntil(async () => new RegExp(`^${adding} added, 1 could not be added: .*encrypted`).test(await outcome.getText()), {
    timeout: 30_000,
    timeoutMsg: 'no summary of the batch at its end',
  });
  // A library that fits: twelve rows and more on the screen at once, one line each.
  const visible = await browser.execute(() =>
    [...document.querySelectorAll('[data-testid="doc-list"] li.doc')].filter((li) => {
      const r = li.getBoundingClientRect();
      return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
    }).length,
  );
  assert.ok(visible >= 12, `only ${visible} documents fit on the screen`);
  const words = await libraryText();
  assert.doesNotMatch(words, /\d+ nodes|described (extractive|llm)|`pagetree |⚠/);
  await shot('17-library-many.png');
  const counted = /^(\d+) documents$/.exec(await (await browser.$('[data-testid="library-count"]')).getText());
  const total = Number(counted?.[1] ?? 0);
  assert.ok(total >= listed + adding, `the library counts ${total} documents`);
  const filter = await browser.$('[data-testid="library-filter"]');
  // The organisation is read from the filings' cover pages, and "8-K" from their kind.
  await filter.setValue('mgm 8-K');
  await browser.waitUntil(async () => (await shownNames()).length === 2, {
    timeout: 10_000,
    timeoutMsg: 'the filter did not narrow the list to the two MGM 8-Ks',
  });
  assert.deepEqual(
    (await shownNames()).sort(),
    MORE_FILINGS.filter((n) => n.startsWith('MGM')).sort(),
  );
  assert.equal(await (await browser.$('[data-testid="library-count"]')).getText(), `2 of ${total} documents`);
  await filter.clearValue();
  await filter.setValue('2023');
  await browser.waitUntil(async () => (await shownNames()).length >= 4, {
    timeout: 10_000,
    timeoutMsg: 'the filter did not find the 2023 filings',
  });
  await (await browser.$('[data-testid="library-sort"]')).selectByAttribute('value', 'pages');
  await browser.waitUntil(async () => {
    const pages = await browser.execute(() =>
      [...document.querySelectorAll('[data-testid="doc-list"] li.doc:not([hidden])')].map((li) =>
        Number(/(\d+) pages?/.exec(li.querySelector('.doc-pages')?.textContent ?? '')?.[1] ?? -1),
      ),
    );
    return pages.length >= 4 && pages.every((p, i) => i === 0 || pages[i - 1] >= p);
  }, { timeout: 10_000, timeoutMsg: 'the list is not sorted by pages, most first' });
  await shot('18-library-many-filtered.png');
  await filter.clearValue();
  assert.equal(basename(folder).startsWith('pagetree-e2e-folder-'), true);
});

const REVENUE_QUESTION = "What was the company's total revenue in fiscal 2023?";

/** The quotes of an extractive answer, in order: its `- "quote" [DOC p.N]` lines. */
const quotesOf = (text) => [...text.matchAll(/^- "(.*)" \[(\S+) (.+)\]$/gm)].map((m) => ({ quote: m[1], document: m[2], page: m[3] }));

e2eTest('without a model, a revenue question quotes the net sales row with its headers, boxed on the page', async () => {
  // No model since "without a model, …" cleared it: the answer is the extractive one.
  await go('settings');
  const url = await browser.$('#set-llm-url');
  const model = await browser.$('#set-llm-model');
  if ((await url.getValue()) !== '' || (await model.getValue()) !== '') {
    await url.clearValue();
    await model.clearValue();
    await saveSettings();
  }
  await go('ask');
  await (await browser.$('button=New conversation')).click();
  const answer = await ask(REVENUE_QUESTION);
  const text = await browser.execute((el) => el.querySelector('.answer-text')?.textContent ?? '', answer);
  assert.match(text, /^No language model is configured/);
  const quotes = quotesOf(text);
  assert.ok(quotes.length > 0, `the answer quotes no passage:\n${text}`);
  // The first quote is Amcor's fiscal 2023 net sales, the figure with its column
  // headers (the year or "$ million", or the row's "Total:"), not a bare number.
  const [first] = quotes;
  assert.equal(first.document, 'AMCOR_2023Q4_EARNINGS', `the first quote is not Amcor's earnings release:\n${text}`);
  assert.match(first.quote, /net sales|revenue/i, `the first quote is not a revenue line:\n${text}`);
  assert.match(first.quote, /14,694/, `the first quote does not give the fiscal 2023 figure:\n${text}`);
  assert.match(first.quote, /2023|\$ million|Total:/, `the first quote has no column header:\n${text}`);
  await browser.execute((el) => el.scrollIntoView({ block: 'start' }), answer);
  await shot('21-ask-revenue-answer.png');

  const citation = await answer.$('[data-testid="citation"]');
  assert.equal(await citation.getText(), `${first.document} ${first.page}`);
  await openPage(citation);
  // From the DOM: WebKitWebDriver reads no text out of an open modal dialog.
  const viewerText = await browser.execute(() => document.querySelector('[data-testid="page-viewer"]')?.textContent ?? '');
  assert.match(viewerText, /AMCOR_2023Q4_EARNINGS p\. ?\d+/);
  // The passage's boxes are drawn over the page image, inside it and not empty.
  await browser.waitUntil(async () => (await count('[data-testid="page-viewer"] [data-testid="passage-box"]')) > 0, {
    timeout: 10_000,
    timeoutMsg: 'no box of the passage is drawn on the page',
  });
  const boxes = await browser.execute(() => {
    const img = document.querySelector('[data-testid="page-viewer"] .page-figure img');
    const page = img?.getBoundingClientRect();
    return [...document.querySelectorAll('[data-testid="page-viewer"] [data-testid="passage-box"]')].map((box) => {
      const r = box.getBoundingClientRect();
      const inside = page !== undefined && r.left >= page.left - 1 && r.right <= page.right + 1 && r.top >= page.top - 1 && r.bottom <= page.bottom + 1;
      return { width: r.width, height: r.height, inside };
    });
  });
  assert.ok(boxes.length >= 1, 'no box of the passage is drawn');
  for (const box of boxes) {
    assert.ok(box.width > 2 && box.height > 2 && box.inside, `a box is empty or off the page: ${JSON.stringify(box)}`);
  }
  // The text pane marks the row, its label and its figures, and nothing else.
  const marked = await browser.execute(() =>
    [...document.querySelectorAll('[data-testid="page-viewer"] [data-testid="cited-passage"]')].map((m) => m.textContent ?? ''),
  );
  assert.ok(marked.some((m) => /net sales|revenue/i.test(m)), `the row's label is not marked: ${JSON.stringify(marked)}`);
  assert.ok(marked.some((m) => m.includes('14,694')), `the fiscal 2023 figure is not marked: ${JSON.stringify(marked)}`);
  assert.ok(marked.every((m) => m.length < 200), `more than the row is marked: ${JSON.stringify(marked)}`);
  await shot('22-revenue-passage-boxed.png');
  await closeViewer();
});

/** Whether process `pid` still runs (a zombie waiting for its parent to read it has ended). */
function running(pid) {
  if (!existsSync(`/proc/${pid}`)) return false;
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Asks a question in a new conversation and checks that a model wrote the answer. */
async function askForAWrittenAnswer() {
  await go('ask');
  await (await browser.$('button=New conversation')).click();
  const answer = await ask(QUESTION);
  const text = await answer.getText();
  assert.ok(text.trim().length > 0, 'the answer is empty');
  assert.doesNotMatch(text, /No language model is configured/);
  assert.doesNotMatch(text, /could not be answered|cannot be reached|did not answer/);
  return answer;
}

e2eTest('Settings lists the llama-server running on this computer, and one click answers with it', async () => {
  await go('settings');
  const use = await browser.$('[data-testid="use-local-model"][data-model="smollm2"]');
  await use.waitForExist({ timeout: 30_000, timeoutMsg: 'the running llama-server is not listed' });
  assert.equal(await use.getAttribute('data-url'), LLM_URL);
  assert.match(await (await browser.$('[data-testid="local-servers"]')).getText(), /llama\.cpp server at http:\/\/127\.0\.0\.1:\d+\/v1/);
  await clickFresh('[data-testid="use-local-model"][data-model="smollm2"]', 'Use smollm2', '17-settings-local-servers.png');
  await browser.waitUntil(async () => (await (await browser.$('p.save-result')).getText()).startsWith('Saved'), {
    timeout: 30_000,
    timeoutMsg: 'choosing the server did not save it',
  });
  assert.equal(await (await browser.$('#set-llm-url')).getValue(), LLM_URL);
  assert.equal(await (await browser.$('#set-llm-model')).getValue(), 'smollm2');
  // Nine filings' pages would overflow its 4,096 tokens: they are cut to fit the window
  // it reports.
  await askForAWrittenAnswer();
  await shot('18-ask-detected-server.png');
});

e2eTest('"Use a model file…" serves the SmolLM2 file, answers with it, and its server ends with the window', async () => {
  await go('settings');
  // A smaller context than the window allows, so that the answer takes a minute or two
  // on two busy cores.
  const budget = await browser.$('#set-budget');
  await browser.execute((el) => el.scrollIntoView({ block: 'center' }), budget);
  await budget.setValue('1200');
  await saveSettings();
  await clickCentred('[data-testid="use-model-file"]');
  const dialog = xdotool('search', '--sync', '--onlyvisible', '--name', '^Use a model file$').split('\n')[0];
  xdotool('windowfocus', '--sync', dialog);
  xdotool('key', '--window', dialog, 'ctrl+l');
  await sleep(300);
  xdotool('type', '--window', dialog, '--delay', '20', GGUF);
  await sleep(300);
  xdotool('key', '--window', dialog, 'Return');
  const status = await browser.$('[data-testid="model-file-status"]');
  await browser.waitUntil(async () => (await status.getAttribute('data-state')) === 'running', {
    timeout: LONG,
    interval: 500,
    timeoutMsg: 'the model file was not served',
  });
  const pid = Number(await status.getAttribute('data-pid'));
  assert.ok(pid > 0 && running(pid), `llama-server runs as ${pid}`);
  assert.match(await status.getText(), /Serving .*SmolLM2-135M-Instruct\.Q4_1\.gguf with llama-server/);
  const url = await (await browser.$('#set-llm-url')).getValue();
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  assert.notEqual(url, LLM_URL);
  assert.equal(await (await browser.$('#set-llm-model')).getValue(), 'SmolLM2-135M-Instruct.Q4_1');
  await browser.execute((el) => el.scrollIntoView({ block: 'center' }), status);
  await shot('19-settings-model-file.png');

  const answer = await askForAWrittenAnswer();
  assert.ok(running(pid), 'llama-server stopped while answering');
  await browser.execute((el) => el.scrollIntoView({ block: 'end' }), answer);
  await shot('20-ask-model-file.png');

  await closeWindow();
  // The session is gone: polled here, not through it.
  for (let waited = 0; running(pid) && waited < 20_000; waited += 250) await sleep(250);
  assert.equal(running(pid), false, `llama-server (${pid}) outlived the window`);
});
