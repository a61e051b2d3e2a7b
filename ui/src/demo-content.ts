// Canned content for the DemoBackend test double (./api-double.ts): the text of two
// made-up but plausible annual reports. Not real filings; figures are illustrative.

import type { DocumentCard } from './api';
import { emptyCard } from './card';

export interface DemoSection {
  title: string;
  first: number;
  last: number;
  topic: string;
  keywords: string[];
}

export interface DemoDocument {
  name: string;
  pages: number;
  sections: DemoSection[];
  /** Curated page texts (1-based page → text); other pages are generated from sections. */
  facts: Record<number, string>;
  /** Pages without a text layer. */
  blank: number[];
  warnings: string | null;
  /** What the card reader would have made of it. */
  card: DocumentCard | null;
  /** Its first pages, printed with roman numerals (i, ii, …) before page 1 is printed on
   * the next; 0 for a PDF without page labels. */
  frontMatter: number;
}

function card(fields: Partial<DocumentCard>): DocumentCard {
  return { ...emptyCard(), ...fields };
}

export const DEMO_DOCUMENTS: DemoDocument[] = [
  {
    name: 'BOEING_2022_10K',
    pages: 120,
    frontMatter: 3,
    warnings: null,
    card: card({
      title: 'The Boeing Company Annual Report on Form 10-K for 2022',
      organization: 'The Boeing Company',
      aliases: ['Boeing', 'BA'],
      kind: 'annual-report',
      fiscal_year: 2022,
      period_end: '2022-12-31',
      date: '2023-01-27',
    }),
    blank: [],
    sections: [
      { title: 'Cover and contents', first: 1, last: 3, topic: 'the annual report on Form 10-K', keywords: ['form 10-k', 'annual report', 'sec'] },
      { title: 'Item 1. Business', first: 4, last: 15, topic: 'the business and its segments', keywords: ['segments', 'commercial airplanes', 'customers'] },
      { title: 'Item 1A. Risk Factors', first: 16, last: 29, topic: 'risks to the business', keywords: ['risk', 'supply chain', 'regulation'] },
      { title: 'Item 7. Management’s Discussion and Analysis', first: 30, last: 55, topic: 'results of operations', keywords: ['revenues', 'deliveries', 'operating loss'] },
      { title: 'Liquidity and Capital Resources', first: 56, last: 64, topic: 'cash, debt and liquidity', keywords: ['cash', 'debt', 'liquidity'] },
      { title: 'Item 8. Financial Statements', first: 65, last: 76, topic: 'the consolidated financial statements', keywords: ['statements', 'balance sheet', 'cash flows'] },
      { title: 'Notes to the Financial Statements', first: 77, last: 116, topic: 'the notes to the financial statements', keywords: ['notes', 'accounting', 'inventories'] },
      { title: 'Signatures and Exhibits', first: 117, last: 120, topic: 'signatures and exhibits', keywords: ['exhibits', 'signatures'] },
    ],
    facts: {
      1: 'UNITED STATES SECURITIES AND EXCHANGE COMMISSION. FORM 10-K. Annual report for the fiscal year ended December 31, 2022. The Boeing Company, Arlington, Virginia.',
      4: 'Item 1. Business. The Boeing Company is the world’s largest aerospace company and a leading manufacturer of commercial jetliners, defense, space and security systems. We are organized into four segments: Commercial Airplanes, Defense, Space & Security, Global Services and Boeing Capital.',
      6: 'Commercial Airplanes. The Commercial Airplanes segment develops, produces and markets commercial jet aircraft. The 737 program was producing at a rate of 31 airplanes per month at the end of 2022. Customers include airlines and leasing companies in more than 150 countries.',
      18: 'Risk Factors. Our business depends on a stable supply chain. Shortages of parts, labor and raw materials delayed deliveries in 2022 and may continue to affect production rates. Supplier disruptions could increase costs on fixed-price contracts.',
      34: 'Consolidated Results of Operations. Total revenues were $66.6 billion in 2022, up 7% from 2021. The increase was driven by higher commercial deliveries. Loss from operations was $3.5 billion, compared with $2.9 billion in 2021. Net loss attributable to Boeing shareholders was $5.1 billion.',
      35: 'Commercial Airplanes delivered 480 airplanes in 2022, compared with 340 in 2021. Commercial Airplanes revenues were $25.9 billion, up 33%. The 787 program resumed deliveries in August 2022.',
      36: 'Defense, Space & Security revenues were $23.2 billion in 2022. Losses on fixed-price development programs, including KC-46A Tanker and Commercial Crew, totaled $2.8 billion. Backlog for the segment was $54 billion.',
      37: 'Global Services revenues were $17.6 billion in 2022, up 8% from 2021. Operating margin was 14.7%. Growth came from commercial parts and distribution.',
      40: 'Backlog. Total company backlog was $404 billion at December 31, 2022, including more than 4,500 commercial airplanes. Net orders in 2022 were 774 airplanes.',
      57: 'Liquidity. Cash and investments in marketable securities totaled $17.2 billion at December 31, 2022. Operating cash flow was $3.5 billion in 2022. We expect to generate positive free cash flow in 2023.',
      58: 'Debt. Total debt was $57.0 billion at December 31, 2022, down from $58.1 billion a year earlier. We repaid $1.3 billion of debt in 2022. Our credit ratings were unchanged.',
      66: 'Consolidated Statements of Operations. Total revenues $66,608 million. Cost of products and services $63,078 million. Research and development expense $2,852 million. Loss from operations $3,547 million.',
      90: 'Note 6. Inventories. Inventories were $78.2 billion at December 31, 2022. Work in process includes 737 and 787 airplanes completed but not delivered.',
    },
  },
  {
    name: '3M_2018_10K',
    pages: 40,
    frontMatter: 0,
    // The cover's year is on a page without text: the reader guessed it from the body.
    card: card({
      organization: '3M Company',
      aliases: ['3M', 'MMM'],
      kind: 'annual-report',
      fiscal_year: 2018,
      period_end: '2018-12-31',
      unsure: ['fiscal_year', 'period_end'],
    }),
    warnings: '2 pages have no text layer (38, 39); they are described from their neighbours',
    blank: [38, 39],
    sections: [
      { title: 'Cover', first: 1, last: 2, topic: 'the annual report on Form 10-K', keywords: ['form 10-k', 'annual report'] },
      { title: 'Item 1. Business', first: 3, last: 9, topic: 'the business and its five segments', keywords: ['segments', 'industrial', 'health care'] },
      { title: 'Item 1A. Risk Factors', first: 10, last: 14, topic: 'risks to the business', keywords: ['risk', 'currency', 'litigation'] },
      { title: 'Item 7. Management’s Discussion and Analysis', first: 15, last: 27, topic: 'results of operations', keywords: ['net sales', 'margins', 'segments'] },
      { title: 'Liquidity and Capital Resources', first: 28, last: 32, topic: 'cash flows, capital spending and dividends', keywords: ['free cash flow', 'capital spending', 'dividends'] },
      { title: 'Item 8. Financial Statements', first: 33, last: 40, topic: 'the consolidated financial statements', keywords: ['statements', 'balance sheet', 'income'] },
    ],
    facts: {
      1: 'UNITED STATES SECURITIES AND EXCHANGE COMMISSION. FORM 10-K. Annual report for the fiscal year ended December 31, 2018. 3M Company, St. Paul, Minnesota.',
      3: 'Item 1. Business. 3M is a diversified technology company with five business segments: Industrial, Safety and Graphics, Health Care, Electronics and Energy, and Consumer. 3M employed about 93,500 people at year end.',
      16: 'Net sales were $32.8 billion in 2018, up 3.5% from 2017. Organic local-currency sales grew 3.2%. Operating income margin was 22.3%.',
      17: 'Industrial segment sales were $12.3 billion in 2018. Safety and Graphics sales were $6.8 billion. Health Care sales were $6.0 billion.',
      22: 'Environmental matters. In February 2018 3M settled the lawsuit brought by the State of Minnesota over PFAS for $850 million. The settlement was recorded as a charge in the first quarter.',
      29: 'Capital spending was $1.6 billion in 2018. Free cash flow was $5.1 billion. 3M paid dividends of $3.2 billion and repurchased $4.9 billion of its own stock.',
      34: 'Consolidated Statement of Income. Net income attributable to 3M was $5.3 billion, or $8.89 per diluted share. Research, development and related expenses were $1.8 billion.',
      36: 'Consolidated Balance Sheet. Total assets were $36.5 billion at December 31, 2018. Total debt was $14.6 billion.',
    },
  },
];

const FILLER = [
  'This page continues the discussion of {topic}.',
  'Amounts are in millions of dollars unless stated otherwise.',
  'The table below compares the current year with the two years before it.',
  'Management reviews these figures quarterly with the audit committee.',
  'Changes from the prior year are explained in the paragraphs that follow.',
  'Forward-looking statements on this page are subject to the risks described in Item 1A.',
  'See the notes to the consolidated financial statements for further detail.',
  'Segment results exclude unallocated items and eliminations.',
];

/** The text of a page: its curated text, or sentences made up from its section. */
export function demoPageText(doc: DemoDocument, page: number): string {
  if (doc.blank.includes(page)) return '';
  const fact = doc.facts[page];
  if (fact) return fact;
  const section = doc.sections.find((s) => page >= s.first && page <= s.last);
  const topic = section?.topic ?? 'the report';
  const title = section?.title ?? doc.name;
  const lines = [`${title} (continued).`];
  for (let i = 0; i < 3; i++) {
    const template = FILLER[(page * 3 + i * 5) % FILLER.length] ?? '';
    lines.push(template.replace('{topic}', topic));
  }
  return lines.join(' ');
}

const ROMAN_DIGITS: readonly [number, string][] = [
  [10, 'x'],
  [9, 'ix'],
  [5, 'v'],
  [4, 'iv'],
  [1, 'i'],
];

/** The number printed on a page (its PDF page label), or null in a PDF without labels. */
export function demoPageLabel(doc: DemoDocument, page: number): string | null {
  if (doc.frontMatter === 0) return null;
  if (page > doc.frontMatter) return String(page - doc.frontMatter);
  let rest = page;
  let roman = '';
  for (const [value, digits] of ROMAN_DIGITS) {
    while (rest >= value) {
      roman += digits;
      rest -= value;
    }
  }
  return roman;
}

/** Text for a document the demo "ingests": a few generic pages. */
export function demoIngestedDocument(name: string, pages: number): DemoDocument {
  return {
    name,
    pages,
    frontMatter: 0,
    warnings: null,
    // Generic pages say nothing about who wrote them: a card with a guess only.
    card: card({ title: name.replace(/_/g, ' '), kind: 'other', unsure: ['kind'] }),
    blank: [],
    sections: [
      { title: 'Introduction', first: 1, last: Math.max(1, Math.floor(pages / 3)), topic: 'the purpose of the document', keywords: ['introduction', 'scope'] },
      { title: 'Main part', first: Math.floor(pages / 3) + 1, last: Math.max(2, pages - 2), topic: 'the main findings', keywords: ['findings', 'results'] },
      { title: 'Appendix', first: Math.max(3, pages - 1), last: pages, topic: 'supporting material', keywords: ['appendix', 'tables'] },
    ],
    facts: {},
  };
}

const SHELF_ISSUERS: readonly [string, string][] = [
  ['Acme Industrial Corporation', 'ACME'],
  ['Borealis Energy Inc.', 'BORE'],
  ['Cobalt Semiconductor Ltd.', 'CBLT'],
  ['Dunmore Retail Group', 'DUNR'],
  ['Everfield Insurance Holdings', 'EVFI'],
  ['Fairhaven Pharmaceuticals', 'FHPH'],
  ['Granite Logistics Co.', 'GRLG'],
  ['Harbor Point Bancorp', 'HPBC'],
  ['Ironwood Aerospace', 'IRWD'],
  ['Juniper Foods Inc.', 'JNPF'],
  ['Kestrel Mining plc', 'KSTL'],
  ['Lumen Grid Utilities', 'LMGU'],
  ['Société Méridienne', 'SMER'],
];
const SHELF_KINDS: readonly { kind: DocumentCard['kind']; form: string }[] = [
  { kind: 'annual-report', form: '10K' },
  { kind: 'quarterly-report', form: '10Q' },
  { kind: 'current-report', form: '8K' },
  { kind: 'earnings-release', form: 'EARNINGS' },
];

/**
 * `count` made-up filings with varied issuers, kinds, years and lengths: a library big
 * enough to measure the list with (see library.bench.ts), not content to read.
 */
export function demoShelf(count: number): DemoDocument[] {
  return Array.from({ length: count }, (_, i) => {
    const [organization, ticker] = SHELF_ISSUERS[i % SHELF_ISSUERS.length] ?? ['Acme', 'ACME'];
    const { kind, form } = SHELF_KINDS[Math.floor(i / SHELF_ISSUERS.length) % SHELF_KINDS.length] ?? { kind: 'other', form: 'DOC' };
    const year = 2015 + (Math.floor(i / (SHELF_ISSUERS.length * SHELF_KINDS.length)) % 10);
    const quarter = kind === 'quarterly-report' ? 1 + (i % 3) : null;
    const name = `${ticker}_${year}_${form}${quarter ? `_Q${quarter}` : ''}_${String(i).padStart(3, '0')}`;
    const doc = demoIngestedDocument(name, 4 + (i % 9));
    doc.card = card({ organization, aliases: [ticker], kind, fiscal_year: year, fiscal_quarter: quarter });
    return doc;
  });
}
