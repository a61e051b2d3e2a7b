import { describe, expect, it } from 'vitest';
import { defaultStrategies, type Strategy } from './api';
import {
  completeStrategies,
  describeStrategy,
  runSettings,
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
    expect(all.map((s) => s.name)).toEqual(['flat', 'branch', 'beam', 'knee', 'sensitive-knee', 'proxy-pointer']);
    expect(all[2]).toEqual({ name: 'beam', width: 7 });
    expect(all[0]).toEqual({ name: 'flat', k: 10 });
    expect(completeStrategies(null)).toEqual(defaultStrategies());
  });
});

describe('search settings', () => {
  it('reads RRF k and an optional budget', () => {
    expect(valuesToSettings({ rrfK: '60', tokenBudget: '' })).toEqual({
      ok: true,
      value: { fusion: { rrf_k: 60, dense_weight: 1, sparse_weight: 1 }, token_budget: null, documents: null },
    });
    const withBudget = valuesToSettings({ rrfK: '2', tokenBudget: '4000' }, [3]);
    expect(withBudget.ok && withBudget.value.token_budget).toBe(4000);
    expect(withBudget.ok && withBudget.value.documents).toEqual([3]);
  });

  it('rejects bad numbers', () => {
    const r = valuesToSettings({ rrfK: '-1', tokenBudget: 'lots' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.errors).sort()).toEqual(['rrfK', 'tokenBudget']);
  });

  it('round-trips through form values', () => {
    const settings = { fusion: { rrf_k: 60, dense_weight: 0.5, sparse_weight: 2 }, token_budget: 3000, documents: null };
    const back = valuesToSettings(settingsToValues(settings));
    expect(back).toEqual({ ok: true, value: settings });
  });
});

describe('describing and history', () => {
  it('describes a strategy in one line', () => {
    expect(describeStrategy({ name: 'sensitive-knee', sensitivity: 0.85, max_roots: 20 })).toBe(
      'sensitive-knee · sensitivity 0.85 · max roots 20',
    );
  });

  it('reads a run record settings blob', () => {
    const blob = {
      strategy: { name: 'flat', k: 8 },
      search: { fusion: { rrf_k: 60, dense_weight: 1, sparse_weight: 1 }, token_budget: null, documents: [1] },
    };
    expect(runSettings(blob)).toEqual({
      strategy: { name: 'flat', k: 8 },
      search: { fusion: { rrf_k: 60, dense_weight: 1, sparse_weight: 1 }, token_budget: null, documents: [1] },
    });
    expect(runSettings('nope')).toEqual({ strategy: null, search: null });
  });
});
