//! The primary financial statements: which page of a filing is its balance sheet, its
//! income statement or its statement of cash flows, and which of them a question asks
//! about. An analyst's question names the statement ("…shown in the cash flow
//! statement") or a line item that only one statement holds ("capital expenditure"),
//! while the statement's page is a table whose first 256 tokens a dense model reads
//! as a column of numbers and whose words BM25 shares with every page of notes on it.
//! Knowing the statement pages lets a search give them the weight the question does.

use std::sync::OnceLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

use crate::card::dates::MONTHS;
use crate::card::text::{flat, loose};

/// How far into a page its heading is looked for: past a running header ("Table of
/// Contents", the company's name), before the table's first rows.
pub(crate) const HEADING_CHARS: usize = 250;
/// How far a page is read for the titles of other statements, which only an index of
/// them lists as titles.
pub(crate) const INDEX_CHARS: usize = 1_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum FinancialStatement {
    BalanceSheet,
    IncomeStatement,
    CashFlows,
}

impl FinancialStatement {
    pub const ALL: [FinancialStatement; 3] = [
        FinancialStatement::BalanceSheet,
        FinancialStatement::IncomeStatement,
        FinancialStatement::CashFlows,
    ];

    /// The name stored in the catalog.
    pub fn as_str(self) -> &'static str {
        match self {
            FinancialStatement::BalanceSheet => "balance-sheet",
            FinancialStatement::IncomeStatement => "income-statement",
            FinancialStatement::CashFlows => "cash-flows",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// How a person names it, for the trace and the app.
    pub fn label(self) -> &'static str {
        match self {
            FinancialStatement::BalanceSheet => "balance sheet",
            FinancialStatement::IncomeStatement => "income statement",
            FinancialStatement::CashFlows => "statement of cash flows",
        }
    }

    /// Its titles as a page heads them, in English, Spanish and Russian.
    fn page_titles(self) -> &'static [&'static str] {
        match self {
            FinancialStatement::BalanceSheet => &[
                "balance sheet",
                "balance sheets",
                "statement of financial position",
                "statements of financial position",
                "statement of financial condition",
                "statements of financial condition",
                "balance general",
                "estado de situación financiera",
                "estado de situacion financiera",
                "estados de situación financiera",
                "estados de situacion financiera",
                "бухгалтерский баланс",
                "отчет о финансовом положении",
                "отчёт о финансовом положении",
            ],
            FinancialStatement::IncomeStatement => &[
                "statement of income",
                "statements of income",
                "statement of operations",
                "statements of operations",
                "statement of earnings",
                "statements of earnings",
                "income statement",
                "income statements",
                "statement of profit or loss",
                "statements of profit or loss",
                "estado de resultados",
                "estados de resultados",
                "cuenta de resultados",
                "estado de pérdidas y ganancias",
                "отчет о финансовых результатах",
                "отчёт о финансовых результатах",
                "отчет о прибылях и убытках",
                "отчёт о прибылях и убытках",
            ],
            FinancialStatement::CashFlows => &[
                "statement of cash flows",
                "statements of cash flows",
                "cash flow statement",
                "cash flow statements",
                "cash flows statement",
                "estado de flujos de efectivo",
                "estados de flujos de efectivo",
                "estado de flujo de efectivo",
                "отчет о движении денежных средств",
                "отчёт о движении денежных средств",
            ],
        }
    }

    /// Its titles as letters only (see [`letters`]), for questions, which name a
    /// statement in any spacing ("cashflow statement").
    fn titles_as_letters(self) -> &'static [String] {
        static TITLES: OnceLock<Vec<Vec<String>>> = OnceLock::new();
        let titles = TITLES.get_or_init(|| {
            FinancialStatement::ALL
                .into_iter()
                .map(|statement| statement.page_titles().iter().map(|t| letters(t)).collect())
                .collect()
        });
        &titles[self as usize]
    }
}

/// The statement a page is, read from its heading: a title near the top that is not
/// a reference in prose ("…in the Consolidated Balance Sheet") nor a note about it
/// ("Supplemental Balance Sheet Information"). A page whose heading names more than
/// one statement (an index of the financial statements) is none of them.
pub(crate) fn statement_on_page(text: &str) -> Option<FinancialStatement> {
    let titled_in = |chars: usize| {
        let head = flat(&text.chars().take(chars).collect::<String>());
        FinancialStatement::ALL
            .into_iter()
            .filter(|&statement| {
                title_patterns(statement)
                    .find_iter(&head)
                    .any(|found| is_a_title(&head[..found.start()], &head[found.end()..]))
            })
            .collect::<Vec<_>>()
    };
    let [heading] = titled_in(HEADING_CHARS)[..] else {
        return None;
    };
    // An index of the statements lists the others further down, or gives a title
    // with the page it starts on.
    (titled_in(INDEX_CHARS) == [heading] && !lists_statements_by_page(text)).then_some(heading)
}

/// Whether a line near the top is a statement's title followed by a page number, as
/// in a table of contents ("Consolidated Statement of Cash Flows … 60"); a statement's
/// own title line may end in a year or a date ("At December 31"), not in a page number.
fn lists_statements_by_page(text: &str) -> bool {
    static PAGE_NUMBER_AT_END: OnceLock<Regex> = OnceLock::new();
    let page_number_at_end =
        PAGE_NUMBER_AT_END.get_or_init(|| Regex::new(r"\D\d{1,3}\s*$").expect("valid regex"));
    let head: String = text.chars().take(INDEX_CHARS).collect();
    head.lines().any(|line| {
        page_number_at_end.is_match(line)
            && !ends_in_a_date(line)
            && FinancialStatement::ALL
                .into_iter()
                .any(|statement| title_patterns(statement).is_match(line))
    })
}

/// Whether a line ends in a month's full English name and a day ("At December 31").
fn ends_in_a_date(line: &str) -> bool {
    let mut words = line.split_whitespace().rev();
    let day = words
        .next()
        .is_some_and(|day| (1..=2).contains(&day.len()) && day.chars().all(|c| c.is_ascii_digit()));
    let month = words
        .next()
        .is_some_and(|month| MONTHS.contains(&month.to_lowercase().as_str()));
    day && month
}

/// Whether a title found between `before` and `after` heads the page.
fn is_a_title(before: &str, after: &str) -> bool {
    const REFERENCE: &[&str] = &[
        "the",
        "our",
        "in",
        "of",
        "on",
        "within",
        "its",
        "their",
        "these",
        "those",
        "to",
        "a",
        "an",
        "see",
        "from",
        "into",
        "per",
        "supplemental",
        "el",
        "la",
        "los",
        "las",
        "del",
        "en",
        "de",
        "в",
        "о",
        "из",
    ];
    const QUALIFIERS: &[&str] = &[
        "consolidated",
        "condensed",
        "combined",
        "consolidados",
        "consolidado",
        "консолидированный",
    ];
    let previous = before
        .split_whitespace()
        .rev()
        .map(|word| {
            word.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .find(|word| !QUALIFIERS.contains(&word.as_str()));
    let next = after.split_whitespace().next().map(|word| {
        word.trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
    });
    let is_reference = previous.is_some_and(|word| REFERENCE.contains(&word.as_str()));
    let is_a_note = next.is_some_and(|word| matches!(word.as_str(), "information" | "data"));
    !is_reference && !is_a_note
}

/// One pattern matching every title of `statement` in a page's flattened text.
fn title_patterns(statement: FinancialStatement) -> &'static Regex {
    static PATTERNS: OnceLock<Vec<Regex>> = OnceLock::new();
    let patterns = PATTERNS.get_or_init(|| {
        FinancialStatement::ALL
            .into_iter()
            .map(|statement| {
                let alternatives: Vec<String> = statement
                    .page_titles()
                    .iter()
                    .map(|title| loose(title))
                    .collect();
                Regex::new(&alternatives.join("|")).expect("loose titles are valid regexes")
            })
            .collect()
    });
    &patterns[statement as usize]
}

/// The statements a question asks about: those it names, or else those that hold the
/// line items it names, in [`FinancialStatement::ALL`]'s order.
pub(crate) fn statements_asked(question: &str) -> Vec<FinancialStatement> {
    let squashed = letters(question);
    let named: Vec<FinancialStatement> = FinancialStatement::ALL
        .into_iter()
        .filter(|statement| {
            statement
                .titles_as_letters()
                .iter()
                .any(|t| squashed.contains(t.as_str()))
        })
        .collect();
    if !named.is_empty() {
        return named;
    }
    let lower = question.to_lowercase();
    if answered_beside_the_statements(&lower) {
        return Vec::new();
    }
    line_items()
        .iter()
        .filter(|(_, items)| items.is_match(&lower))
        .map(|(statement, _)| *statement)
        .collect()
}

/// Whether a question about a line item asks for what the primary statements do not
/// show: a measure adjusted away from GAAP (an earnings release's "Adjusted EBITDA"),
/// the item split by segment, region or product (a note's table), or what drove it
/// (management's discussion). "Why" alone does not count: analysts ask to explain an
/// answer ("…or explain why"). Its statement would take the budget from those pages.
fn answered_beside_the_statements(lower: &str) -> bool {
    static BESIDE: OnceLock<Regex> = OnceLock::new();
    BESIDE
        .get_or_init(|| {
            Regex::new(concat!(
                r"\b(?:adjusted|non[- ]?gaap|underlying|pro forma)\b",
                r"|\b(?:segments?|geograph\w*|regions?|regional|divisions?|business units?",
                r"|product (?:lines?|categor\w*)|service categor\w*)\b",
                r"|\b(?:what|which \w+) (?:drove|drives|caused|causes)\b|\bdrivers?\b",
                r"|\bdriven by\b",
            ))
            .expect("valid regex")
        })
        .is_match(lower)
}

/// Ratios whose parts are on more than one statement: asset turnover and the returns on
/// assets and equity (the balance sheet and the income statement), the days of sales,
/// inventory and payables, and capital intensity (assets or capital expenditure against
/// revenue).
const BALANCE_SHEET_AND_INCOME_RATIOS: &[&str] = &[
    r"return on (?:average |total )?(?:assets|(?:shareholders'? |stockholders'? )?equity)",
    r"(?:total |fixed )?asset turnover",
    r"inventory turnover",
    r"receivables? turnover",
    r"days (?:of )?(?:sales|inventory|payables?)",
    r"capital[- ]intensi",
];

/// Line items (and the ratios made of them) that one statement holds, in English: the
/// names analysts use for them, their abbreviations included.
fn line_items() -> &'static [(FinancialStatement, Regex)] {
    static ITEMS: OnceLock<Vec<(FinancialStatement, Regex)>> = OnceLock::new();
    ITEMS.get_or_init(|| {
        let items = |words: &[&str]| {
            Regex::new(&format!(r"\b(?:{})", words.join("|"))).expect("valid regex")
        };
        let with_ratios = |words: &[&'static str]| {
            let mut all = words.to_vec();
            all.extend_from_slice(BALANCE_SHEET_AND_INCOME_RATIOS);
            items(&all)
        };
        vec![
            (
                FinancialStatement::BalanceSheet,
                with_ratios(&[
                    r"total assets",
                    r"total liabilities",
                    r"current assets",
                    r"current liabilities",
                    r"quick ratio",
                    r"current ratio",
                    r"working capital",
                    r"inventor(?:y|ies)\b",
                    r"accounts receivable",
                    r"accounts payable",
                    r"ppne\b",
                    r"pp&e",
                    r"net ppe\b",
                    r"property,? plant,? and equipment",
                    r"fixed assets",
                    r"goodwill",
                    r"long-term debt",
                    r"total debt",
                    r"debt[- ]to[- ]equity",
                    r"shareholders'? equity",
                    r"stockholders'? equity",
                    r"book value",
                    r"retained earnings",
                ]),
            ),
            (
                FinancialStatement::IncomeStatement,
                with_ratios(&[
                    r"revenues?\b",
                    r"net sales",
                    r"cost of (?:goods sold|sales|revenues?)",
                    r"cogs\b",
                    r"gross (?:profit|margin)",
                    r"operating (?:income|profit|margin|expenses?)",
                    r"sg&a",
                    r"selling, general",
                    r"ebit(?:da)?\b",
                    r"net (?:income|earnings|loss|profit)",
                    r"eps\b",
                    r"earnings per share",
                    r"interest expense",
                    r"effective tax rate",
                    r"income tax expense",
                    r"research and development expense",
                ]),
            ),
            (
                FinancialStatement::CashFlows,
                items(&[
                    r"capital expenditures?",
                    r"capex\b",
                    r"capital[- ]intensi",
                    r"purchases? of property",
                    r"cash (?:flows? )?from operati",
                    r"operating cash flows?",
                    r"free cash flow",
                    r"dividends? paid",
                    r"(?:share|stock) (?:repurchases?|buybacks?)",
                    r"depreciation and amortization",
                    r"d&a\b",
                ]),
            ),
        ]
    })
}

/// Lower-case letters only: titles compare across line breaks, broken words, accents
/// ("situación") and "ё".
fn letters(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphabetic())
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'ä' | 'â' => 'a',
            'é' | 'è' | 'ë' | 'ê' => 'e',
            'í' | 'ì' | 'ï' | 'î' => 'i',
            'ó' | 'ò' | 'ö' | 'ô' => 'o',
            'ú' | 'ù' | 'ü' | 'û' => 'u',
            'ё' => 'е',
            'й' => 'и',
            other => other,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use FinancialStatement::*;

    #[test]
    fn statement_pages_are_known_by_their_heading() {
        let cash = "Table of Contents\n3M Company and Subsidiaries\nConsolidated Statement of Cash Flows\nYears ended December 31\n(Millions) 2018 2017";
        assert_eq!(statement_on_page(cash), Some(CashFlows));
        // pdfium's text of 3M's 2018 balance sheet breaks the title inside a word.
        let balance = "Table of Contents 3M Company and Subsidiaries Consolidated Balance Shee t At December 31";
        assert_eq!(statement_on_page(balance), Some(BalanceSheet));
        let operations = "MGM RESORTS INTERNATIONAL AND SUBSIDIARIES\nCONSOLIDATED STATEMENTS OF OPERATIONS\n(In thousands, except per share data)";
        assert_eq!(statement_on_page(operations), Some(IncomeStatement));
        let position = "The Boeing Company and Subsidiaries Consolidated Statements of Financial Position (Dollars in millions)";
        assert_eq!(statement_on_page(position), Some(BalanceSheet));
        assert_eq!(
            statement_on_page("Estado de situación financiera consolidado al 31 de diciembre"),
            Some(BalanceSheet)
        );
        assert_eq!(
            statement_on_page("Отчёт о движении денежных средств за 2022 год"),
            Some(CashFlows)
        );
        assert_eq!(
            statement_on_page("Отчет о финансовых результатах за 2022 год"),
            Some(IncomeStatement)
        );
    }

    #[test]
    fn an_index_of_statements_a_note_and_comprehensive_income_are_no_statement() {
        let index = "Index to Financial Statements\nConsolidated Statements of Income 45\nConsolidated Balance Sheets 47\nConsolidated Statements of Cash Flows 49";
        assert_eq!(statement_on_page(index), None);
        // 3M's index names one statement in its first lines and the others below.
        let index = format!(
            "Table of Contents Beginning Page ITEM 8 Financial Statements and Supplementary Data (continued) Consolidated Statement of Changes in Equity 59 Consolidated Statement of Cash Flows 60 {}Consolidated Balance Sheet 58",
            "Notes to Consolidated Financial Statements 61 ".repeat(5)
        );
        assert_eq!(statement_on_page(&index), None);
        // Its second page names only the cash flows among its first lines.
        let index = "Table of Contents\nBeginning\nPage\nITEM 8 Financial Statements and Supplementary Data (continued)\nConsolidated Statement of Changes in Equity for the years ended December 31, 2018, 2017 and 2016 59\nConsolidated Statement of Cash Flows for the years ended December 31, 2018, 2017 and 2016 60\nNotes to Consolidated Financial Statements 61";
        assert_eq!(statement_on_page(index), None);
        // A statement's own title line may end in a year.
        assert_eq!(
            statement_on_page("Consolidated Balance Sheets At December 31, 2021\nAssets 1,000"),
            Some(BalanceSheet)
        );
        let note = "Notes to Consolidated Financial Statements\nNote 6 - Restructuring. The Company's restructuring activities";
        assert_eq!(statement_on_page(note), None);
        let comprehensive =
            "Consolidated Statements of Comprehensive Income (Loss)\nNet income 1,200";
        assert_eq!(statement_on_page(comprehensive), None);
        // References to a statement and notes on it, from the heads of real filing pages.
        for reference in [
            "Table of Contents NOTE 7. Supplemental Balance Sheet Information Accounts payable (included as a separate line item in the Consolidated Balance Sheet)",
            "Table of Contents Offsetting of Financial Liabilities under Master Netting Agreements Gross Amounts not Offset in the Consolidated Balance Sheet that are",
            "for assets and liabilities. We record these translation adjustments in Accumulated other comprehensive loss, a separate component of Equity, in our consolidated balance sheets.",
            "Balance Sheet Information (dollars in millions) At December 31, 2021 2020 Prepaid expenses",
            "Table of Contents Cash Flows: Cash flows from operating, investing and financing activities are provided in the tables that follow. Individual amounts in the Consolidated Statement of Cash Flows",
            "Table of Contents The location in the consolidated statements of income and amounts of gains and losses related to derivative instruments",
        ] {
            assert_eq!(statement_on_page(reference), None, "{reference}");
        }
        // A title deep in a page of prose is a reference to it, not the statement.
        let prose = format!(
            "{} see the Consolidated Balance Sheets",
            "Liquidity. ".repeat(60)
        );
        assert_eq!(statement_on_page(&prose), None);
    }

    #[test]
    fn a_question_asks_for_the_statements_it_names() {
        assert_eq!(
            statements_asked("What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a response to the question by relying on the details shown in the cash flow statement."),
            vec![CashFlows]
        );
        assert_eq!(
            statements_asked("Answer by primarily using information shown in the balance sheet and the income statement: what is the inventory turnover?"),
            vec![BalanceSheet, IncomeStatement]
        );
        assert_eq!(
            statements_asked(
                "Please utilize information provided primarily within the statement of cash flows"
            ),
            vec![CashFlows]
        );
        assert_eq!(
            statements_asked("¿Cuál fue el total del estado de flujos de efectivo?"),
            vec![CashFlows]
        );
    }

    #[test]
    fn without_a_name_the_line_items_tell_the_statement() {
        assert_eq!(
            statements_asked(
                "Has AMCOR's quick ratio improved or declined between FY2023 and FY2022?"
            ),
            vec![BalanceSheet]
        );
        assert_eq!(
            statements_asked("Does AMCOR have an improving gross margin profile as of FY2023?"),
            vec![IncomeStatement]
        );
        assert_eq!(
            statements_asked("Did Pfizer grow its PPNE between FY20 and FY21?"),
            vec![BalanceSheet]
        );
        assert_eq!(
            statements_asked("What is the FY2019 capex as a share of revenue?"),
            vec![IncomeStatement, CashFlows]
        );
        // Ratios made of more than one statement's lines ask for each of them.
        assert_eq!(
            statements_asked("Is 3M a capital-intensive business based on FY2022 data?"),
            vec![BalanceSheet, IncomeStatement, CashFlows]
        );
        assert_eq!(
            statements_asked("What was Boeing's return on assets in FY2021?"),
            vec![BalanceSheet, IncomeStatement]
        );
        assert_eq!(
            statements_asked("How did Nike's days sales outstanding change in FY2022?"),
            vec![BalanceSheet, IncomeStatement]
        );
    }

    #[test]
    fn a_question_about_anything_else_asks_for_no_statement() {
        assert!(
            statements_asked("Who are the primary customers of Boeing as of FY2022?").is_empty()
        );
        assert!(
            statements_asked("What was the key agenda of the 8-K filed on July 1, 2022?")
                .is_empty()
        );
        assert!(statements_asked("Who wrote the report on the Rhine's course?").is_empty());
    }

    #[test]
    fn a_line_item_asked_beside_the_statements_asks_for_none_of_them() {
        for question in [
            "What was the company's adjusted EBITDA in fiscal 2023?",
            "What was non-GAAP operating income last quarter?",
            "Which segment's revenue fell the most in 2022?",
            "Which geographic region had the biggest drop in revenues?",
            "Do any product categories bring in more than 20% of net sales?",
            "What drove the change in operating margin in FY2022?",
            "What were the drivers of the decline in gross margin?",
        ] {
            assert!(statements_asked(question).is_empty(), "{question}");
        }
        // A statement the question names is still asked for.
        assert_eq!(
            statements_asked("Based on the income statement, what drove the rise in revenue?"),
            vec![IncomeStatement]
        );
        // Asking to explain an answer is not asking for drivers: analysts' questions
        // end so ("If the quick ratio is not a useful metric, explain why").
        assert_eq!(
            statements_asked("Has the quick ratio improved? If it is not useful, explain why."),
            vec![BalanceSheet]
        );
        // Words that only look alike do not count.
        assert_eq!(
            statements_asked("What was the adjustment-free net income of the year?"),
            vec![IncomeStatement]
        );
    }

    #[test]
    fn names_round_trip_through_the_catalog() {
        for statement in FinancialStatement::ALL {
            assert_eq!(
                FinancialStatement::parse(statement.as_str()),
                Some(statement)
            );
        }
        assert_eq!(FinancialStatement::parse("notes"), None);
    }
}
