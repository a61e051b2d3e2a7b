// @vitest-environment jsdom
// Help → About and the Library's warning about a missing asset, on the DemoBackend.

import { beforeEach, describe, expect, it, vi } from 'vitest';

/** A fresh UI (the About facts are kept per module) on a DemoBackend with `options`. */
async function fresh(options: { assetsProblem?: string }) {
  vi.resetModules();
  const { useTransport } = await import('./api');
  const { DemoBackend } = await import('./api-double');
  useTransport(new DemoBackend({ speed: 0, ...options }));
  return import('./views/about');
}

async function until(probe: () => boolean, what: string): Promise<void> {
  const start = Date.now();
  while (!probe()) {
    if (Date.now() - start > 3000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const MISSING = 'PDFium (libpdfium.so) was not found (looked in: /usr/lib/PageTree/assets); reinstall';

beforeEach(() => {
  document.body.innerHTML = '';
});

describe('about', () => {
  it('warns in the library which asset is missing, and shows it in About with the version', async () => {
    const { createAssetsBanner, openAbout } = await fresh({ assetsProblem: MISSING });
    const banner = createAssetsBanner();
    document.body.append(banner);
    await until(() => !banner.hidden, 'the warning');
    expect(banner.textContent).toBe(`PageTree cannot read PDFs yet: ${MISSING}`);
    expect(banner.getAttribute('role')).toBe('alert');

    const opener = document.createElement('button');
    document.body.append(opener);
    await openAbout(opener);
    const dialog = document.querySelector<HTMLDialogElement>('[data-testid="about"]');
    expect(dialog?.querySelector('h2')?.textContent).toBe('PageTree demo');
    const rows = [...(dialog?.querySelectorAll('tr') ?? [])].map((row) => row.textContent);
    expect(rows).toEqual(['PDFiumpypdfium2 demo', 'ONNX Runtimeonnxruntime demo']);
    expect(dialog?.querySelector('.error')?.textContent).toBe(MISSING);
    expect(dialog?.textContent).toMatch(/Log: standard error only/);
    [...(dialog?.querySelectorAll('button') ?? [])].find((b) => b.textContent === 'Close')?.click();
    expect(document.querySelector('[data-testid="about"]')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('says nothing in the library when every asset is found', async () => {
    const { aboutFacts, createAssetsBanner } = await fresh({});
    const banner = createAssetsBanner();
    document.body.append(banner);
    expect((await aboutFacts()).assets_problem).toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    expect(banner.hidden).toBe(true);
  });
});
