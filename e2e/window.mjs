// What the end-to-end tests do to the PageTree window: navigate, count, screenshot,
// drop files from a real drag source, ask. Shared by app.test.mjs (the window built
// from the sources) and package.test.mjs (the installed package).

import { test } from 'node:test';
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { remote } from 'webdriverio';

let browser;
let SHOTS;
let LONG;

/** Opens the window of `app` through tauri-driver on `port`; the helpers below act on it. */
export async function openWindow({ app, port, shots, long }) {
  mkdirSync(shots, { recursive: true });
  const session = await remote({
    hostname: '127.0.0.1',
    port,
    logLevel: 'warn',
    connectionRetryCount: 3,
    capabilities: { 'tauri:options': { application: app } },
  });
  await session.setTimeout({ implicit: 0 });
  attach(session, { shots, long });
  return session;
}

export async function closeWindow() {
  await browser?.deleteSession().catch(() => {});
}

/** A test that, when it fails, leaves a screenshot named after itself (after `prefix`). */
export function testWithScreenshot(name, body, prefix = '') {
  test(name, async () => {
    try {
      await body();
    } catch (err) {
      const file = `${prefix}FAILED-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}.png`;
      await shot(file).catch(() => {});
      throw err;
    }
  });
}

/** Points the helpers at a WebDriver session, its screenshot folder and its longest wait. */
export function attach(session, { shots, long }) {
  browser = session;
  SHOTS = shots;
  LONG = long;
}

export async function shot(name) {
  // WebKit paints a DOM change on a later frame; a screenshot taken at once can show the
  // window as it was (a closed dialog still open, a loaded page still loading).
  await browser.executeAsync((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
  await sleep(200);
  await browser.saveScreenshot(join(SHOTS, name));
}

export async function go(view) {
  await (await browser.$(`a[data-nav="${view}"]`)).click();
  await browser.waitUntil(async () => (await browser.getUrl()).endsWith(`#${view}`), { timeout: 10_000 });
  if (view === 'settings') {
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Settings are read from the library each time the view opens and fill the fields not
    // yet edited when they arrive: the tests read and clear fields as the library has them.
    await browser.waitUntil(
      () =>
        browser.execute(() => {
          const section = document.querySelector('section.view.settings');
          return section !== null && !section.hasAttribute('aria-busy');
        }),
      { timeout: 30_000, timeoutMsg: 'the settings were not read' },
    );
  }
}

export async function rows(status) {
  return browser.$$(`[data-testid="doc-list"] li.doc[data-status="${status}"]`);
}

export async function count(selector) {
  return (await browser.$$(selector)).length;
}

export function xdotool(...args) {
  return execFileSync('xdotool', args, { encoding: 'utf8' }).trim();
}

export function geometry(windowId) {
  const out = xdotool('getwindowgeometry', '--shell', windowId);
  const value = (key) => Number(out.match(new RegExp(`^${key}=(\\d+)`, 'm'))[1]);
  return { x: value('X'), y: value('Y'), width: value('WIDTH'), height: value('HEIGHT') };
}

/** How many `img` under `selector` have a decoded PNG page (not a placeholder). */
export function paintedImages(selector) {
  return browser.execute(
    (sel) =>
      [...document.querySelectorAll(`${sel} img`)].filter(
        (img) => img.src.startsWith('data:image/png') && img.complete && img.naturalWidth > 0,
      ).length,
    selector,
  );
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Drags `files` from a GTK drag source (e2e/drag-source.py, standing in for a file
 * manager) onto the PageTree window with the X pointer: a real XDND drag and drop.
 */
export async function dropFiles(files) {
  const source = spawn('/usr/bin/python3', [resolve(dirname(fileURLToPath(import.meta.url)), 'drag-source.py'), '1400', '200', ...files], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  source.stdout.on('data', (chunk) => (output += chunk));
  try {
    await browser.waitUntil(async () => output.includes('ready'), { timeout: 20_000 });
    const sourceWindow = xdotool('search', '--sync', '--name', '^pagetree-drag-source$').split('\n')[0];
    const appWindow = xdotool('search', '--sync', '--onlyvisible', '--name', '^PageTree$').split('\n')[0];
    const from = geometry(sourceWindow);
    const to = geometry(appWindow);
    const start = [from.x + from.width / 2, from.y + from.height / 2].map(Math.round);
    const end = [to.x + to.width / 2, to.y + to.height / 2].map(Math.round);
    xdotool('mousemove', '--sync', String(start[0]), String(start[1]));
    xdotool('mousedown', '1');
    // GTK starts a drag only after the pointer moves past its threshold while pressed.
    for (let i = 1; i <= 20; i += 1) {
      const x = Math.round(start[0] + ((end[0] - start[0]) * i) / 20);
      const y = Math.round(start[1] + ((end[1] - start[1]) * i) / 20);
      xdotool('mousemove', String(x), String(y));
      await sleep(40);
    }
    await sleep(300);
    xdotool('mouseup', '1');
    await browser.waitUntil(async () => output.includes('drag-end'), {
      timeout: 20_000,
      timeoutMsg: 'the drag source never saw its drag end',
    });
  } finally {
    source.kill();
  }
}

export async function ask(question) {
  await go('ask');
  const before = await count('[data-testid="answer"]');
  await (await browser.$('[data-testid="ask-question"]')).setValue(question);
  await (await browser.$('[data-testid="ask-send"]')).click();
  await browser.waitUntil(async () => (await count('[data-testid="answer"]')) > before, { timeout: 30_000 });
  const answers = await browser.$$('[data-testid="answer"]');
  const answer = answers[answers.length - 1];
  await browser.waitUntil(async () => (await answer.getAttribute('aria-busy')) !== 'true', {
    timeout: LONG,
    interval: 500,
    timeoutMsg: 'the answer never finished',
  });
  return answer;
}
