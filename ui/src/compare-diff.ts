// What a comparison's strategies agree and disagree on: the pages every strategy put in
// its context, the pages only one did, and, when the pages that answer the question are
// known (a bench run asked it, or the person said), which strategies found them. Also the
// comparison as Markdown and JSON for export.

import type { ContextPage, DocumentRecord, GoldPage, SearchResult, StrategyName } from './api';
import { pageLabel, stem, uniquePages } from './format';

export type PageRef = Pick<ContextPage, 'doc_id' | 'file_name' | 'page'>;

export interface GoldOutcome {
  strategy: StrategyName;
  found: PageRef[];
  /** Found at least one gold page (the bench's hit). */
  hit: boolean;
  /** Share of the gold pages found. */
  recall: number;
}

export interface Difference {
  strategies: StrategyName[];
  /** Pages in every strategy's context (none when only one strategy ran). */
  everyone: PageRef[];
  /** Pages in exactly one strategy's context, per strategy (strategies with none left out). */
  onlyOne: { strategy: StrategyName; pages: PageRef[] }[];
  /** Set when the answering pages are known. */
  gold: { pages: PageRef[]; missing: GoldPage[]; outcomes: GoldOutcome[] } | null;
}

const key = (p: { doc_id: number; page: number }) => `${p.doc_id}:${p.page}`;

/** Gold pages as pages of the library's documents; those of unknown documents are `missing`. */
export function resolveGold(
  gold: GoldPage[],
  documents: DocumentRecord[],
): { pages: PageRef[]; missing: GoldPage[] } {
  const byName = new Map<string, DocumentRecord>();
  for (const d of documents) {
    byName.set(d.name.toLowerCase(), d);
    byName.set(stem(d.file_name).toLowerCase(), d);
  }
  const pages: PageRef[] = [];
  const missing: GoldPage[] = [];
  const seen = new Set<string>();
  for (const g of gold) {
    const doc = byName.get(g.document.toLowerCase());
    if (!doc) {
      missing.push(g);
      continue;
    }
    const page = { doc_id: doc.id, file_name: doc.file_name, page: g.page };
    if (!seen.has(key(page))) {
      seen.add(key(page));
      pages.push(page);
    }
  }
  return { pages, missing };
}

export function difference(
  results: SearchResult[],
  gold: { pages: PageRef[]; missing: GoldPage[] } | null,
): Difference {
  const pagesOf = results.map((r) => uniquePages(r.context.pages));
  const counts = new Map<string, number>();
  for (const pages of pagesOf) for (const p of pages) counts.set(key(p), (counts.get(key(p)) ?? 0) + 1);
  const everyone =
    results.length > 1 ? (pagesOf[0] ?? []).filter((p) => counts.get(key(p)) === results.length) : [];
  const onlyOne = results
    .map((r, i) => ({
      strategy: r.strategy.name,
      pages: (pagesOf[i] ?? []).filter((p) => results.length > 1 && counts.get(key(p)) === 1),
    }))
    .filter((o) => o.pages.length > 0);
  let goldPart: Difference['gold'] = null;
  if (gold && (gold.pages.length > 0 || gold.missing.length > 0)) {
    const wanted = new Set(gold.pages.map(key));
    goldPart = {
      ...gold,
      outcomes: results.map((r, i) => {
        const found = (pagesOf[i] ?? []).filter((p) => wanted.has(key(p)));
        return {
          strategy: r.strategy.name,
          found,
          hit: found.length > 0,
          recall: wanted.size === 0 ? 0 : found.length / wanted.size,
        };
      }),
    };
  }
  return { strategies: results.map((r) => r.strategy.name), everyone, onlyOne, gold: goldPart };
}

/**
 * Reads pages a person types: `NAME p. 12, 14; OTHER 3-5`, names as in the library
 * (document name or file name, any case). Returns an error in words when a part does not
 * read as a name followed by pages.
 */
export function parseGold(text: string): { ok: true; value: GoldPage[] } | { ok: false; error: string } {
  const out: GoldPage[] = [];
  for (const part of text.split(';').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(.*?)[\s,:]+(?:pp?\.?\s*)?(\d+(?:\s*[-–]\s*\d+)?(?:\s*,\s*\d+(?:\s*[-–]\s*\d+)?)*)$/i.exec(part);
    const name = m?.[1]?.trim().replace(/\.pdf$/i, '');
    if (!m || !name) {
      return { ok: false, error: `“${part}” is not a document followed by pages, e.g. “ACME_2023_10K p. 12, 14”` };
    }
    for (const span of (m[2] ?? '').split(',')) {
      const [a, b] = span.split(/[-–]/).map((n) => Number(n.trim()));
      if (a === undefined || !Number.isInteger(a) || a < 1) {
        return { ok: false, error: `“${span.trim()}” is not a page number` };
      }
      const end = b ?? a;
      if (!Number.isInteger(end) || end < a || end - a > 500) {
        return { ok: false, error: `“${span.trim()}” is not a page range` };
      }
      for (let page = a; page <= end; page++) out.push({ document: name, page });
    }
  }
  return { ok: true, value: out };
}

/** The typed form of gold pages, e.g. for prefilling the field from a bench run. */
export function formatGold(gold: GoldPage[]): string {
  const byDoc = new Map<string, number[]>();
  for (const g of gold) byDoc.set(g.document, [...(byDoc.get(g.document) ?? []), g.page]);
  return [...byDoc].map(([doc, pages]) => `${doc} p. ${pages.join(', ')}`).join('; ');
}

const pageList = (pages: PageRef[]) => (pages.length === 0 ? '–' : pages.map(pageLabel).join(', '));

/** One line per strategy: name, parameters' summary, pages, tokens, latency, gold found. */
export interface ComparisonExport {
  question: string;
  strategies: {
    name: StrategyName;
    strategy: SearchResult['strategy'];
    pages: string[];
    context_tokens: number;
    latency_ms: number;
    search_ms: number;
    stopped_because: string;
    gold_found: string[] | null;
  }[];
  every_strategy: string[];
  only_one: Record<string, string[]>;
  gold: string[] | null;
}

export function comparisonJson(question: string, results: SearchResult[], diff: Difference): ComparisonExport {
  const found = new Map(diff.gold?.outcomes.map((o) => [o.strategy, o.found.map(pageLabel)]) ?? []);
  return {
    question,
    strategies: results.map((r) => ({
      name: r.strategy.name,
      strategy: r.strategy,
      pages: uniquePages(r.context.pages).map(pageLabel),
      context_tokens: r.context.tokens,
      latency_ms: r.latency_ms,
      search_ms: r.search_ms,
      stopped_because: r.stopped_because,
      gold_found: found.get(r.strategy.name) ?? null,
    })),
    every_strategy: diff.everyone.map(pageLabel),
    only_one: Object.fromEntries(diff.onlyOne.map((o) => [o.strategy, o.pages.map(pageLabel)])),
    gold: diff.gold ? diff.gold.pages.map(pageLabel) : null,
  };
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function comparisonMarkdown(question: string, results: SearchResult[], diff: Difference): string {
  const gold = diff.gold;
  const lines = [`# Comparison: ${question}`, ''];
  const head = ['strategy', 'pages', 'context tokens', 'latency ms', ...(gold ? ['found the answer'] : [])];
  lines.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
  results.forEach((r, i) => {
    const outcome = gold?.outcomes[i];
    const row = [
      r.strategy.name,
      pageList(uniquePages(r.context.pages)),
      String(r.context.tokens),
      r.latency_ms.toFixed(1),
      ...(outcome ? [outcome.hit ? `yes (${pageList(outcome.found)})` : 'no'] : []),
    ];
    lines.push(`| ${row.map(cell).join(' | ')} |`);
  });
  lines.push('', `**Every strategy:** ${pageList(diff.everyone)}`, '');
  for (const o of diff.onlyOne) lines.push(`- **Only ${o.strategy}:** ${pageList(o.pages)}`);
  if (gold) lines.push('', `**Pages that answer it:** ${pageList(gold.pages)}`);
  return `${lines.join('\n')}\n`;
}
