// @vitest-environment jsdom
// The whole UI against the DemoBackend test double: what a person would click.

import { beforeAll, describe, expect, it } from 'vitest';
import { useTransport, type CommandArgs, type CommandName, type CommandResult } from './api';
import { DemoBackend } from './api-double';

const demo = new DemoBackend({ speed: 0 });

async function until<T>(probe: () => T | null | undefined | false, what: string, ms = 3000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function click(el: Element | null | undefined): void {
  if (!el) throw new Error('nothing to click');
  (el as HTMLElement).click();
}

/** Every command the UI sends, with its arguments; `fail` makes chosen calls reject. */
const sent: { command: CommandName; args: unknown }[] = [];
let fail: (command: CommandName, args: unknown) => string | null = () => null;
const invoke = demo.invoke.bind(demo);
demo.invoke = <C extends CommandName>(command: C, args: CommandArgs<C>): Promise<CommandResult<C>> => {
  sent.push({ command, args });
  const refusal = fail(command, args);
  return refusal === null ? invoke(command, args) : Promise.reject(refusal);
};

function type(input: HTMLInputElement, value: string): void {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

function shownNames(): string[] {
  return [...view('library').querySelectorAll('.doc:not([hidden]) .doc-name')].map((e) => e.textContent ?? '');
}

/** A button of the open confirmation dialog, by its label. */
function dialogButton(label: string): HTMLButtonElement | undefined {
  return [...document.querySelectorAll<HTMLButtonElement>('dialog.confirm button')].find((b) => b.textContent === label);
}

function view(name: string): HTMLElement {
  const el = document.querySelector<HTMLElement>(`[data-view="${name}"]`);
  if (!el) throw new Error(`no view ${name}`);
  return el;
}

beforeAll(async () => {
  document.body.innerHTML = '<div id="app"></div>';
  location.hash = '#library';
  useTransport(demo);
  await import('./main');
  await until(() => document.querySelectorAll('.doc').length === 2, 'the documents');
});

describe('the app on the demo backend', () => {
  it('shows the demo badge, the views and the library', () => {
    expect(document.querySelector<HTMLElement>('[data-testid="demo-badge"]')?.hidden).toBe(false);
    expect([...document.querySelectorAll('nav a')].map((a) => a.textContent)).toEqual([
      'Library',
      'Tree',
      'Compare',
      'Ask',
      'History',
      'Settings',
    ]);
    expect(view('library').hidden).toBe(false);
    expect(view('tree').hidden).toBe(true);
    const names = [...document.querySelectorAll('.doc-name')].map((e) => e.textContent);
    // By name, the list's first order.
    expect(names).toEqual(['3M_2018_10K', 'BOEING_2022_10K']);
    expect(document.querySelector('.doc-warning:not([hidden])')?.textContent).toMatch(/no text layer/);
    const cards = [...document.querySelectorAll('[data-testid="doc-card"]')].map((e) => e.textContent);
    expect(cards[1]).toBe('The Boeing Company · 10-K annual report · fiscal year 2022');
    // The 3M year was guessed: no sign in the list, a tooltip that says so.
    expect(cards[0]).toBe('3M Company · 10-K annual report · fiscal year 2018');
    const guessed = document.querySelectorAll('.doc')[0]?.querySelector('.card-part.unsure');
    expect(guessed?.getAttribute('title')).toBe('guessed');
    // One line a document; details and actions for the row opened only, one at a time.
    const [first, second] = [...document.querySelectorAll<HTMLElement>('.doc')];
    const details = (row: HTMLElement | undefined) => row?.querySelector<HTMLElement>('.doc-details');
    expect(details(first)?.hidden).toBe(true);
    expect(first?.querySelector('.doc-pages')?.textContent).toMatch(/^\d+ pages$/);
    expect(first?.textContent).not.toMatch(/\d+ nodes|described (extractive|llm)|`pagetree /);
    click(first?.querySelector('.doc-name'));
    expect(details(first)?.hidden).toBe(false);
    click(second?.querySelector('.doc-toggle'));
    expect(details(first)?.hidden).toBe(true);
    expect(details(second)?.hidden).toBe(false);
    click(second?.querySelector('.doc-toggle'));
    expect(details(second)?.hidden).toBe(true);
  });

  it('follows an ingestion with a progress bar until the document is ready', async () => {
    demo.emit('library://dropped', { paths: ['/home/me/NEW_FILING.pdf'] });
    const bar = await until(
      () => [...document.querySelectorAll<HTMLProgressElement>('.doc progress')].find((p) => !p.closest('[hidden]')),
      'a progress bar',
    );
    expect(bar.getAttribute('aria-label')).toMatch(/NEW_FILING/);
    await until(
      () =>
        [...document.querySelectorAll<HTMLElement>('.doc')].find(
          (d) => d.querySelector('.doc-name')?.textContent === 'NEW_FILING' && d.dataset.status === 'ready',
        ),
      'the new document to be ready',
    );
  });

  it('renders a tree with collapsible nodes', async () => {
    location.hash = '#tree';
    await until(() => !view('tree').hidden, 'the tree view');
    const tree = view('tree').querySelector('[role="tree"]')!;
    await until(() => tree.querySelectorAll('[role="treeitem"]').length > 1, 'tree rows');
    const root = tree.querySelector<HTMLElement>('[role="treeitem"]')!;
    expect(root.getAttribute('aria-expanded')).toBe('true');
    // The root reads as its document (the card's title), not as its summary's first sentence.
    expect(root.querySelector('.node-title')?.textContent).toBe('The Boeing Company Annual Report on Form 10-K for 2022');
    const before = tree.querySelectorAll('[role="treeitem"]').length;
    click([...view('tree').querySelectorAll('button')].find((b) => b.textContent === 'Expand all'));
    const after = tree.querySelectorAll('[role="treeitem"]').length;
    expect(after).toBeGreaterThan(before);
    // Every row reads as a title, with no "section" label and a few readable keywords.
    for (const row of tree.querySelectorAll('[role="treeitem"]')) {
      expect(row.querySelector('.node-title')?.textContent?.trim()).not.toBe('');
      expect(row.querySelector('.node-kind')).toBeNull();
      const chips = [...row.querySelectorAll(':scope > .node-row .chip.kw')].map((c) => c.textContent ?? '');
      expect(chips.length).toBeLessThanOrEqual(8);
      for (const chip of chips) expect(chip).toMatch(/\p{L}.*\p{L}.*\p{L}/u);
    }
    // Leaves carry a thumbnail that loads through page_image.
    const img = await until(() => tree.querySelector<HTMLImageElement>('img.loaded'), 'a thumbnail');
    expect(img.src).toMatch(/^data:image\//);
    click([...view('tree').querySelectorAll('button')].find((b) => b.textContent === 'Collapse all'));
    expect(tree.querySelectorAll('[role="treeitem"]').length).toBe(1);
    // Keyboard: → opens the focused root.
    root.focus();
    root.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    expect(root.getAttribute('aria-expanded')).toBe('true');
  });

  it('offers every strategy, the fusions and the section scorings, with RRF k only for RRF', async () => {
    location.hash = '#compare';
    await until(() => !view('compare').hidden, 'the compare view');
    const labels = [...view('compare').querySelectorAll('.strategy-check label')].map((l) => l.textContent);
    expect(labels).toEqual([
      'Flat top-k',
      'Branch',
      'Beam (fixed width)',
      'Knee',
      'Sensitive knee',
      'Largest gap',
      'Collapsed tree',
      'Proxy-pointer',
    ]);
    expect(view('compare').querySelector<HTMLInputElement>('#cmp-collapsed-tree-depth')?.value).toBe('40');
    const fusion = view('compare').querySelector<HTMLSelectElement>('#compare-fusion')!;
    const rrf = view('compare').querySelector<HTMLInputElement>('#compare-rrf')!;
    const scoring = view('compare').querySelector<HTMLSelectElement>('#compare-section-scoring')!;
    expect([...fusion.options].map((o) => o.value)).toEqual(['rrf', 'dbsf', 'min-max']);
    expect(fusion.value).toBe('min-max');
    expect(scoring.value).toBe('best-page');
    expect(rrf.disabled).toBe(true);
    fusion.value = 'rrf';
    fusion.dispatchEvent(new Event('change'));
    expect(rrf.disabled).toBe(false);
    expect(view('compare').querySelector('#compare-fusion-hint')?.textContent).toMatch(/only ranks count/);
    fusion.value = 'dbsf';
    fusion.dispatchEvent(new Event('change'));
    expect(rrf.disabled).toBe(true);
    expect(view('compare').querySelector('#compare-rrf-hint')?.textContent).toMatch(/Only RRF uses k/);
    fusion.value = 'rrf';
    fusion.dispatchEvent(new Event('change'));
  });

  it('compares the eight strategies side by side with score curves', async () => {
    location.hash = '#compare';
    await until(() => !view('compare').hidden, 'the compare view');
    const q = view('compare').querySelector<HTMLTextAreaElement>('[data-testid="compare-question"]')!;
    // The settings are folded under the question, saying what they hold.
    const fold = view('compare').querySelector<HTMLDetailsElement>('[data-testid="compare-settings"]')!;
    expect(fold.open).toBe(false);
    expect(fold.querySelector('summary')?.textContent).toBe('Strategies and settings: 8 of 8 strategies');
    q.value = 'What were Boeing’s total revenues in 2022?';
    click(view('compare').querySelector('[data-testid="compare-run"]'));
    const cols = await until(
      () => (view('compare').querySelectorAll('.col').length === 8 ? view('compare').querySelectorAll('.col') : null),
      'eight columns',
    );
    expect(view('compare').querySelector('[data-testid="col-collapsed-tree"] .params-line')?.textContent).toBe(
      'collapsed-tree · depth 40',
    );
    const knee = [...cols].find((c) => (c as HTMLElement).dataset.strategy === 'knee')!;
    // What the question named, and that the search kept to Boeing's filing.
    const banner = view('compare').querySelector('[data-testid="analysis-banner"]');
    expect(banner?.textContent).toMatch(/organisation The Boeing Company; year 2022/);
    expect(banner?.textContent).toMatch(/searched the 1 document\(s\) of The Boeing Company/);
    expect(banner?.textContent).toMatch(/searched only BOEING_2022_10K/);
    expect(knee.querySelector('.page-chip')?.textContent).toMatch(/^(BOEING_2022_10K p\. \d+ · PDF page \d+|3M_2018_10K p\.\d+)$/);

    // The trace: knee's path in Boeing's tree, flat overlaid, the curve of the step beside.
    const trace = await until(
      () => view('compare').querySelector<HTMLElement>('[data-testid="trace-view"]:not([hidden]) svg.trace-tree'),
      'the trace tree',
    );
    expect(view('compare').querySelector<HTMLSelectElement>('[data-testid="trace-primary"]')?.value).toBe('knee');
    expect(view('compare').querySelector<HTMLSelectElement>('[data-testid="trace-overlay"]')?.value).toBe('flat');
    expect(trace.textContent).toMatch(/BOEING_2022_10K · \d+ pages/);
    const curve = view('compare').querySelector<SVGSVGElement>('[data-testid="trace-view"] .plot svg.curve')!;
    expect(curve.querySelector('polyline.kept')).not.toBeNull();
    // The legends name every mark drawn: each curve mark, and each strategy colour in the tree.
    const named = new Set(
      [...view('compare').querySelectorAll<HTMLElement>('[data-testid="curve-legend"] li')].map((li) => li.dataset.mark),
    );
    const drawnMarks = new Set<string>();
    for (const el of curve.querySelectorAll('polyline, circle, line:not(.axis)')) {
      const cls = el.getAttribute('class') ?? '';
      drawnMarks.add(cls.startsWith('pt ') ? cls.slice(3) : cls);
    }
    expect(drawnMarks.size).toBeGreaterThan(2);
    for (const mark of drawnMarks) expect(named, mark).toContain(mark);
    const colourNames = [...view('compare').querySelectorAll<HTMLElement>('[data-testid="trace-colours"] li')];
    expect(colourNames.map((li) => li.dataset.strategy)).toEqual(['knee', 'flat']);
    const legendFills = new Set(colourNames.map((li) => li.querySelector('rect')?.getAttribute('fill')));
    for (const mark of trace.querySelectorAll('.mark rect, .mark circle[fill]:not([fill="none"])')) {
      expect(legendFills).toContain(mark.getAttribute('fill'));
    }
    const stepSlider = view('compare').querySelector<HTMLInputElement>('[data-testid="trace-step"]')!;
    const steps = Number(stepSlider.max);
    expect(steps).toBeGreaterThan(1);
    expect(view('compare').querySelector('[data-testid="trace-step-label"]')?.textContent).toMatch(/^1 of \d+: roots/);
    const chosenAtFirst = view('compare').querySelectorAll('[data-testid="trace-tree"] .mark.selected').length;
    stepSlider.value = String(steps);
    stepSlider.dispatchEvent(new Event('input'));
    const lastTree = view('compare').querySelector('[data-testid="trace-tree"]')!;
    // Both strategies' chosen pages show at the last step, in two marker columns.
    expect(lastTree.querySelectorAll('.mark.selected').length).toBeGreaterThan(chosenAtFirst);
    const xs = new Set([...lastTree.querySelectorAll('.mark.selected rect')].map((r) => r.getAttribute('x')));
    expect(xs.size).toBe(2);
    click(knee.querySelector('[data-testid="trace-flat"]') ?? view('compare').querySelector('[data-testid="trace-flat"]'));
    expect(view('compare').querySelector<HTMLSelectElement>('[data-testid="trace-primary"]')?.value).toBe('flat');
    expect(view('compare').querySelector<HTMLSelectElement>('[data-testid="trace-overlay"]')?.value).toBe('');

    // Where they agree, and which found the page a bench run knows answers it.
    const agree = view('compare').querySelector('[data-testid="compare-difference"]')!;
    expect(agree.querySelector('[data-testid="difference-everyone"]')?.textContent).toMatch(/^Every strategy: /);
    expect(agree.querySelector('[data-testid="difference-gold"]')).toBeNull();
    const gold = agree.querySelector<HTMLInputElement>('[data-testid="compare-gold"]')!;
    gold.value = 'BOEING_2022_10K p. 34';
    gold.dispatchEvent(new Event('input'));
    const table = await until(() => agree.querySelector('[data-testid="difference-gold"]'), 'the gold table');
    expect(table.querySelector('tr[data-strategy="knee"] td')?.textContent).toBe('found 1 of 1');
    gold.value = 'BOEING_2022_10K';
    gold.dispatchEvent(new Event('input'));
    expect(agree.querySelector('[role="alert"]')?.textContent).toMatch(/not a document followed by pages/);

    // The slider re-runs only the sensitive knee.
    const flatBefore = view('compare').querySelector('[data-strategy="flat"]');
    const sensitiveBefore = view('compare').querySelector('[data-strategy="sensitive-knee"]');
    const slider = view('compare').querySelector<HTMLInputElement>('#cmp-sensitive-knee-sensitivity')!;
    slider.value = '0.3';
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    await until(
      () => view('compare').querySelector('[data-strategy="sensitive-knee"]') !== sensitiveBefore,
      'the sensitive knee to update',
    );
    expect(view('compare').querySelector('[data-strategy="flat"]')).toBe(flatBefore);
    expect(view('compare').querySelector('[data-strategy="sensitive-knee"] .params-line')?.textContent).toContain(
      'sensitivity 0.3',
    );

    // Show in tree highlights the selection.
    click([...knee.querySelectorAll('button')].find((b) => b.textContent === 'Show in tree'));
    await until(() => !view('tree').hidden, 'the tree view');
    await until(() => view('tree').querySelector('.node.hl'), 'highlighted nodes');
  });

  it('fills the answering pages from a bench run and exports the comparison', async () => {
    const question = 'What were Boeing’s total revenues in 2022? (bench)';
    demo.benchGold.set(question, [{ document: 'BOEING_2022_10K', page: 34 }]);
    const q = view('compare').querySelector<HTMLTextAreaElement>('[data-testid="compare-question"]')!;
    q.value = question;
    click(view('compare').querySelector('[data-testid="compare-run"]'));
    const source = await until(
      () => (view('compare').querySelector('[data-testid="compare-gold-source"]')?.textContent ? view('compare').querySelector('[data-testid="compare-gold-source"]') : null),
      'the bench note',
    );
    expect(source.textContent).toMatch(/bench run/);
    expect(view('compare').querySelector<HTMLInputElement>('[data-testid="compare-gold"]')?.value).toBe('BOEING_2022_10K p. 34');
    expect(view('compare').querySelectorAll('[data-testid="difference-gold"] tbody tr')).toHaveLength(8);
    const saved: Blob[] = [];
    const create = URL.createObjectURL;
    URL.createObjectURL = (blob: Blob) => {
      saved.push(blob);
      return 'blob:test';
    };
    try {
      click(view('compare').querySelector('[data-testid="compare-export-md"]'));
      click(view('compare').querySelector('[data-testid="trace-export-svg"]'));
      await until(() => saved.length === 2, 'both files offered');
    } finally {
      URL.createObjectURL = create;
    }
    const [md, svgFile] = await Promise.all(saved.map((b) => b.text()));
    expect(md).toContain('| strategy | pages | context tokens | latency ms | found the answer |');
    expect(md).toMatch(/\| knee \| .*BOEING_2022_10K p\. 31 · PDF page 34.* \| yes/);
    expect(svgFile).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svgFile).toContain('BOEING_2022_10K');
  });

  it('streams an answer whose citations open the page with the passage marked', async () => {
    location.hash = '#ask';
    await until(() => !view('ask').hidden, 'the ask view');
    const q = view('ask').querySelector<HTMLTextAreaElement>('[data-testid="ask-question"]')!;
    q.value = 'What were Boeing’s total revenues in 2022?';
    click(view('ask').querySelector('[data-testid="ask-send"]'));
    const link = await until(() => view('ask').querySelector<HTMLButtonElement>('button.cite'), 'a citation link');
    // The demo's Boeing filing prints 31 on its PDF page 34.
    expect(link.textContent).toBe('BOEING_2022_10K p. 31 · PDF page 34');
    expect(view('ask').querySelector('[data-testid="answer"]')?.getAttribute('aria-busy')).toBe('false');
    expect(view('ask').querySelector('.timing')?.textContent).toMatch(/first token/);
    const opened = sent.length;
    click(link);
    const mark = await until(() => document.querySelector('[data-testid="page-viewer"] mark.cited'), 'the marked passage');
    expect(mark.textContent).toBe('Total revenues were $66.6 billion in 2022, up 7% from 2021.');
    expect(document.querySelector('#viewer-title')?.textContent).toBe('BOEING_2022_10K p. 31 · PDF page 34 of 120');
    // The pages around it are drawn ahead, so that Prev and Next show one at once.
    const drawn = () =>
      sent
        .slice(opened)
        .filter((c) => c.command === 'page_image')
        .map((c) => (c.args as CommandArgs<'page_image'>).page);
    await until(() => drawn().includes(35) && drawn().includes(33), 'the neighbours drawn ahead');
    const asked = drawn().length;
    click(document.querySelector('[aria-label="Next page"]'));
    await until(() => /p\. 32 · PDF page 35 of/.test(document.querySelector('#viewer-title')?.textContent ?? ''), 'the next page');
    await until(() => drawn().includes(36), 'the page after it drawn ahead');
    // Page 35 itself came from what was drawn ahead: asked once, not again.
    expect(drawn().filter((p) => p === 35).length).toBe(1);
    expect(drawn().length).toBe(asked + 1);
  });

  it('shows errors in the chat', async () => {
    const q = view('ask').querySelector<HTMLTextAreaElement>('[data-testid="ask-question"]')!;
    q.value = 'please fail';
    click(view('ask').querySelector('[data-testid="ask-send"]'));
    const error = await until(() => view('ask').querySelector('.msg .error'), 'an error message');
    expect(error.textContent).toMatch(/connection refused/);
  });

  it('lists history newest first and re-runs in Compare', async () => {
    location.hash = '#history';
    await until(() => view('history').querySelectorAll('details.run').length > 3, 'history entries');
    const first = view('history').querySelector<HTMLDetailsElement>('details.run')!;
    expect(first.querySelector('.run-q')?.textContent).toBe('please fail');
    // The comparison of eight strategies run earlier is one row that opens to its eight.
    const comparison = view('history').querySelector<HTMLElement>('[data-testid="history-comparison"]');
    expect(comparison?.querySelectorAll('.comparison-runs > li').length).toBe(8);
    expect(comparison?.querySelector('.run-strategy')?.textContent).toBe('8 strategies');
    const search = view('history').querySelector<HTMLInputElement>('[data-testid="history-search"]')!;
    search.value = 'dividends';
    search.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    await until(() => view('history').querySelectorAll('details.run').length === 1, 'one match');
    const run = view('history').querySelector<HTMLDetailsElement>('details.run')!;
    run.open = true;
    run.dispatchEvent(new Event('toggle'));
    // A run recorded before fusions and section scorings were a choice.
    const facts = await until(() => run.querySelector('.facts'), 'the run details');
    expect(facts.textContent).toContain('fusionRRF k = 2');
    expect(facts.textContent).toContain('section scoringOwn text');
    const rerun = await until(
      () => [...run.querySelectorAll('button')].find((b) => b.textContent?.startsWith('Re-run in Compare')),
      'the re-run button',
    );
    click(rerun);
    await until(() => !view('compare').hidden, 'compare');
    expect(view('compare').querySelector<HTMLTextAreaElement>('[data-testid="compare-question"]')?.value).toBe(
      'How much did 3M pay in dividends in 2018?',
    );
    // Re-run as it ran.
    expect(view('compare').querySelector<HTMLSelectElement>('#compare-fusion')?.value).toBe('rrf');
    expect(view('compare').querySelector<HTMLInputElement>('#compare-rrf')?.disabled).toBe(false);
    expect(view('compare').querySelector<HTMLSelectElement>('#compare-section-scoring')?.value).toBe('own-text');
  });

  it('changes the embedding model, saying first that the documents are re-embedded', async () => {
    location.hash = '#settings';
    await until(() => !view('settings').hidden && !view('settings').hasAttribute('aria-busy'), 'settings');
    const select = view('settings').querySelector<HTMLSelectElement>('[data-testid="dense-model"]')!;
    const note = view('settings').querySelector<HTMLElement>('[data-testid="dense-model-note"]')!;
    await until(() => select.value === 'e5-small', 'the library’s model');
    expect(note.textContent).not.toMatch(/re-embeds/);
    select.value = 'minilm';
    select.dispatchEvent(new Event('change'));
    expect(note.textContent).toMatch(/re-embeds the library’s \d+ documents \(\d+ pages\) with all-MiniLM-L6-v2/);
    click(view('settings').querySelector('[data-testid="settings-save"]'));
    const agree = await until(() => dialogButton('Re-embed'), 'the confirmation');
    expect(document.querySelector('#confirm-message')?.textContent).toMatch(/re-embeds the library’s \d+ documents/);
    click(agree);
    await until(() => view('settings').querySelector('.save-result.ok'), 'saved');
    const saved = await demo.invoke('get_settings', {});
    expect(saved.dense_model).toBe('minilm');
    expect(saved.embedding_model).toBe('all-MiniLM-L6-v2');
    expect(view('settings').querySelector('[data-testid="library-model"]')?.textContent).toMatch(/all-MiniLM-L6-v2/);
    expect(note.textContent).not.toMatch(/re-embeds/);
    select.value = 'e5-small';
    select.dispatchEvent(new Event('change'));
    click(view('settings').querySelector('[data-testid="settings-save"]'));
    click(await until(() => dialogButton('Re-embed'), 'the second confirmation'));
    await until(() => view('settings').querySelector('.save-result.ok'), 'saved again');
    expect((await demo.invoke('get_settings', {})).dense_model).toBe('e5-small');
  });

  it('declining the re-embedding keeps the library’s model and saves nothing', async () => {
    location.hash = '#settings';
    await until(() => !view('settings').hidden && !view('settings').hasAttribute('aria-busy'), 'settings');
    const select = view('settings').querySelector<HTMLSelectElement>('[data-testid="dense-model"]')!;
    await until(() => select.value === 'e5-small', 'the library’s model');
    select.value = 'minilm';
    select.dispatchEvent(new Event('change'));
    click(view('settings').querySelector('[data-testid="settings-save"]'));
    click(await until(() => dialogButton('Cancel'), 'the confirmation'));
    await until(() => /Nothing saved/.test(view('settings').querySelector('.save-result')?.textContent ?? ''), 'the refusal');
    expect((await demo.invoke('get_settings', {})).dense_model).toBe('e5-small');
    expect(select.value).toBe('e5-small');
  });

  it('reads the model from the library each time Settings opens, and Save unchanged re-embeds nothing', async () => {
    location.hash = '#library';
    await until(() => view('settings').hidden, 'the library view');
    // The library's model changes behind the form, as a first ingest settles it.
    await demo.invoke('change_dense_model', { model: 'e5-small+minilm' });
    const asked: string[] = [];
    const spy = demo.invoke;
    demo.invoke = <C extends CommandName>(command: C, args: CommandArgs<C>): Promise<CommandResult<C>> => {
      asked.push(command);
      return spy(command, args);
    };
    try {
      location.hash = '#settings';
      const select = view('settings').querySelector<HTMLSelectElement>('[data-testid="dense-model"]')!;
      await until(() => select.value === 'e5-small+minilm', 'the model the library has now');
      expect(view('settings').querySelector('[data-testid="library-model"]')?.textContent).toMatch(/multilingual-e5-small \+ all-MiniLM-L6-v2/);
      click(view('settings').querySelector('[data-testid="settings-save"]'));
      await until(() => view('settings').querySelector('.save-result.ok'), 'saved');
      expect(dialogButton('Re-embed')).toBeUndefined();
      expect(asked).not.toContain('change_dense_model');
      expect((await demo.invoke('get_settings', {})).dense_model).toBe('e5-small+minilm');
    } finally {
      demo.invoke = spy;
      await demo.invoke('change_dense_model', { model: 'e5-small' });
      // Leave Settings, so that the next test opening it reads the model back.
      location.hash = '#library';
      await until(() => view('settings').hidden, 'the library view again');
    }
  });

  it('keeps what a person typed before the library’s settings arrived, fills the rest, and saves it', async () => {
    location.hash = '#library';
    await until(() => view('settings').hidden, 'the library view');
    const before = await demo.invoke('get_settings', {});
    let release: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      release = resolve;
    });
    const spy = demo.invoke;
    demo.invoke = <C extends CommandName>(command: C, args: CommandArgs<C>): Promise<CommandResult<C>> =>
      command === 'get_settings' ? arrived.then(() => spy(command, args)) : spy(command, args);
    try {
      const settings = view('settings');
      const model = settings.querySelector<HTMLInputElement>('#set-llm-model')!;
      const url = settings.querySelector<HTMLInputElement>('#set-llm-url')!;
      const deadline = settings.querySelector<HTMLInputElement>('[data-testid="llm-deadline"]')!;
      // Something else in the fields, as a form left unsaved on the last visit.
      model.value = 'stale';
      url.value = 'http://stale.invalid/v1';
      location.hash = '#settings';
      await until(() => settings.hasAttribute('aria-busy'), 'the settings being read');
      type(model, 'typed-model');
      type(deadline, '45');
      release();
      await until(() => !settings.hasAttribute('aria-busy'), 'the settings');
      expect(model.value).toBe('typed-model');
      expect(deadline.value).toBe('45');
      expect(url.value).toBe(before.llm_base_url);
      click(settings.querySelector('[data-testid="settings-save"]'));
      await until(() => settings.querySelector('.save-result.ok'), 'saved');
      const saved = await demo.invoke('get_settings', {});
      expect(saved.llm_model).toBe('typed-model');
      expect(saved.llm_answer_deadline_secs).toBe(45);
      expect(saved.llm_base_url).toBe(before.llm_base_url);
    } finally {
      demo.invoke = spy;
      release();
      await demo.invoke('save_settings', { settings: before });
      location.hash = '#library';
      await until(() => view('settings').hidden, 'the library view again');
    }
  });

  it('saves settings, and says why a remote index could not be used', async () => {
    location.hash = '#settings';
    await until(() => !view('settings').hidden && !view('settings').hasAttribute('aria-busy'), 'settings');
    const rrf = view('settings').querySelector<HTMLInputElement>('#set-rrf')!;
    const fusion = view('settings').querySelector<HTMLSelectElement>('#set-fusion')!;
    await until(() => rrf.value === '2', 'the settings to load');
    expect(fusion.value).toBe('min-max');
    expect(rrf.disabled).toBe(true);
    fusion.value = 'dbsf';
    fusion.dispatchEvent(new Event('change'));
    expect(rrf.disabled).toBe(true);
    fusion.value = 'rrf';
    fusion.dispatchEvent(new Event('change'));
    rrf.value = '60';
    click(view('settings').querySelector('[data-testid="settings-save"]'));
    await until(() => view('settings').querySelector('.save-result.ok'), 'saved');
    expect((await demo.invoke('get_settings', {})).defaults.fusion).toEqual({
      method: 'rrf',
      rrf_k: 60,
      dense_weight: 1,
      sparse_weight: 1,
    });
    click(view('settings').querySelector('#qdrant-remote'));
    view('settings').querySelector<HTMLInputElement>('#set-qdrant-url')!.value = 'http://offline.invalid:6334';
    view('settings').querySelector<HTMLInputElement>('#set-qdrant-replicas')!.value = '0';
    click(view('settings').querySelector('[data-testid="settings-save"]'));
    const invalid = await until(() => view('settings').querySelector('.save-result.error'), 'the check');
    expect(invalid.textContent).toMatch(/replication factor/);
    view('settings').querySelector<HTMLInputElement>('#set-qdrant-replicas')!.value = '1';
    click(view('settings').querySelector('[data-testid="settings-save"]'));
    await until(
      () => /cannot be reached/.test(view('settings').querySelector('.save-result.error')?.textContent ?? ''),
      'the refusal',
    );
  });

  it('saves how long one answer may take, refusing a time out of bounds in words', async () => {
    location.hash = '#settings';
    await until(() => !view('settings').hidden && !view('settings').hasAttribute('aria-busy'), 'settings');
    const settings = view('settings');
    const deadline = settings.querySelector<HTMLInputElement>('[data-testid="llm-deadline"]')!;
    await until(() => deadline.value === '300', 'the saved deadline');
    click(settings.querySelector('#qdrant-embedded'));
    deadline.value = '5';
    click(settings.querySelector('[data-testid="settings-save"]'));
    const refused = await until(() => settings.querySelector('.save-result.error'), 'the refusal');
    expect(refused.textContent).toMatch(/one answer may take must be a whole number of seconds from 10 to 3600/);
    expect(deadline.getAttribute('aria-invalid')).toBe('true');
    deadline.value = '120';
    click(settings.querySelector('[data-testid="settings-save"]'));
    await until(() => settings.querySelector('.save-result.ok'), 'saved');
    expect((await demo.invoke('get_settings', {})).llm_answer_deadline_secs).toBe(120);
    expect(deadline.value).toBe('120');
  });

  it('warns beside the URL when a key would go to another machine over plain http', async () => {
    location.hash = '#settings';
    await until(() => !view('settings').hidden && !view('settings').hasAttribute('aria-busy'), 'settings');
    const settings = view('settings');
    const type = (selector: string, value: string) => {
      const input = settings.querySelector<HTMLInputElement>(selector)!;
      input.value = value;
      input.dispatchEvent(new Event('input'));
    };
    const llmWarning = settings.querySelector<HTMLElement>('[data-testid="llm-key-warning"]')!;
    const qdrantWarning = settings.querySelector<HTMLElement>('[data-testid="qdrant-key-warning"]')!;
    type('#set-llm-url', 'http://llm.lan:8080/v1');
    type('#set-llm-key', 'sk-typed');
    await until(() => !llmWarning.hidden, 'the LLM warning');
    expect(llmWarning.textContent).toMatch(/LLM API key goes to http:\/\/llm\.lan:8080\/v1 over plain http:\/\/.*use https:\/\//);
    expect(settings.querySelector('#set-llm-url')?.getAttribute('aria-describedby')).toBe(llmWarning.id);
    type('#set-llm-url', 'http://127.0.0.1:8080/v1');
    await until(() => llmWarning.hidden, 'no warning for this computer');
    type('#set-llm-url', 'https://llm.lan/v1');
    await new Promise((r) => setTimeout(r, 400));
    expect(llmWarning.hidden).toBe(true);

    click(settings.querySelector('#qdrant-remote'));
    type('#set-qdrant-url', 'http://qdrant.lan:6334');
    type('#set-qdrant-key', 'q-typed');
    await until(() => !qdrantWarning.hidden, 'the Qdrant warning');
    expect(qdrantWarning.textContent).toMatch(/Qdrant API key goes to http:\/\/qdrant\.lan:6334/);
    click(settings.querySelector('#qdrant-embedded'));
    await until(() => qdrantWarning.hidden, 'no warning for the embedded index');
    type('#set-llm-key', '');
    type('#set-qdrant-key', '');
  });

  it('corrects a card in the library, shows the engine’s refusal in words, and refreshes the tree header', async () => {
    location.hash = '#library';
    await until(() => !view('library').hidden, 'the library');
    const row = () =>
      [...view('library').querySelectorAll<HTMLElement>('.doc')].find((d) => d.querySelector('.doc-name')?.textContent === '3M_2018_10K')!;
    click(row().querySelector('[data-testid="edit-card"]'));
    const dialog = await until(() => document.querySelector<HTMLDialogElement>('[data-testid="card-editor"]'), 'the card editor');
    const year = dialog.querySelector<HTMLInputElement>('#card-fiscal-year')!;
    expect(year.value).toBe('2018');
    expect(dialog.querySelector('label[for="card-fiscal-year"]')?.textContent).toMatch(/guessed/);
    year.value = 'twenty';
    click(dialog.querySelector('[data-testid="card-save"]'));
    const refusal = await until(() => dialog.querySelector<HTMLElement>('.message:not([hidden])'), 'the refusal');
    expect(refusal.textContent).toBe('The card was not saved: fiscal_year cannot be `twenty`: a year such as 2018');
    year.value = '2019';
    dialog.querySelector<HTMLSelectElement>('#card-fiscal-quarter')!.value = '4';
    click(dialog.querySelector('[data-testid="card-save"]'));
    await until(() => !document.querySelector('[data-testid="card-editor"]'), 'the editor to close');
    await until(() => /Q4 fiscal year 2019/.test(row().querySelector('[data-testid="doc-card"]')?.textContent ?? ''), 'the corrected row');
    expect(row().querySelector('.card-part.corrected')?.textContent).toMatch(/^Q4 fiscal year 2019/);
    expect(row().querySelector('.card-part.unsure')).toBeNull();
    // Only the changed fields were corrected; the guessed period end stays a guess.
    const stored = (await demo.invoke('list_documents', {})).find((d) => d.name === '3M_2018_10K')!.card!;
    expect(stored.corrected).toEqual(['fiscal_year', 'fiscal_quarter']);
    expect(stored.unsure).toEqual(['period_end']);

    // The tree header shows every field, and its own Edit card refreshes it.
    click([...row().querySelectorAll('button')].find((b) => b.textContent === 'Show tree'));
    await until(() => !view('tree').hidden, 'the tree view');
    const header = await until(
      () => view('tree').querySelector<HTMLElement>('[data-testid="tree-card"]:not([hidden])'),
      'the tree header',
    );
    await until(() => /Q4 fiscal year 2019/.test(header.textContent ?? ''), 'the 3M card above the tree');
    expect(header.querySelector('[data-field="fiscal_year"]')?.classList.contains('corrected')).toBe(true);
    expect(header.querySelector('[data-field="period_end"] dd')?.textContent).toMatch(/^2018-12-31\?/);
    expect(header.querySelector('[data-field="aliases"] dd')?.textContent).toBe('3M, MMM');
    click(header.querySelector('[data-testid="tree-edit-card"]'));
    const again = await until(() => document.querySelector<HTMLDialogElement>('[data-testid="card-editor"]'), 'the editor');
    again.querySelector<HTMLInputElement>('#card-organization')!.value = '3M Co.';
    click(again.querySelector('[data-testid="card-save"]'));
    await until(() => /^3M Co\./.test(view('tree').querySelector('[data-testid="tree-card"] h3')?.textContent ?? ''), 'the header to refresh');
  });
  it('filters and sorts the library, and asks about the selected documents only', async () => {
    location.hash = '#library';
    await until(() => !view('library').hidden, 'the library');
    const library = view('library');
    const filter = library.querySelector<HTMLInputElement>('[data-testid="library-filter"]')!;
    const sort = library.querySelector<HTMLSelectElement>('[data-testid="library-sort"]')!;
    const count = library.querySelector('[data-testid="library-count"]')!;
    await until(() => shownNames().length === 3, 'three documents');
    sort.value = 'pages';
    sort.dispatchEvent(new Event('change'));
    expect(shownNames()[0]).toBe('BOEING_2022_10K');
    // The card's words find a document its name does not.
    type(filter, 'mmm annual');
    await until(() => shownNames().length === 1, 'the list to narrow');
    expect(shownNames()).toEqual(['3M_2018_10K']);
    expect(count.textContent).toBe('1 of 3 documents');
    type(filter, 'no such thing');
    await until(() => !library.querySelector<HTMLElement>('[data-testid="library-no-match"]')!.hidden, 'no match');
    filter.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(filter.value).toBe('');
    expect(shownNames()).toHaveLength(3);
    type(filter, '3M');
    await until(() => shownNames().length === 1, 'the 3M filing');

    const only = library.querySelector<HTMLButtonElement>('[data-testid="library-search-only"]')!;
    expect(only.disabled).toBe(true);
    const mmmId = (await demo.invoke('list_documents', {})).find((d) => d.name === '3M_2018_10K')!.id;
    click(library.querySelector(`[data-testid="library-select-${mmmId}"]`));
    expect(library.querySelector('[data-testid="library-selection"]')?.textContent).toBe('1 selected');
    click(only);
    await until(() => !view('ask').hidden, 'the ask view');
    const chip = view('ask').querySelector<HTMLElement>('[data-testid="ask-scope"]')!;
    expect(chip.hidden).toBe(false);
    expect(chip.textContent).toBe('Searching only: 3M_2018_10K (clear)');
    // Compare searches the same documents, and says so.
    expect(view('compare').querySelector<HTMLElement>('[data-testid="compare-scope"]')?.hidden).toBe(false);

    click([...view('ask').querySelectorAll('button')].find((b) => b.textContent === 'New conversation'));
    const q = view('ask').querySelector<HTMLTextAreaElement>('[data-testid="ask-question"]')!;
    q.value = 'What were Boeing’s total revenues in 2022?';
    click(view('ask').querySelector('[data-testid="ask-send"]'));
    const sources = await until(
      () => view('ask').querySelector('[data-testid="answer"][aria-busy="false"] [data-testid="answer-sources"]'),
      'where the answer came from',
    );
    expect(sources.textContent).toMatch(/^From the document 3M_2018_10K \(\d+ pages?\) · searched only the 1 chosen$/);
    const asked = sent.filter((c) => c.command === 'ask').pop()?.args as CommandArgs<'ask'>;
    expect(asked.settings.documents).toEqual([mmmId]);

    click(chip.querySelector('[data-testid="ask-scope-clear"]'));
    expect(chip.hidden).toBe(true);
    const asks = sent.filter((c) => c.command === 'ask').length;
    q.value = 'What were Boeing’s total revenues in 2022?';
    click(view('ask').querySelector('[data-testid="ask-send"]'));
    await until(() => sent.filter((c) => c.command === 'ask').length === asks + 1, 'the second question');
    expect((sent.filter((c) => c.command === 'ask').pop()?.args as CommandArgs<'ask'>).settings.documents).toBeNull();
    location.hash = '#library';
    await until(() => !view('library').hidden, 'the library');
    type(filter, '');
    sort.value = 'name';
    sort.dispatchEvent(new Event('change'));
    await until(() => shownNames().length === 3, 'every document again');
  });

  it('times a queue of files and removes many documents, naming the ones that could not go', async () => {
    location.hash = '#library';
    await until(() => !view('library').hidden, 'the library');
    const library = view('library');
    const status = library.querySelector<HTMLElement>('[data-testid="ingest-status"]')!;
    // The double would finish both files between two frames; held, the first one waits
    // until the status has shown the batch's count, its pages and the file waiting.
    const release = demo.holdIngestion();
    demo.emit('library://dropped', { paths: ['/tmp/EXTRA_A.pdf', '/tmp/EXTRA_B.pdf'] });
    try {
      await until(
        () => /^Adding 1 of 2 files · \d+ of 20 pages · /.test(status.textContent ?? ''),
        'the batch’s progress in files and pages',
      );
      const waiting = library.querySelector('.doc[data-status="waiting"]');
      expect(waiting?.textContent).toMatch(/EXTRA_B/);
      expect(waiting?.querySelector('.doc-pages')?.textContent).toBe('10 pages');
    } finally {
      release();
    }
    await until(() => library.querySelectorAll('.doc[data-status="ready"]').length === 5, 'five documents');
    await until(() => status.textContent === '', 'the batch to end');
    const batch = library.querySelector<HTMLElement>('[data-testid="ingest-outcome"]')!;
    expect(batch.hidden).toBe(false);
    expect(batch.textContent).toMatch(/^2 added/);
    click(batch.querySelector('button'));
    expect(batch.hidden).toBe(true);

    const records = await demo.invoke('list_documents', {});
    const idOf = (name: string) => records.find((d) => d.name === name)!.id;
    const filter = library.querySelector<HTMLInputElement>('[data-testid="library-filter"]')!;
    // 3M is still selected from searching it alone.
    expect(library.querySelector('[data-testid="library-selection"]')?.textContent).toBe('1 selected');
    click(library.querySelector('[data-testid="library-clear-selection"]'));
    type(filter, 'extra');
    await until(() => shownNames().length === 2, 'the two extras');
    click(library.querySelector('[data-testid="library-select-all"]'));
    type(filter, 'new_filing');
    await until(() => shownNames().length === 1, 'the new filing');
    click(library.querySelector(`[data-testid="library-select-${idOf('NEW_FILING')}"]`));
    expect(library.querySelector('[data-testid="library-selection"]')?.textContent).toBe('3 selected (2 hidden by the filter)');
    type(filter, '');
    fail = (command, args) =>
      command === 'delete_document' && (args as CommandArgs<'delete_document'>).key === String(idOf('EXTRA_B'))
        ? 'EXTRA_B is locked by another PageTree process (demo error).'
        : null;
    click(library.querySelector('[data-testid="library-remove-selected"]'));
    const dialog = await until(() => document.querySelector<HTMLDialogElement>('dialog.confirm'), 'the confirmation');
    expect(dialog.querySelector('h2')?.textContent).toBe('Remove 3 documents?');
    expect(dialog.querySelector('p')?.textContent).toMatch(/^These 3 documents \(NEW_FILING, EXTRA_A, EXTRA_B\) leave the library/);
    click(dialog.querySelector('button.danger'));
    const outcome = await until(
      () => library.querySelector<HTMLElement>('[data-testid="library-remove-outcome"]:not([hidden])'),
      'the outcome',
    );
    fail = () => null;
    expect(outcome.querySelector('p')?.textContent).toBe('2 documents removed; 1 could not be removed');
    expect(outcome.querySelector('li')?.textContent).toBe('EXTRA_B: EXTRA_B is locked by another PageTree process (demo error).');
    const deletes = sent.filter((c) => c.command === 'delete_document').map((c) => (c.args as CommandArgs<'delete_document'>).key);
    expect(deletes).toEqual(['NEW_FILING', 'EXTRA_A', 'EXTRA_B'].map((n) => String(idOf(n))));
    await until(() => shownNames().length === 3, 'the documents left');
    expect(shownNames()).toEqual(['3M_2018_10K', 'BOEING_2022_10K', 'EXTRA_B']);
    // The one that could not go stays selected, to try again.
    expect(library.querySelector('[data-testid="library-selection"]')?.textContent).toBe('1 selected');
  });

  it('unticks and disables a strategy that cannot run, with the reason beside it, until it can', async () => {
    const { setSettings, state } = await import('./app');
    const saved = state.settings!;
    const box = () => view('compare').querySelector<HTMLInputElement>('#use-proxy-pointer')!;
    const why = () => view('compare').querySelector<HTMLElement>('[data-testid="unavailable-proxy-pointer"]')!;
    expect(box().checked).toBe(true);
    expect(why().hidden).toBe(true);
    setSettings({ ...saved, llm_model: null });
    expect(box().checked).toBe(false);
    expect(box().disabled).toBe(true);
    expect(why().hidden).toBe(false);
    expect(why().textContent).toMatch(/language model/);
    expect(view('compare').querySelector<HTMLInputElement>('#use-flat')?.disabled).toBe(false);
    setSettings(saved);
    expect(box().disabled).toBe(false);
    expect(box().checked).toBe(true);
    expect(why().hidden).toBe(true);
  });

  it('lists the model servers on this computer, saves one in a click, and serves a model file until stopped', async () => {
    location.hash = '#library';
    await until(() => view('settings').hidden, 'the library view');
    location.hash = '#settings';
    await until(() => !view('settings').hidden && !view('settings').hasAttribute('aria-busy'), 'settings');
    const settings = view('settings');
    const use = await until(
      () => settings.querySelector<HTMLButtonElement>('[data-testid="use-local-model"][data-model="qwen2.5:7b"]'),
      'the detected Ollama models',
    );
    expect(settings.querySelector('[data-testid="local-servers"]')?.textContent).toMatch(/^Ollama at http:\/\/127\.0\.0\.1:11434\/v1/);
    click(use);
    await until(() => sent.some((c) => c.command === 'save_settings' && (c.args as CommandArgs<'save_settings'>).settings.llm_model === 'qwen2.5:7b'), 'the save');
    await until(() => settings.querySelector('.save-result.ok'), 'saved');
    const saved = await demo.invoke('get_settings', {});
    expect([saved.llm_base_url, saved.llm_model]).toEqual(['http://127.0.0.1:11434/v1', 'qwen2.5:7b']);

    const status = settings.querySelector<HTMLElement>('[data-testid="model-file-status"]')!;
    click(settings.querySelector('[data-testid="use-model-file"]'));
    await until(() => status.dataset.state === 'running', 'the model file served');
    expect(status.dataset.pid).toBe('4242');
    expect(status.textContent).toMatch(/Serving .*SmolLM2-135M-Instruct\.Q4_1\.gguf with llama-server \(process 4242\)/);
    expect(settings.querySelector<HTMLInputElement>('#set-llm-url')?.value).toBe('http://127.0.0.1:41234/v1');
    expect(settings.querySelector<HTMLInputElement>('#set-llm-model')?.value).toBe('SmolLM2-135M-Instruct.Q4_1');
    const stop = settings.querySelector<HTMLButtonElement>('[data-testid="stop-model-file"]')!;
    expect(stop.hidden).toBe(false);
    click(stop);
    await until(() => status.dataset.state === 'off', 'the model file stopped');
    expect(stop.hidden).toBe(true);
    expect(settings.querySelector<HTMLInputElement>('#set-llm-url')?.value).toBe('');

    // Back to the demo's model, for the tests after this one.
    await demo.invoke('save_settings', { settings: { ...saved, llm_base_url: 'http://127.0.0.1:8080/v1', llm_model: 'demo-model' } });
    const { setSettings } = await import('./app');
    setSettings(await demo.invoke('get_settings', {}));
  });
});
