import { describe, expect, it } from 'vitest';
import type { IngestFinished, IngestProgress, Strategy } from './api';
import { defaultFusion, defaultStrategies } from './api';
import { DemoBackend, kneeCut } from './api-double';
import { findCitations } from './citations';
import { indexTree, visibleRows, expandableIds } from './tree-model';

const settings = { fusion: defaultFusion(), token_budget: null, documents: null };

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
      if (t.requestId === 'r1') pieces.push(t.piece);
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
    expect(outcome.answer.citations[0]).toEqual({ document: 'BOEING_2022_10K', page: 34 });
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
    await demo.invoke('ingest_paths', { paths: ['/tmp/NEW_REPORT.pdf', '/tmp/broken_scan.pdf'] });
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
