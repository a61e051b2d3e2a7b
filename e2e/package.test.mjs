// End-to-end test of the installed package: the binary the .deb put on the system,
// started with an empty home folder, so that everything it reads comes from the
// package (no checkout, no scripts/setup.sh assets, no settings). package.sh installs
// the package, runs this and uninstalls it.

import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { ask, count, dropFiles, rows, shot, testWithScreenshot, closeWindow, openWindow } from './window.mjs';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set; run e2e/package.sh`);
  return value;
};

const APP = env('PAGETREE_E2E_APP');
const FILING = env('PAGETREE_E2E_FILING');
const SCAN = env('PAGETREE_E2E_SCAN');
const SHOTS = env('PAGETREE_E2E_SCREENSHOTS');
const DRIVER_PORT = Number(env('PAGETREE_E2E_DRIVER_PORT'));
const FILING_NAME = 'FOOTLOCKER_2022_8K_dated-2022-05-20';
const LONG = 240_000;

let browser;
before(async () => {
  browser = await openWindow({ app: APP, port: DRIVER_PORT, shots: SHOTS, long: LONG });
});
after(closeWindow);

const packageTest = (name, body) => testWithScreenshot(name, body, 'package-');

packageTest('the installed app opens on a new, empty library', async () => {
  await (await browser.$('[data-testid="doc-list"]')).waitForExist({ timeout: 60_000 });
  assert.equal(await count('[data-testid="doc-list"] li.doc'), 0);
  await shot('package-01-empty-library.png');
});

packageTest('a dropped PDF is read and indexed with the assets the package carries', async () => {
  await dropFiles([FILING]);
  await browser.waitUntil(async () => (await rows('ready')).length === 1, {
    timeout: LONG,
    interval: 500,
    timeoutMsg: 'the dropped PDF did not become ready',
  });
  assert.equal((await rows('failed')).length, 0);
  await shot('package-02-ingested.png');
});

packageTest('a question is answered from the pages, with citations, and no model set up', async () => {
  const answer = await ask('How many votes against did Richard A. Johnson receive as a board nominee?');
  assert.match(await answer.getText(), /No language model is configured/);
  const citation = await answer.$('[data-testid="citation"]');
  await citation.waitForExist({ timeout: 10_000, timeoutMsg: 'the answer has no citation' });
  assert.match(await citation.getText(), new RegExp(`${FILING_NAME} p\\.\\d+`));
  await shot('package-03-answer.png');
});

packageTest('a scanned PDF without a text layer is read by OCR with the Tesseract the package depends on', async () => {
  await dropFiles([SCAN]);
  await browser.waitUntil(async () => (await rows('ready')).length === 2, {
    timeout: LONG,
    interval: 500,
    timeoutMsg: 'the scanned PDF did not become ready',
  });
  assert.equal((await rows('failed')).length, 0);
  const metas = await browser.execute(() =>
    [...document.querySelectorAll('[data-testid="doc-list"] li.doc[data-status="ready"] .doc-meta')].map(
      (meta) => meta.textContent ?? '',
    ),
  );
  const scanned = metas.find((meta) => meta.includes('scanned-english.pdf'));
  assert.ok(scanned, `no row for the scan among ${JSON.stringify(metas)}`);
  assert.match(scanned, /2 read by OCR/);
  const answer = await ask('Which page says how many eggs the queen lays every day?');
  const citation = await answer.$('[data-testid="citation"]');
  await citation.waitForExist({ timeout: 10_000, timeoutMsg: 'the answer has no citation' });
  assert.match(await citation.getText(), /scanned-english p\.1/);
  await shot('package-03b-scan.png');
});

packageTest('About names the version, the package\'s assets and the log folder', async () => {
  await (await browser.$('[data-testid="about-open"]')).click();
  const about = await browser.$('[data-testid="about"]');
  await about.waitForDisplayed({ timeout: 10_000 });
  const text = await about.getText();
  assert.match(text, /^PageTree \d+\.\d+\.\d+/);
  assert.match(text, /Assets: \/usr\/lib\/PageTree\/assets/);
  assert.match(text, /pypdfium2 \d/);
  assert.match(await (await browser.$('[data-testid="about-log-folder"]')).getText(), /logs$/);
  await shot('package-04-about.png');
  await (await about.$('button=Close')).click();
  await about.waitForExist({ reverse: true, timeout: 10_000 });
});

