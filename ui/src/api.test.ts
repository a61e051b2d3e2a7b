// @vitest-environment jsdom
// api.ts picks the Tauri shell when `__TAURI_INTERNALS__` is there, and passes the
// contract's command names and camelCase arguments to it unchanged.

import { afterEach, describe, expect, it, vi } from 'vitest';

type Win = Window & { __TAURI_INTERNALS__?: unknown };

afterEach(() => {
  delete (window as Win).__TAURI_INTERNALS__;
  vi.resetModules();
});

describe('inside Tauri', () => {
  it('invokes the shell with the contract names and arguments', async () => {
    const calls: [string, unknown][] = [];
    (window as Win).__TAURI_INTERNALS__ = {
      invoke: async (cmd: string, args: unknown) => {
        calls.push([cmd, args]);
        if (cmd === 'page_text') return 'text of the page';
        if (cmd === 'delete_document') throw 'BOEING_2022_10K is being ingested; cancel it first.';
        return null;
      },
      transformCallback: () => 1,
    };
    const { api, isDemo, ShellError, defaultFusion } = await import('./api');
    expect(await isDemo()).toBe(false);
    expect(await api.pageText(3, 7)).toBe('text of the page');
    await api.ask('Why?', { name: 'knee', max_roots: 20 }, { fusion: defaultFusion(), section_scoring: 'best-page', token_budget: null, documents: null }, null, 'r-1');
    await api.history(null, 50);
    expect(calls.map(([c]) => c)).toEqual(['page_text', 'ask', 'history']);
    expect(calls[0]?.[1]).toEqual({ docId: 3, page: 7 });
    expect(calls[1]?.[1]).toMatchObject({ question: 'Why?', conversationId: null, requestId: 'r-1', strategy: { name: 'knee', max_roots: 20 } });
    expect(calls[2]?.[1]).toEqual({ search: null, limit: 50 });
    const failure = api.deleteDocument('1');
    await expect(failure).rejects.toBeInstanceOf(ShellError);
    await expect(failure).rejects.toThrow('BOEING_2022_10K is being ingested; cancel it first.');
  });

  it('caches page images and shares calls in flight', async () => {
    let renders = 0;
    (window as Win).__TAURI_INTERNALS__ = {
      invoke: async (cmd: string) => {
        if (cmd === 'page_image') renders++;
        return 'data:image/png;base64,AAAA';
      },
      transformCallback: () => 1,
    };
    const { api, forgetImages } = await import('./api');
    const [a, b] = await Promise.all([api.pageImage(1, 2, 100), api.pageImage(1, 2, 100)]);
    expect(a).toBe(b);
    await api.pageImage(1, 2, 100);
    expect(renders).toBe(1);
    await api.pageImage(1, 2, 1000);
    expect(renders).toBe(2);
    forgetImages(1);
    await api.pageImage(1, 2, 100);
    expect(renders).toBe(3);
  });
});

describe('outside Tauri', () => {
  it('falls back to the DemoBackend test double', async () => {
    const { api, isDemo } = await import('./api');
    expect(await isDemo()).toBe(true);
    expect((await api.listDocuments()).map((d) => d.name)).toEqual(['BOEING_2022_10K', '3M_2018_10K']);
  });
});

describe('errorMessage', () => {
  it('turns anything thrown into text', async () => {
    const { errorMessage } = await import('./api');
    expect(errorMessage('plain words')).toBe('plain words');
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage({ message: 'from an object' })).toBe('from an object');
    expect(errorMessage({ code: 3 })).toBe('{"code":3}');
  });
});
