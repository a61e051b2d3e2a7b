// Removing many documents: one `delete_document` at a time (the engine writes one
// library at a time anyway), and a failure is reported for its document without
// stopping the others.

import { errorMessage, type DocumentRecord } from './api';

export interface RemovalReport {
  removed: DocumentRecord[];
  failed: { doc: DocumentRecord; error: string }[];
}

/**
 * Removes `docs` in order through `remove` (the document's id as key, as the shell
 * takes it); `onEach` hears of every outcome as it happens, for a live count.
 */
export async function removeEach(
  docs: readonly DocumentRecord[],
  remove: (key: string) => Promise<DocumentRecord>,
  onEach: (done: number, total: number) => void = () => {},
): Promise<RemovalReport> {
  const report: RemovalReport = { removed: [], failed: [] };
  for (const doc of docs) {
    try {
      report.removed.push(await remove(String(doc.id)));
    } catch (err) {
      report.failed.push({ doc, error: errorMessage(err) });
    }
    onEach(report.removed.length + report.failed.length, docs.length);
  }
  return report;
}

/** What to tell the user afterwards: a summary, and one line per failure. */
export function removalSummary(report: RemovalReport): { summary: string; failures: string[] } {
  const n = report.removed.length;
  const removed = `${n} ${n === 1 ? 'document' : 'documents'} removed`;
  const failures = report.failed.map((f) => `${f.doc.name}: ${f.error}`);
  if (report.failed.length === 0) return { summary: removed, failures };
  const m = report.failed.length;
  return { summary: `${removed}; ${m} could not be removed`, failures };
}

/** The confirmation's wording, naming the count (and the documents when few). */
export function removalQuestion(docs: readonly DocumentRecord[]): { title: string; message: string } {
  const n = docs.length;
  const only = docs[0];
  if (n === 1 && only) {
    return {
      title: `Remove ${only.name}?`,
      message: `${only.file_name} leaves the library: its pages, tree and index entries are deleted. The PDF file itself stays where it is.`,
    };
  }
  const names = n <= 5 ? ` (${docs.map((d) => d.name).join(', ')})` : '';
  return {
    title: `Remove ${n} documents?`,
    message: `These ${n} documents${names} leave the library: their pages, trees and index entries are deleted. The PDF files themselves stay where they are.`,
  };
}
