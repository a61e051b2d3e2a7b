// @vitest-environment jsdom
// Citation chips and the page viewer's title name a page by its printed number beside
// its PDF page, on the DemoBackend: its Boeing filing prints i–iii on its first three
// pages and 1, 2, … from the fourth; its 3M filing has no page labels.

import { beforeEach, describe, expect, it, vi } from 'vitest';

async function until(probe: () => boolean, what: string): Promise<void> {
  const start = Date.now();
  while (!probe()) {
    if (Date.now() - start > 3000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeEach(() => {
  document.body.innerHTML = '';
});

/** The demo library on a fresh module graph, and the document named `name`. */
async function demoDocument(name: string) {
  vi.resetModules();
  const { api, useTransport } = await import('./api');
  const { DemoBackend } = await import('./api-double');
  useTransport(new DemoBackend({ speed: 0 }));
  const document_ = (await api.listDocuments()).find((d) => d.name === name);
  if (!document_) throw new Error(`the demo library has ${name}`);
  const { renderAnswer } = await import('./views/parts');
  return { document_, pages: document_.page_count ?? 0, renderAnswer };
}

const title = () => document.querySelector('#viewer-title')?.textContent ?? '';
const press = (label: string) => document.querySelector<HTMLButtonElement>(`[aria-label="${label}"]`)?.click();

describe('page labels in the app', () => {
  it('shows "p. iii · PDF page 3" on the citation, in the viewer, and on every page Prev and Next turn to', async () => {
    const { document_, pages, renderAnswer } = await demoDocument('BOEING_2022_10K');
    const name = document_.name;
    const answer = renderAnswer(`Revenue rose [${name} p.3].`, [], [{ document: name, page: 3, page_label: 'iii' }]);
    document.body.append(answer);
    const button = answer.querySelector<HTMLButtonElement>('[data-testid="citation"]');
    expect(button?.textContent).toBe(`${name} p. iii · PDF page 3`);

    button?.click();
    await until(() => title().includes('PDF page 3'), 'the viewer on the cited page');
    expect(title()).toBe(`${name} p. iii · PDF page 3 of ${pages}`);

    press('Next page');
    await until(() => title().includes('PDF page 4'), 'the next page');
    expect(title()).toBe(`${name} p. 1 · PDF page 4 of ${pages}`);
    press('Next page');
    await until(() => title().includes('PDF page 5'), 'the page after it');
    expect(title()).toBe(`${name} p. 2 · PDF page 5 of ${pages}`);
    press('Previous page');
    press('Previous page');
    await until(() => title().includes('PDF page 3'), 'the cited page again');
    expect(title()).toBe(`${name} p. iii · PDF page 3 of ${pages}`);
    press('Previous page');
    await until(() => title().includes('PDF page 2'), 'the page before it');
    expect(title()).toBe(`${name} p. ii · PDF page 2 of ${pages}`);
  });

  it('names the pages of a citation that carried no label by the document\'s labels', async () => {
    const { document_, pages, renderAnswer } = await demoDocument('BOEING_2022_10K');
    const name = document_.name;
    const answer = renderAnswer(`Revenue rose [${name} p.34].`, [], []);
    document.body.append(answer);
    answer.querySelector<HTMLButtonElement>('[data-testid="citation"]')?.click();
    await until(() => title().includes('PDF page 34'), 'the viewer named by the document\'s label');
    expect(title()).toBe(`${name} p. 31 · PDF page 34 of ${pages}`);
  });

  it('keeps "p.4 of 40" in a document without labels', async () => {
    const { document_, pages, renderAnswer } = await demoDocument('3M_2018_10K');
    const name = document_.name;
    const answer = renderAnswer(`Sales grew [${name} p.3].`, [], []);
    document.body.append(answer);
    answer.querySelector<HTMLButtonElement>('[data-testid="citation"]')?.click();
    await until(() => title().includes('p.3'), 'the viewer on the cited page');
    expect(title()).toBe(`${name} p.3 of ${pages}`);
    press('Next page');
    await until(() => title().includes('p.4'), 'the next page');
    expect(title()).toBe(`${name} p.4 of ${pages}`);
  });
});
