// The line above search results that says what the question named (organisations,
// years, kinds of document) and how the search used it (a filter, documents ranked up).

import type { DocumentRecord, QuestionAnalysis } from '../api';
import { analysisLine, scopeText } from '../analysis';
import { h } from '../dom';

/** The banner, or null when the search did not analyse its question (documents were chosen). */
export function analysisBanner(analysis: QuestionAnalysis | null, documents: readonly DocumentRecord[]): HTMLElement | null {
  if (!analysis) return null;
  const scope = scopeText(analysis, documents);
  const used = analysis.filter !== null || analysis.boosts.length > 0;
  return h(
    'p',
    { class: `analysis-banner${used ? ' used' : ''}`, role: 'note', 'data-testid': 'analysis-banner' },
    h('strong', {}, 'Question analysis: '),
    analysisLine(analysis),
    scope ? h('span', { class: 'analysis-scope' }, ` (${scope})`) : null,
  );
}
