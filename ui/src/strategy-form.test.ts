import { describe, expect, it } from 'vitest';
import { DEFAULT_SECTION_SCORING, defaultFusion, defaultStrategies, STRATEGY_NAMES, type Fusion, type Strategy } from './api';
import {
  completeStrategies,
  describeFusion,
  describeStrategy,
  fusionFromJson,
  runSettings,
  sectionScoringLabel,
  STRATEGY_FIELDS,
  STRATEGY_HELP,
  STRATEGY_LABELS,
  settingsToValues,
  strategyFromJson,
  strategyToValues,
  valuesToSettings,
  valuesToStrategy,
} from './strategy-form';

describe('strategy ↔ form values', () => {
  it('round-trips every default strategy', () => {
    for (const s of defaultStrategies()) {
      const parsed = valuesToStrategy(s.name, strategyToValues(s));
      expect(parsed).toEqual({ ok: true, value: s });
    }
  });

  it('writes the engine JSON shape', () => {
    expect(valuesToStrategy('sensitive-knee', { sensitivity: '0.6', max_roots: '12' })).toEqual({
      ok: true,
      value: { name: 'sensitive-knee', sensitivity: 0.6, max_roots: 12 },
    });
    expect(valuesToStrategy('proxy-pointer', { proxies: ' 8 ' })).toEqual({
      ok: true,
      value: { name: 'proxy-pointer', proxies: 8 },
    });
    expect(valuesToStrategy('largest-gap', { max_roots: '12' })).toEqual({
      ok: true,
      value: { name: 'largest-gap', max_roots: 12 },
    });
    expect(valuesToStrategy('collapsed-tree', { depth: '30' })).toEqual({
      ok: true,
      value: { name: 'collapsed-tree', depth: 30 },
    });
  });

  it('gives every strategy a label, a one-line description and its fields', () => {
    for (const name of STRATEGY_NAMES) {
      expect(STRATEGY_LABELS[name]).not.toBe('');
      expect(STRATEGY_HELP[name]).not.toMatch(/\n/);
      expect(STRATEGY_FIELDS[name].length).toBeGreaterThan(0);
    }
    expect(STRATEGY_LABELS['largest-gap']).toBe('Largest gap');
    expect(STRATEGY_FIELDS['collapsed-tree'].map((f) => f.key)).toEqual(['depth']);
  });

  it('reports wrong fields', () => {
    const r = valuesToStrategy('sensitive-knee', { sensitivity: '1.5', max_roots: '2.5' });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.sensitivity).toMatch(/between 0 and 1/);
      expect(r.errors.max_roots).toMatch(/whole number/);
    }
    const empty = valuesToStrategy('flat', { k: '' });
    expect(!empty.ok && empty.errors.k).toMatch(/required/);
    const zero = valuesToStrategy('beam', { width: '0' });
    expect(zero.ok).toBe(false);
  });
});

describe('strategyFromJson', () => {
  it('accepts valid JSON and rejects the rest', () => {
    expect(strategyFromJson({ name: 'knee', max_roots: 20 })).toEqual({ name: 'knee', max_roots: 20 });
    expect(strategyFromJson({ name: 'knee' })).toBeNull();
    expect(strategyFromJson({ name: 'largest-gap', max_roots: 40 })).toEqual({ name: 'largest-gap', max_roots: 40 });
    expect(strategyFromJson({ name: 'collapsed-tree', depth: 0 })).toBeNull();
    expect(strategyFromJson({ name: 'magic', k: 3 })).toBeNull();
    expect(strategyFromJson('knee')).toBeNull();
    expect(strategyFromJson(null)).toBeNull();
  });

  it('drops unknown fields', () => {
    expect(strategyFromJson({ name: 'flat', k: 3, extra: true })).toEqual({ name: 'flat', k: 3 });
  });
});

describe('completeStrategies', () => {
  it('fills in defaults in the standard order', () => {
    const given: Strategy[] = [{ name: 'beam', width: 7 }];
    const all = completeStrategies(given);
    expect(all.map((s) => s.name)).toEqual([
      'flat',
      'branch',
      'beam',
      'knee',
      'sensitive-knee',
      'largest-gap',
      'collapsed-tree',
      'proxy-pointer',
    ]);
    expect(all.find((s) => s.name === 'largest-gap')).toEqual({ name: 'largest-gap', max_roots: 10 });
    expect(all.find((s) => s.name === 'collapsed-tree')).toEqual({ name: 'collapsed-tree', depth: 40 });
    expect(all[2]).toEqual({ name: 'beam', width: 7 });
    expect(all[0]).toEqual({ name: 'flat', k: 10 });
    expect(completeStrategies(null)).toEqual(defaultStrategies());
  });
});

describe('search settings', () => {
  it('starts from the engine defaults: min–max, equal weights, best-page sections', () => {
    expect(valuesToSettings({ rrfK: '60', tokenBudget: '' })).toEqual({
      ok: true,
      value: {
        fusion: { method: 'min-max', rrf_k: 60, dense_weight: 1, sparse_weight: 1 },
        section_scoring: 'best-page',
        token_budget: null,
        documents: null,
      },
    });
    const withBudget = valuesToSettings({ rrfK: '2', tokenBudget: '4000' }, [3]);
    expect(withBudget.ok && withBudget.value.token_budget).toBe(4000);
    expect(withBudget.ok && withBudget.value.documents).toEqual([3]);
  });

  it('reads the fusion method and the section scoring', () => {
    const r = valuesToSettings({ rrfK: '2', tokenBudget: '', fusionMethod: 'min-max', sectionScoring: 'own-text' });
    expect(r.ok && r.value.fusion.method).toBe('min-max');
    expect(r.ok && r.value.section_scoring).toBe('own-text');
    const bad = valuesToSettings({ rrfK: '2', tokenBudget: '', fusionMethod: 'borda', sectionScoring: 'mean' });
    expect(!bad.ok && Object.keys(bad.errors).sort()).toEqual(['fusionMethod', 'sectionScoring']);
  });

  it('rejects bad numbers', () => {
    const r = valuesToSettings({ rrfK: '-1', tokenBudget: 'lots', fusionMethod: 'rrf' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.errors).sort()).toEqual(['rrfK', 'tokenBudget']);
    // The shell refuses k = 0: the best rank would score 1/0.
    const zero = valuesToSettings({ rrfK: '0', tokenBudget: '', fusionMethod: 'rrf' });
    expect(!zero.ok && zero.errors.rrfK).toMatch(/1 or more/);
  });

  it('ignores the k a score fusion does not use, keeping the base one', () => {
    const base: Fusion = { method: 'rrf', rrf_k: 7, dense_weight: 1, sparse_weight: 1 };
    for (const rrfK of ['', '-3', 'x']) {
      const r = valuesToSettings({ rrfK, tokenBudget: '', fusionMethod: 'dbsf' }, null, base);
      expect(r.ok && r.value.fusion).toEqual({ method: 'dbsf', rrf_k: 7, dense_weight: 1, sparse_weight: 1 });
    }
  });

  it('keeps the base fusion method when the form has no method input', () => {
    const base: Fusion = { method: 'min-max', rrf_k: 2, dense_weight: 2, sparse_weight: 1 };
    const r = valuesToSettings({ rrfK: '2', tokenBudget: '' }, null, base);
    expect(r.ok && r.value.fusion).toEqual(base);
  });

  it('round-trips through form values', () => {
    const settings = {
      fusion: { method: 'rrf' as const, rrf_k: 60, dense_weight: 0.5, sparse_weight: 2 },
      section_scoring: 'own-text' as const,
      token_budget: 3000,
      documents: null,
    };
    expect(valuesToSettings(settingsToValues(settings))).toEqual({ ok: true, value: settings });
    const dbsf = { ...settings, fusion: defaultFusion(), section_scoring: DEFAULT_SECTION_SCORING };
    expect(valuesToSettings(settingsToValues(dbsf))).toEqual({ ok: true, value: dbsf });
  });
});

describe('fusion', () => {
  it('reads a fusion saved before there was a method as RRF', () => {
    expect(fusionFromJson({ rrf_k: 60, dense_weight: 1, sparse_weight: 1 })).toEqual({
      method: 'rrf',
      rrf_k: 60,
      dense_weight: 1,
      sparse_weight: 1,
    });
    expect(fusionFromJson({ method: 'dbsf', rrf_k: 2, dense_weight: 1, sparse_weight: 0.5 })?.method).toBe('dbsf');
    expect(fusionFromJson({ method: 'borda', rrf_k: 2, dense_weight: 1, sparse_weight: 1 })).toBeNull();
    expect(fusionFromJson({ method: 'rrf' })).toBeNull();
    expect(fusionFromJson(undefined)).toBeNull();
  });

  it('names the fusion, with k only for RRF', () => {
    expect(describeFusion({ method: 'rrf', rrf_k: 2, dense_weight: 1, sparse_weight: 1 })).toBe('RRF k = 2');
    expect(describeFusion(defaultFusion())).toBe('Min–max');
    expect(describeFusion({ method: 'dbsf', rrf_k: 2, dense_weight: 1, sparse_weight: 0.5 })).toBe('DBSF');
    expect(describeFusion({ method: 'min-max', rrf_k: 2, dense_weight: 1, sparse_weight: 1 })).toBe('Min–max');
    // A result from a shell that sent no method.
    expect(describeFusion({ rrf_k: 60, dense_weight: 1, sparse_weight: 1 } as unknown as Fusion)).toBe('RRF k = 60');
    expect(sectionScoringLabel('best-page')).toBe('Best page');
    expect(sectionScoringLabel(undefined)).toBe('not recorded');
  });
});

describe('describing and history', () => {
  it('describes a strategy in one line', () => {
    expect(describeStrategy({ name: 'sensitive-knee', sensitivity: 0.85, max_roots: 20 })).toBe(
      'sensitive-knee · sensitivity 0.85 · max roots 20',
    );
    expect(describeStrategy({ name: 'collapsed-tree', depth: 40 })).toBe('collapsed-tree · depth 40');
  });

  it('reads a run record settings blob from before fusions and section scorings were a choice', () => {
    const blob = {
      strategy: { name: 'flat', k: 8 },
      search: { fusion: { rrf_k: 60, dense_weight: 1, sparse_weight: 1 }, token_budget: null, documents: [1] },
    };
    expect(runSettings(blob)).toEqual({
      strategy: { name: 'flat', k: 8 },
      search: {
        fusion: { method: 'rrf', rrf_k: 60, dense_weight: 1, sparse_weight: 1 },
        section_scoring: 'own-text',
        token_budget: null,
        documents: [1],
      },
    });
    expect(runSettings('nope')).toEqual({ strategy: null, search: null });
  });

  it('reads a run record settings blob with the new fields', () => {
    const search = {
      fusion: { method: 'min-max', rrf_k: 2, dense_weight: 1, sparse_weight: 0.5 },
      section_scoring: 'best-page',
      token_budget: 4000,
      documents: null,
    };
    expect(runSettings({ strategy: { name: 'largest-gap', max_roots: 40 }, search })).toEqual({
      strategy: { name: 'largest-gap', max_roots: 40 },
      search,
    });
  });
});
