import { describe, expect, it } from 'vitest';
import { reflow } from './reflow';

describe('reflow', () => {
  it('joins the lines of a sentence and keeps its length', () => {
    const text =
      'At the Annual Meeting, shareholders voted on the\nfour proposals set forth below, par\r\nvalue $0.01.';
    const flowed = reflow(text);
    expect(flowed).toBe('At the Annual Meeting, shareholders voted on the four proposals set forth below, par  value $0.01.');
    expect(flowed.length).toBe(text.length);
  });

  it('keeps headings, table rows, list items and blank lines on lines of their own', () => {
    const text = [
      'Item 5.07. Submission of Matters to a Vote',
      'Name Votes For Votes Against',
      'Virginia C. Drosos 59,657,810 294,935',
      '(6) (5) (6)',
      '- first item',
      'Results:',
      'approved by a majority of the informa-',
      'tion given,',
      '',
      'next paragraph.',
    ].join('\n');
    expect(reflow(text)).toBe(text);
  });

  it('reads lower-case letters of any script', () => {
    expect(reflow('Компания сообщила о\nвыручке')).toBe('Компания сообщила о выручке');
    expect(reflow('los ingresos de la\nempresa')).toBe('los ingresos de la empresa');
  });
});
