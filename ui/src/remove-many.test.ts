import { describe, expect, it } from 'vitest';
import type { DocumentRecord } from './api';
import { removalQuestion, removalSummary, removeEach } from './remove-many';

const docs = [1, 2, 3].map((id) => ({ id, name: `D${id}`, file_name: `D${id}.pdf` }) as DocumentRecord);

describe('removing many documents', () => {
  it('removes one at a time, and a failure does not stop the others', async () => {
    const asked: string[] = [];
    const counts: string[] = [];
    const report = await removeEach(
      docs,
      async (key) => {
        asked.push(key);
        if (key === '2') throw 'D2 is being ingested; cancel it first.';
        return docs.find((d) => String(d.id) === key) as DocumentRecord;
      },
      (done, total) => counts.push(`${done}/${total}`),
    );
    expect(asked).toEqual(['1', '2', '3']);
    expect(counts).toEqual(['1/3', '2/3', '3/3']);
    expect(report.removed.map((d) => d.name)).toEqual(['D1', 'D3']);
    expect(report.failed).toEqual([{ doc: docs[1], error: 'D2 is being ingested; cancel it first.' }]);
    expect(removalSummary(report)).toEqual({
      summary: '2 documents removed; 1 could not be removed',
      failures: ['D2: D2 is being ingested; cancel it first.'],
    });
    expect(removalSummary({ removed: [docs[0]!], failed: [] }).summary).toBe('1 document removed');
  });

  it('asks naming the count, and the documents when they are few', () => {
    expect(removalQuestion(docs).title).toBe('Remove 3 documents?');
    expect(removalQuestion(docs).message).toMatch(/^These 3 documents \(D1, D2, D3\) leave the library/);
    expect(removalQuestion([docs[0]!]).title).toBe('Remove D1?');
    const many = Array.from({ length: 40 }, (_, i) => ({ id: i, name: `N${i}` }) as DocumentRecord);
    expect(removalQuestion(many).message).toMatch(/^These 40 documents leave/);
  });
});
