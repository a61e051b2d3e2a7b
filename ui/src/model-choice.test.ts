import { describe, expect, it } from 'vitest';
import type { DocumentRecord, DocumentStatus } from './api';
import { DENSE_MODELS, isDenseModelId, modelChange, modelChangeNote, reembeds } from './model-choice';
import { documentRecord } from './test-records';

function doc(id: number, pages: number, status: DocumentStatus = 'ready'): DocumentRecord {
  return documentRecord(id, `doc ${id}`, { page_count: pages, node_count: pages + 1, status, describer: 'extractive' });
}

describe('choosing the embedding model', () => {
  it('says nothing when the model stays', () => {
    expect(modelChangeNote('minilm', 'minilm', [doc(1, 100)])).toBe('');
  });

  it('records the model of an empty library without re-embedding', () => {
    const note = modelChangeNote('minilm', 'e5-small', []);
    expect(note).toContain('multilingual-e5-small');
    expect(note).not.toContain('re-embeds');
    // A document still being added or one that failed holds no vectors to redo.
    expect(modelChangeNote('minilm', 'e5-small', [doc(1, 50, 'failed')])).not.toContain('re-embeds');
  });

  it('announces a re-embedding with the pages it covers and its rough length', () => {
    const note = modelChangeNote('minilm', 'e5-small', [doc(1, 160), doc(2, 140), doc(3, 9, 'failed')]);
    expect(note).toContain('re-embeds the library’s 2 documents (300 pages) with multilingual-e5-small');
    expect(note).toContain('about 3 minutes');
    expect(modelChangeNote('e5-small', 'minilm', [doc(1, 160)])).toContain('under a minute');
    expect(modelChangeNote('minilm', 'e5-small', [doc(1, 20_000)])).toContain('about 3 hours');
  });

  it('re-embeds only a change of model over ready documents', () => {
    expect(reembeds('minilm', 'e5-small', [doc(1, 10)])).toBe(true);
    expect(reembeds('minilm', 'e5-small', [doc(1, 10, 'ingesting')])).toBe(false);
    expect(reembeds('e5-small', 'e5-small', [doc(1, 10)])).toBe(false);
  });

  it('knows the ids the shell sends', () => {
    expect(isDenseModelId('e5-small')).toBe(true);
    expect(isDenseModelId('minilm')).toBe(true);
    expect(isDenseModelId('bge')).toBe(false);
    expect(DENSE_MODELS['e5-small'].name).toBe('multilingual-e5-small');
  });
});

describe('modelChange', () => {
  it('asks to confirm only a change that re-embeds documents', () => {
    expect(modelChange('e5-small+minilm', 'e5-small+minilm', [doc(1, 10)])).toBe('none');
    expect(modelChange(null, 'minilm', [doc(1, 10)])).toBe('none');
    expect(modelChange('minilm', 'e5-small', [])).toBe('record');
    expect(modelChange('minilm', 'e5-small', [doc(1, 10, 'ingesting')])).toBe('record');
    expect(modelChange('e5-small+minilm', 'minilm', [doc(1, 10)])).toBe('reembed');
  });
});
