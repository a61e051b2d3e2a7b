// Test data: a ready document record with plausible fields, for unit tests of what the
// UI does with the library's documents.

import type { DocumentRecord } from './api';

export function documentRecord(id: number, name: string, extra: Partial<DocumentRecord> = {}): DocumentRecord {
  return {
    id,
    name,
    file_name: `${name}.pdf`,
    path: `/docs/${name}.pdf`,
    content_hash: `h${id}`,
    page_count: 10,
    pages_without_text: 0,
    pages_read_by_ocr: 0,
    pages_needing_ocr: 0,
    node_count: 12,
    status: 'ready',
    error: null,
    describer: null,
    warnings: null,
    card: null,
    language: null,
    added_at: `2026-01-0${id % 10}T10:00:00Z`,
    updated_at: `2026-01-0${id % 10}T10:00:00Z`,
    ...extra,
  };
}
