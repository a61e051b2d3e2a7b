import { describe, expect, it } from 'vitest';
import type { IngestFinished, IngestProgress, Strategy } from './api';
import { DEFAULT_SECTION_SCORING, defaultFusion, defaultStrategies } from './api';
import { DemoBackend, fuseSignals, kneeCut, largestGapCut } from './api-double';
import { findCitations } from './citations';
import { indexTree, visibleRows, expandableIds } from './tree-model';

const settings = { fusion: defaultFusion(), section_scoring: DEFAULT_SECTION_SCORING, token_budget: null, documents: null };

describe('kneeCut (ported from the engine)', () => {
  it('finds the elbow of a convex curve', () => {
    expect(kneeCut([1.0, 0.5, 0.3, 0.25, 0.22, 0.2, 0.19])).toEqual({ knee: 2, keep: 3 });
  });

  it('takes the earliest of equally distant points', () => {
    expect(kneeCut([1, 1, 1, 0.1, 0.1, 0.1])).toEqual({ knee: 2, keep: 3 });
  });

  it('keeps everything for short, flat or straight curves', () => {
    expect(kneeCut([]).keep).toBe(0);
    expect(kneeCut([0.5]).keep).toBe(1);
    expect(kneeCut([0.9, 0.1]).keep).toBe(2);
    expect(kneeCut([0.3, 0.3, 0.3, 0.3])).toEqual({ knee: null, keep: 4 });
    expect(kneeCut(Array.from({ length: 10 }, (_, i) => 1 - i * 0.1)).keep).toBe(10);
  });

  it('keeps more as sensitivity falls', () => {
    const scores = [1.0, 0.8, 0.5, 0.3, 0.2, 0.15, 0.1];
    expect(kneeCut(scores, 1)).toEqual(kneeCut(scores));
    expect(kneeCut(scores, 0).keep).toBe(scores.length);
    let previous = Infinity;
    for (const s of [0, 0.2, 0.4, 0.6, 0.8, 1]) {
      const { keep } = kneeCut(scores, s);
      expect(keep).toBeLessThanOrEqual(previous);
      previous = keep;
    }
  });
});

describe('largestGapCut (ported from the engine)', () => {
  it('keeps what is above the largest drop between neighbours', () => {
    // Drops 0.05, 0.05, 0.4, 0.05, 0.25: the largest is after the third point.
    expect(largestGapCut([0.9, 0.85, 0.8, 0.4, 0.35, 0.1])).toEqual({ knee: 2, keep: 3 });
    // One clear winner keeps exactly one.
    expect(largestGapCut([0.9, 0.2, 0.19, 0.18, 0.17]).keep).toBe(1);
  });

  it('takes the earliest of equal drops, and keeps all of a curve with none', () => {
    expect(largestGapCut([1, 0.5, 0])).toEqual({ knee: 0, keep: 1 });
    expect(largestGapCut([0.9, 0.1]).keep).toBe(1);
    expect(largestGapCut([0.4, 0.4, 0.4, 0.4, 0.4])).toEqual({ knee: null, keep: 5 });
    expect(largestGapCut([0.4]).keep).toBe(1);
    expect(largestGapCut([]).keep).toBe(0);
  });
});

describe('fuseSignals (the engine\'s fusions)', () => {
  const byId = (ranked: { id: number; score: number }[], id: number) => ranked.find((n) => n.id === id)?.score ?? NaN;

  it('fuses ranks with RRF as Qdrant does', () => {
    const signals = new Map([
      [1, { dense: 0.9, sparse: 0.1 }],
      [2, { dense: 0.5, sparse: 0 }],
      [3, { dense: 0.1, sparse: 7 }],
    ]);
    const ranked = fuseSignals([1, 2, 3], signals, { method: 'rrf', rrf_k: 2, dense_weight: 1, sparse_weight: 1 });
    // k = 2: position p scores 1 / (p + 2).
    expect(byId(ranked, 1)).toBeCloseTo(1 / 2 + 1 / 3);
    expect(byId(ranked, 3)).toBeCloseTo(1 / 4 + 1 / 2);
  });

  it('normalises each list by its mean and three deviations with DBSF', () => {
    // Dense 0.9, 0.6, 0.3: mean 0.6, deviation 0.3, bounds -0.3 and 1.5.
    const signals = new Map([
      [1, { dense: 0.9, sparse: 2 }],
      [2, { dense: 0.6, sparse: 4 }],
      [3, { dense: 0.3, sparse: 3 }],
    ]);
    const ranked = fuseSignals([1, 2, 3], signals, { method: 'dbsf', rrf_k: 2, dense_weight: 1, sparse_weight: 0 });
    expect(byId(ranked, 1)).toBeCloseTo(1.2 / 1.8);
    expect(byId(ranked, 3)).toBeCloseTo(0.6 / 1.8);
  });

  it('scales each list to 0–1 with min–max and weighs it', () => {
    const signals = new Map([
      [1, { dense: 0.8, sparse: 10 }],
      [2, { dense: 0.5, sparse: 0 }],
      [3, { dense: 0.2, sparse: 5 }],
    ]);
    const ranked = fuseSignals([1, 2, 3], signals, { method: 'min-max', rrf_k: 2, dense_weight: 2, sparse_weight: 1 });
    expect(ranked.map((n) => n.id)).toEqual([1, 2, 3]);
    expect(byId(ranked, 1)).toBeCloseTo(3);
    expect(byId(ranked, 2)).toBeCloseTo(1);
    expect(byId(ranked, 3)).toBeCloseTo(0.5);
  });

  it('keeps the size of a lead that RRF forgets', () => {
    const clear = new Map([
      [1, { dense: 0.9, sparse: 9 }],
      [2, { dense: 0.31, sparse: 1.2 }],
      [3, { dense: 0.3, sparse: 1.1 }],
      [4, { dense: 0.29, sparse: 1 }],
    ]);
    const even = new Map([
      [1, { dense: 0.9, sparse: 9 }],
      [2, { dense: 0.7, sparse: 7 }],
      [3, { dense: 0.5, sparse: 5 }],
      [4, { dense: 0.3, sparse: 3 }],
    ]);
    const curve = (signals: typeof clear, method: 'rrf' | 'dbsf' | 'min-max') =>
      fuseSignals([1, 2, 3, 4], signals, { method, rrf_k: 2, dense_weight: 1, sparse_weight: 1 }).map((n) => n.score);
    expect(curve(clear, 'rrf')).toEqual(curve(even, 'rrf'));
    for (const method of ['dbsf', 'min-max'] as const) {
      const [a, b] = [curve(clear, method), curve(even, method)];
      expect(a[0]! - a[1]!).toBeGreaterThan(b[0]! - b[1]!);
    }
  });
});

describe('DemoBackend', () => {
  it('carries cards, corrects them all-or-nothing, and analyses questions against them', async () => {
    const demo = new DemoBackend({ speed: 0 });
    const docs = await demo.invoke('list_documents', {});
    expect(docs.map((d) => d.card?.organization)).toEqual(['The Boeing Company', '3M Company']);
    await expect(demo.invoke('correct_card', { document: '3M_2018_10K', assignments: ['kind=10-Q', 'date=tomorrow'] })).rejects.toMatch(
      /date cannot be `tomorrow`/,
    );
    expect((await demo.invoke('list_documents', {}))[1]?.card?.kind).toBe('annual-report');
    const corrected = await demo.invoke('correct_card', { document: '2', assignments: ['kind=10-Q', 'fiscal_quarter=3'] });
    expect(corrected.card).toMatchObject({ kind: 'quarterly-report', fiscal_quarter: 3, corrected: ['kind', 'fiscal_quarter'] });

    const knee: Strategy = { name: 'knee', max_roots: 20 };
    const named = await demo.invoke('search', { question: 'How much did 3M pay in dividends?', strategy: knee, settings });
    expect(named.analysis?.filter).toEqual([2]);
    expect(new Set(named.context.pages.map((p) => p.doc_id))).toEqual(new Set([2]));
    // Told its documents, a search reads nothing into the question.
    const told = await demo.invoke('search', { question: 'How much did 3M pay?', strategy: knee, settings: { ...settings, documents: [1] } });
    expect(told.analysis).toBeNull();
  });

  it('says it is the demo', () => {
    expect(new DemoBackend({ speed: 0 }).demo).toBe(true);
  });

  it('holds two ready documents with consistent trees', async () => {
    const demo = new DemoBackend({ speed: 0 });
    const docs = await demo.invoke('list_documents', {});
    expect(docs).toHaveLength(2);
    for (const doc of docs) {
      expect(doc.status).toBe('ready');
      const tree = await demo.invoke('document_tree', { key: doc.name });
      expect(tree.nodes).toHaveLength(doc.node_count ?? -1);
      const index = indexTree(tree.nodes, tree.root_id);
      const rows = visibleRows(index, expandableIds(index));
      const pages = rows.filter((r) => r.node.level === 0).map((r) => r.node.page_start);
      expect(pages).toEqual(Array.from({ length: doc.page_count ?? 0 }, (_, i) => i + 1));
      for (const node of tree.nodes) {
        for (const kid of node.child_ids) {
          const child = tree.nodes.find((n) => n.id === kid);
          expect(child?.parent_id).toBe(node.id);
          expect(child!.page_start).toBeGreaterThanOrEqual(node.page_start);
          expect(child!.page_end).toBeLessThanOrEqual(node.page_end);
        }
      }
    }
  });

  it('rejects with a sentence for people', async () => {
    const demo = new DemoBackend({ speed: 0 });
    await expect(demo.invoke('document_tree', { key: 'NOPE' })).rejects.toMatch(/No document/);
    await expect(demo.invoke('page_text', { docId: 1, page: 999 })).rejects.toMatch(/has no page 999/);
  });

  it('runs every strategy with traces that match their selection', async () => {
    const demo = new DemoBackend({ speed: 0 });
    const { results, skipped } = await demo.invoke('compare', {
      question: 'What were Boeing total revenues in 2022?',
      strategies: defaultStrategies(),
      settings,
    });
    expect(skipped).toEqual([]);
    expect(results.map((r) => r.strategy.name)).toEqual(defaultStrategies().map((s) => s.name));
    for (const r of results) {
      expect(r.trace.length).toBeGreaterThan(0);
      expect(r.selected.length).toBeGreaterThan(0);
      expect(r.context.pages.length).toBeGreaterThan(0);
      expect(r.stopped_because).not.toBe('');
      for (const step of r.trace) {
        expect(step.kept).toBeLessThanOrEqual(step.candidates.length);
        for (let i = 1; i < step.candidates.length; i++) {
          expect(step.candidates[i - 1]!.score).toBeGreaterThanOrEqual(step.candidates[i]!.score);
        }
      }
    }
    const flat = results.find((r) => r.strategy.name === 'flat');
    const flatDefault = defaultStrategies().find((s) => s.name === 'flat');
    expect(flat?.selected).toHaveLength(flatDefault?.name === 'flat' ? flatDefault.k : -1);
    // The page about revenues ranks first.
    expect(flat?.context.pages.map((p) => p.page)).toContain(34);
  });

  it('runs the new strategies: largest gap down the tree, the collapsed tree without overlaps', async () => {
    const demo = new DemoBackend({ speed: 0 });
    const question = 'What were Boeing total revenues in 2022?';
    const gap = await demo.invoke('search', { question, strategy: { name: 'largest-gap', max_roots: 40 }, settings });
    expect(gap.selected.length).toBeGreaterThan(0);
    let checked = 0;
    for (const step of gap.trace) {
      // The trace shows the best 60 only; the cut was made on all of them.
      if (step.candidates.length >= 60) continue;
      expect(step.kept).toBe(largestGapCut(step.candidates.map((c) => c.score)).keep);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
    const collapsed = await demo.invoke('search', { question, strategy: { name: 'collapsed-tree', depth: 40 }, settings });
    expect(collapsed.trace).toHaveLength(1);
    expect(collapsed.trace[0]!.candidates.length).toBeLessThanOrEqual(40);
    expect(collapsed.selected.length).toBeGreaterThan(0);
    const tree = await demo.invoke('document_tree', { key: 'BOEING_2022_10K' });
    const levelOf = new Map(tree.nodes.map((n) => [n.id, n.level]));
    const levels = new Set(collapsed.trace[0]!.candidates.map((c) => levelOf.get(c.id)));
    // Pages and sections ranked in one list.
    expect(levels.has(0) && levels.has(1)).toBe(true);
    for (const a of collapsed.selected) {
      for (const b of collapsed.selected) {
        if (a === b || a.doc_id !== b.doc_id) continue;
        expect(a.page_start > b.page_end || b.page_start > a.page_end).toBe(true);
      }
    }
    expect(collapsed.stopped_because).toMatch(/do not overlap/);
  });

  it('runs every fusion and section scoring, and settings from before them', async () => {
    const demo = new DemoBackend({ speed: 0 });
    const question = 'What were Boeing total revenues in 2022?';
    const knee: Strategy = { name: 'knee', max_roots: 40 };
    for (const method of ['rrf', 'dbsf', 'min-max'] as const) {
      for (const section_scoring of ['own-text', 'best-page'] as const) {
        const r = await demo.invoke('search', {
          question,
          strategy: knee,
          settings: { ...settings, fusion: { ...settings.fusion, method }, section_scoring },
        });
        expect(r.selected.length).toBeGreaterThan(0);
        expect(r.settings.fusion.method).toBe(method);
      }
    }
    const before = { fusion: { rrf_k: 2, dense_weight: 1, sparse_weight: 1 }, token_budget: null, documents: null };
    const old = await demo.invoke('search', { question, strategy: knee, settings: before as unknown as typeof settings });
    expect(old.selected.length).toBeGreaterThan(0);
    expect(old.trace[0]!.candidates.every((c) => Number.isFinite(c.score))).toBe(true);
  });

  it('lifts a section to its best page with best-page scoring', async () => {
    const demo = new DemoBackend({ speed: 0 });
    const question = 'What were Boeing total revenues in 2022?';
    const roots = async (section_scoring: 'own-text' | 'best-page') =>
      (await demo.invoke('search', { question, strategy: { name: 'beam', width: 3 }, settings: { ...settings, section_scoring } })).trace[0]!;
    const own = await roots('own-text');
    const best = await roots('best-page');
    // The section holding the revenue page (p.34) ranks higher on its page's evidence.
    const tree = await demo.invoke('document_tree', { key: 'BOEING_2022_10K' });
    const section = tree.nodes.find((n) => n.level === 1 && n.page_start <= 34 && n.page_end >= 34)!;
    const rankIn = (step: typeof own) => step.candidates.findIndex((c) => c.id === section.id);
    expect(rankIn(best)).toBe(0);
    expect(rankIn(own)).not.toBe(0);
  });

  it('keeps at least as much with a lower sensitivity', async () => {
    const demo = new DemoBackend({ speed: 0 });
    const run = (sensitivity: number) =>
      demo.invoke('search', {
        question: 'Boeing revenues deliveries 2022',
        strategy: { name: 'sensitive-knee', sensitivity, max_roots: 20 } as Strategy,
        settings,
      });
    const strict = await run(1);
    const loose = await run(0.3);
    expect(loose.trace[0]!.kept).toBeGreaterThanOrEqual(strict.trace[0]!.kept);
  });

  it('drops nodes to fit a token budget', async () => {
    const demo = new DemoBackend({ speed: 0 });
    const r = await demo.invoke('search', {
      question: 'revenues',
      strategy: { name: 'flat', k: 10 },
      settings: { ...settings, token_budget: 150 },
    });
    expect(r.context.tokens).toBeLessThanOrEqual(150);
    expect(r.context.dropped_nodes.length).toBeGreaterThan(0);
    expect(r.context.truncation).toMatch(/budget/);
  });

  it('streams an answer whose tokens add up to the text, with valid citations', async () => {
    const demo = new DemoBackend({ speed: 0 });
    const pieces: string[] = [];
    await demo.listen('ask://token', (t) => {
      if (t.request_id === 'r1') pieces.push(t.piece);
    });
    const outcome = await demo.invoke('ask', {
      question: 'What were Boeing’s total revenues in 2022?',
      strategy: { name: 'knee', max_roots: 20 },
      settings,
      conversationId: null,
      requestId: 'r1',
    });
    expect(pieces.join('')).toBe(outcome.answer.text);
    expect(outcome.answer.text).toContain('$66.6 billion');
    expect(findCitations(outcome.answer.text).length).toBeGreaterThan(0);
    // The number printed on the page comes with it from the context, as in the engine.
    expect(outcome.answer.citations[0]).toEqual({ document: 'BOEING_2022_10K', page: 34, page_label: '31' });
    expect(outcome.model).toBe('demo-model');
    const followUp = await demo.invoke('ask', {
      question: 'And deliveries?',
      strategy: { name: 'knee', max_roots: 20 },
      settings,
      conversationId: outcome.conversation_id,
      requestId: 'r2',
    });
    expect(followUp.conversation_id).toBe(outcome.conversation_id);
    const history = await demo.invoke('history', { search: 'revenues', limit: 50 });
    expect(history[0]?.answer?.text).toBe(outcome.answer.text);
  });

  it('answers without a model once the model is cleared, and skips proxy-pointer', async () => {
    const demo = new DemoBackend({ speed: 0 });
    const current = await demo.invoke('get_settings', {});
    await demo.invoke('save_settings', { settings: { ...current, llm_base_url: null, llm_model: null } });
    const outcome = await demo.invoke('ask', {
      question: 'How much did 3M pay in dividends?',
      strategy: { name: 'flat', k: 5 },
      settings,
      conversationId: null,
      requestId: 'x',
    });
    expect(outcome.model).toBeNull();
    expect(outcome.notes.join(' ')).toMatch(/No language model/);
    const compared = await demo.invoke('compare', { question: 'dividends', strategies: defaultStrategies(), settings });
    expect(compared.skipped[0]).toMatch(/proxy-pointer/);
  });

  it('ingests with progress through every stage, and can fail or be cancelled', async () => {
    const demo = new DemoBackend({ speed: 0 });
    const progress: IngestProgress[] = [];
    const finished: IngestFinished[] = [];
    await demo.listen('ingest://progress', (p) => progress.push(p));
    const done = new Promise<void>((resolve) => {
      void demo.listen('ingest://finished', (f) => {
        finished.push(f);
        if (finished.length === 2) resolve();
      });
    });
    // As the shell does, it says how many files it queued.
    expect(await demo.invoke('ingest_paths', { paths: ['/tmp/NEW_REPORT.pdf', '/tmp/broken_scan.pdf'] })).toBe(2);
    await done;
    expect([...new Set(progress.filter((p) => p.file === 'NEW_REPORT.pdf').map((p) => p.stage))]).toEqual([
      'reading',
      'describing',
      'summarising',
      'embedding',
      'indexing',
    ]);
    expect(finished[0]).toMatchObject({ file: 'NEW_REPORT.pdf', error: null });
    expect(finished[0]?.document?.status).toBe('ready');
    expect(finished[1]?.error).toMatch(/could not be read/);
    const docs = await demo.invoke('list_documents', {});
    expect(docs.map((d) => d.status)).toEqual(['ready', 'ready', 'ready', 'failed']);
  });

  it('holds a shelf of made-up filings for a library of hundreds', async () => {
    const docs = await new DemoBackend({ speed: 0, shelf: 60 }).invoke('list_documents', {});
    expect(docs).toHaveLength(62);
    expect(new Set(docs.map((d) => d.name)).size).toBe(62);
    const shelf = docs.slice(2);
    expect(new Set(shelf.map((d) => d.card?.organization)).size).toBeGreaterThan(10);
    expect(new Set(shelf.map((d) => d.card?.kind)).size).toBe(4);
    expect(shelf.every((d) => d.status === 'ready' && d.card?.fiscal_year !== null)).toBe(true);
  });

  it('moves to a remote Qdrant, and explains a server that cannot be reached', async () => {
    const demo = new DemoBackend({ speed: 0 });
    const current = await demo.invoke('get_settings', {});
    await expect(
      demo.invoke('save_settings', {
        settings: { ...current, qdrant_mode: 'remote', qdrant_url: 'http://offline.invalid:6334' },
      }),
    ).rejects.toMatch(/cannot be reached/);
    expect((await demo.invoke('get_settings', {})).qdrant_mode).toBe('embedded');
    const saved = await demo.invoke('save_settings', {
      settings: { ...current, qdrant_mode: 'remote', qdrant_url: 'http://q:6334', qdrant_api_key: 'secret' },
    });
    expect(saved.qdrant_mode).toBe('remote');
    expect(saved.qdrant_api_key).toBeNull();
  });
});
