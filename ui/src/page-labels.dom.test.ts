// @vitest-environment jsdom
// Citation chips and the page viewer's title name a page by its printed number beside
// its PDF page, on the DemoBackend.

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

describe('page labels in the app', () => {
  it('shows "p. 47 · PDF page 52" on the citation and in the viewer, and only for that page', async () => {
    vi.resetModules();
    const { api, useTransport } = await import('./api');
    const { DemoBackend } = await import('./api-double');
    useTransport(new DemoBackend({ speed: 0 }));
    const document_ = (await api.listDocuments()).find((d) => (d.page_count ?? 0) >= 4);
    if (!document_) throw new Error('the demo library has a document of four pages');
    const { renderAnswer } = await import('./views/parts');
    const name = document_.name;
    const answer = renderAnswer(`Revenue rose [${name} p.3].`, [], [{ document: name, page: 3, page_label: 'ii' }]);
    document.body.append(answer);
    const button = answer.querySelector<HTMLButtonElement>('[data-testid="citation"]');
    expect(button?.textContent).toBe(`${name} p. ii · PDF page 3`);

    button?.click();
    const title = () => document.querySelector('#viewer-title')?.textContent ?? '';
    const pages = document_.page_count ?? 0;
    await until(() => title().includes('PDF page 3'), 'the viewer on the cited page');
    expect(title()).toBe(`${name} p. ii · PDF page 3 of ${pages}`);

    document.querySelector<HTMLButtonElement>('[aria-label="Next page"]')?.click();
    await until(() => title().includes('p.4'), 'the next page');
    expect(title()).toBe(`${name} p.4 of ${pages}`);
    document.querySelector<HTMLButtonElement>('[aria-label="Previous page"]')?.click();
    await until(() => title().includes('PDF page 3'), 'the cited page again');
  });
});
