//! Ratios analysts ask for (operating, gross and net margins, capital expenditure as a
//! share of revenue), worked out from the table rows of the pages found: an answer
//! without a model then gives the figure, not only the rows it is made of. A ratio is
//! worked out only when both of its lines are found with a value for every year asked.

use std::sync::OnceLock;

use regex::Regex;

use super::extractive::RankedPage;
use super::passages::{years_in, Candidate, PassageKind};

/// A ratio of two statement lines, in percent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ratio {
    OperatingMargin,
    GrossMargin,
    NetMargin,
    CapexShareOfRevenue,
    EffectiveTaxRate,
    /// Current assets against current liabilities, in times rather than percent.
    CurrentRatio,
}

impl Ratio {
    fn name(self) -> &'static str {
        match self {
            Ratio::OperatingMargin => "Operating margin",
            Ratio::GrossMargin => "Gross margin",
            Ratio::NetMargin => "Net profit margin",
            Ratio::CapexShareOfRevenue => "Capital expenditure as a share of revenue",
            Ratio::EffectiveTaxRate => "Effective tax rate",
            Ratio::CurrentRatio => "Current ratio",
        }
    }

    /// The line divided, and the line it is divided by.
    fn lines(self) -> (Line, Line) {
        match self {
            Ratio::OperatingMargin => (Line::OperatingIncome, Line::Revenue),
            Ratio::GrossMargin => (Line::GrossProfit, Line::Revenue),
            Ratio::NetMargin => (Line::NetIncome, Line::Revenue),
            Ratio::CapexShareOfRevenue => (Line::CapitalExpenditure, Line::Revenue),
            Ratio::EffectiveTaxRate => (Line::IncomeTax, Line::IncomeBeforeTax),
            Ratio::CurrentRatio => (Line::CurrentAssets, Line::CurrentLiabilities),
        }
    }

    fn in_percent(self) -> bool {
        self != Ratio::CurrentRatio
    }

    /// A value of this ratio as it is written: "10.28%", "1.12 times".
    fn written(self, value: f64) -> String {
        if self.in_percent() {
            format!("{value:.2}%")
        } else {
            format!("{value:.2} times")
        }
    }
}

/// A statement line, known by the labels filings give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    Revenue,
    OperatingIncome,
    GrossProfit,
    NetIncome,
    CapitalExpenditure,
    IncomeTax,
    IncomeBeforeTax,
    CurrentAssets,
    CurrentLiabilities,
}

impl Line {
    fn label_pattern(self) -> &'static Regex {
        static PATTERNS: OnceLock<Vec<Regex>> = OnceLock::new();
        let patterns = PATTERNS.get_or_init(|| {
            [
                r"^(?:total )?(?:net )?(?:revenues?|sales)(?: and other income)?$|^total net (?:revenues?|sales)$",
                r"^(?:total )?operating (?:income|profit)(?: \(loss\))?$|^(?:income|earnings) from operations$",
                r"^gross (?:profit|margin)$",
                r"^net (?:income|earnings)(?: \(loss\))?(?: attributable to [a-z .,&']+)?$",
                r"^(?:capital expenditures?|purchases? of property,? plant,? and equipment|additions to property,? plant,? and equipment|payments for property,? plant,? and equipment)\b",
                r"^(?:\(?(?:provision|benefit|expense)\)?[ /(),]*)*(?:for |from )?income tax(?:es)?(?:[ /(),]*\(?(?:provision|benefit|expense)\)?)*$",
                r"^[a-z() /,]*(?:income|earnings|loss)[a-z() /,]* before (?:provision for )?income tax(?:es)?$",
                r"^total current assets$",
                r"^total current liabilities$",
            ]
            .iter()
            .map(|pattern| Regex::new(pattern).expect("valid regex"))
            .collect()
        });
        &patterns[self as usize]
    }

    fn name(self) -> &'static str {
        match self {
            Line::Revenue => "revenue",
            Line::OperatingIncome => "operating income",
            Line::GrossProfit => "gross profit",
            Line::NetIncome => "net income",
            Line::CapitalExpenditure => "capital expenditure",
            Line::IncomeTax => "income tax",
            Line::IncomeBeforeTax => "income before income taxes",
            Line::CurrentAssets => "current assets",
            Line::CurrentLiabilities => "current liabilities",
        }
    }

    /// Capital expenditure is printed as an outflow, and a tax expense as a deduction
    /// or a charge by filings' taste; the ratio takes either as spent.
    fn unsigned(self) -> bool {
        matches!(self, Line::CapitalExpenditure | Line::IncomeTax)
    }
}

/// A ratio a question asks for, and for which years.
#[derive(Debug, Clone, PartialEq)]
pub struct AskedRatio {
    pub ratio: Ratio,
    /// The years named, a range filled in ("FY2019 - FY2021" is 2019, 2020 and 2021);
    /// empty when none is named (the latest year both lines have is taken).
    pub years: Vec<u16>,
    /// Whether the question asks for the years' average.
    pub average: bool,
}

/// The ratio `question` asks for, if it is one this module works out. An adjusted
/// (non-GAAP) measure is not: the statements' lines do not give it.
pub fn asked_ratio(question: &str) -> Option<AskedRatio> {
    static ASKED: OnceLock<Vec<(Ratio, Regex)>> = OnceLock::new();
    static ADJUSTED: OnceLock<Regex> = OnceLock::new();
    let lower = question.to_lowercase();
    let adjusted =
        ADJUSTED.get_or_init(|| Regex::new(r"\badjusted\b|non[- ]?gaap").expect("valid regex"));
    if adjusted.is_match(&lower) {
        return None;
    }
    let asked = ASKED.get_or_init(|| {
        [
            (
                Ratio::OperatingMargin,
                r"\boperating (?:income |profit )?(?:% )?margin",
            ),
            (Ratio::GrossMargin, r"\bgross (?:profit )?(?:% )?margin"),
            (
                Ratio::NetMargin,
                r"\bnet (?:profit |income )?(?:% )?margin|\bprofit margin",
            ),
            (Ratio::EffectiveTaxRate, r"\beffective (?:income )?tax rate"),
            (Ratio::CurrentRatio, r"\bcurrent ratio"),
            (
                Ratio::CapexShareOfRevenue,
                r"\b(?:capex|capital expenditures?)\b.{0,30}?(?:%|\bpercent(?:age)?|\bshare|\bproportion|\bratio) (?:of|to) (?:total )?(?:net )?(?:revenues?|sales)",
            ),
        ]
        .into_iter()
        .map(|(ratio, pattern)| (ratio, Regex::new(pattern).expect("valid regex")))
        .collect()
    });
    let ratio = asked
        .iter()
        .find(|(_, pattern)| pattern.is_match(&lower))
        .map(|(ratio, _)| *ratio)?;
    static CHANGE: OnceLock<Regex> = OnceLock::new();
    let change = CHANGE.get_or_init(|| {
        Regex::new(r"\b(?:improv|declin|chang|trend|grow|compar|increas|decreas)")
            .expect("valid regex")
    });
    let average = lower.contains("average");
    let mut years = years_in(question);
    years.sort_unstable();
    if average && years.len() == 2 && years[1] > years[0] && years[1] - years[0] <= 10 {
        years = (years[0]..=years[1]).collect();
    }
    // A change "as of" one year is told against the year before.
    if let [year] = years[..] {
        if change.is_match(&lower) {
            years = vec![year - 1, year];
        }
    }
    Some(AskedRatio {
        ratio,
        years,
        average,
    })
}

/// A ratio worked out: its sentence, and the rows it was worked out from (index into the
/// pages given, and into that page's candidates).
#[derive(Debug, Clone, PartialEq)]
pub struct WorkedOut {
    pub text: String,
    pub rows: Vec<(usize, usize)>,
}

/// Works `asked` out from the rows of `pages` (best ranked first): each line from the
/// best-ranked page that has it with a value for every year needed.
pub fn work_out(asked: &AskedRatio, pages: &[RankedPage<'_>]) -> Option<WorkedOut> {
    let (numerator, denominator) = asked.ratio.lines();
    let mut order: Vec<usize> = (0..pages.len()).collect();
    order.sort_by(|&a, &b| pages[b].rank.total_cmp(&pages[a].rank));
    let years = if asked.years.is_empty() {
        let latest = |line: Line| {
            find_line(line, pages, &order, &[])
                .and_then(|found| found.values.iter().map(|&(year, _)| year).max())
        };
        vec![latest(numerator)?.min(latest(denominator)?)]
    } else {
        asked.years.clone()
    };
    let found = |line: Line| {
        let found = find_line(line, pages, &order, &years);
        if found.is_none() {
            tracing::debug!(line = line.name(), ?years, "no row found gives every year");
        }
        found
    };
    let top = found(numerator)?;
    let bottom = found(denominator)?;
    let mut shares = Vec::new();
    for &year in &years {
        let value_in = |values: &[(u16, f64)]| {
            values
                .iter()
                .find(|&&(y, _)| y == year)
                .map(|&(_, value)| value)
        };
        let mut above = value_in(&top.values)?;
        if numerator.unsigned() {
            above = above.abs();
        }
        let below = value_in(&bottom.values)?;
        if below == 0.0 {
            return None;
        }
        let scale = if asked.ratio.in_percent() { 100.0 } else { 1.0 };
        shares.push((year, scale * above / below));
    }
    let mut text = format!(
        "{} ({} / {}): ",
        asked.ratio.name(),
        numerator.name(),
        denominator.name()
    );
    let each: Vec<String> = shares
        .iter()
        .map(|&(year, share)| format!("{year}: {}", asked.ratio.written(share)))
        .collect();
    text.push_str(&each.join("; "));
    if let [(first, from), .., (last, to)] = shares[..] {
        if !asked.average {
            let unit = if asked.ratio.in_percent() {
                " points"
            } else {
                ""
            };
            text.push_str(&format!("; change {first}–{last}: {:+.2}{unit}", to - from));
        }
    }
    if asked.average && shares.len() > 1 {
        let mean = shares.iter().map(|(_, share)| share).sum::<f64>() / shares.len() as f64;
        text.push_str(&format!(
            "; average of {}–{}: {}",
            shares[0].0,
            shares[shares.len() - 1].0,
            asked.ratio.written(mean)
        ));
    }
    let mut rows = vec![(top.page, top.row)];
    if (bottom.page, bottom.row) != (top.page, top.row) {
        rows.push((bottom.page, bottom.row));
    }
    Some(WorkedOut { text, rows })
}

/// A line's row: its page's index among those given, its index there, its values by year.
struct FoundLine {
    page: usize,
    row: usize,
    values: Vec<(u16, f64)>,
}

/// The first row (pages in `order`) labelled as `line` with a value for each of
/// `years`.
fn find_line(
    line: Line,
    pages: &[RankedPage<'_>],
    order: &[usize],
    years: &[u16],
) -> Option<FoundLine> {
    order.iter().find_map(|&page| {
        pages[page]
            .page
            .candidates
            .iter()
            .enumerate()
            .filter(|(_, row)| row.kind == PassageKind::Row)
            .filter(|(_, row)| line.label_pattern().is_match(&label(&row.text)))
            .map(|(index, row)| (index, values_by_year(row)))
            .find(|(_, values)| {
                !values.is_empty()
                    && years
                        .iter()
                        .all(|year| values.iter().any(|(y, _)| y == year))
            })
            .map(|(row, values)| FoundLine { page, row, values })
    })
}

/// A row's label as the patterns read it: lowercase, without footnote marks, a trailing
/// colon or currency sign.
fn label(text: &str) -> String {
    static MARKS: OnceLock<Regex> = OnceLock::new();
    let marks = MARKS
        .get_or_init(|| Regex::new(r"\s*\((?:\d|[a-z]|note \d+)\)|[:$*]").expect("valid regex"));
    let lower = text.to_lowercase().replace('’', "'");
    marks
        .replace_all(&lower, "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A row's values whose column names one year, each year once: a whole year's column
/// ("Twelve Months Ended") before a quarter's, else the first.
fn values_by_year(row: &Candidate) -> Vec<(u16, f64)> {
    let mut values: Vec<(u16, f64, u8)> = Vec::new();
    for cell in &row.cells {
        let headers: Vec<&str> = cell
            .header
            .iter()
            .chain(cell.group.iter())
            .map(String::as_str)
            .collect();
        let named: Vec<u16> = headers.iter().flat_map(|h| years_in(h)).collect();
        let [year] = named[..] else {
            continue;
        };
        let Some(value) = amount(&cell.value) else {
            continue;
        };
        let span = period_span(&headers.join(" "));
        match values.iter_mut().find(|(y, _, _)| *y == year) {
            Some(kept) if kept.2 < span => *kept = (year, value, span),
            Some(_) => {}
            None => values.push((year, value, span)),
        }
    }
    values
        .into_iter()
        .map(|(year, value, _)| (year, value))
        .collect()
}

/// How much of a year a column's headers say it covers: 2 for a whole year, 0 for part
/// of one, 1 when they do not say.
fn period_span(headers: &str) -> u8 {
    static WHOLE: OnceLock<Regex> = OnceLock::new();
    static PART: OnceLock<Regex> = OnceLock::new();
    let lower = headers.to_lowercase();
    let whole = WHOLE.get_or_init(|| {
        Regex::new(r"\b(?:twelve|12) months|\byears? ended|\bfiscal year|\bannual|\bfull year")
            .expect("valid regex")
    });
    let part = PART.get_or_init(|| {
        Regex::new(r"\b(?:three|six|nine|3|6|9) months|\bquarter|\bq[1-4]\b").expect("valid regex")
    });
    if whole.is_match(&lower) {
        2
    } else if part.is_match(&lower) {
        0
    } else {
        1
    }
}

/// A table value as a number: parentheses or a minus sign make it negative; a dash, or
/// anything else that is not a number, is none.
fn amount(text: &str) -> Option<f64> {
    let negative = text.contains('(') || text.trim_start().starts_with(['-', '−', '–']);
    let digits: String = text
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let value = digits.parse::<f64>().ok()?;
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::extractive::PageCandidates;
    use crate::embed::SparseEmbedder;

    #[test]
    fn the_ratio_asked_and_its_years() {
        let asked = asked_ratio("Taking into account the information outlined in the income statement, what is the FY2019 - FY2021 3 year average unadjusted operating income % margin for Corning? Answer in units of percents and round to one decimal place.").expect("a ratio");
        assert_eq!(asked.ratio, Ratio::OperatingMargin);
        assert_eq!(asked.years, vec![2019, 2020, 2021]);
        assert!(asked.average);
        let asked = asked_ratio("What is the FY2018 - FY2020 3 year average of capex as a % of revenue for MGM Resorts?").expect("a ratio");
        assert_eq!(asked.ratio, Ratio::CapexShareOfRevenue);
        assert_eq!(asked.years, vec![2018, 2019, 2020]);
        let asked = asked_ratio("Does AMCOR have an improving gross margin profile as of FY2023?")
            .expect("a ratio");
        assert_eq!(
            (asked.ratio, asked.years),
            (Ratio::GrossMargin, vec![2022, 2023])
        );
        let asked = asked_ratio("What was the gross margin in FY2022?").expect("a ratio");
        assert_eq!(
            (asked.ratio, asked.years, asked.average),
            (Ratio::GrossMargin, vec![2022], false)
        );
        assert_eq!(
            asked_ratio("What was the adjusted operating margin in 2022?"),
            None
        );
        assert_eq!(asked_ratio("What was the operating income in 2022?"), None);
    }

    /// The pages (indices among those given) of the rows a ratio was worked out from.
    fn pages_of(worked: &WorkedOut) -> Vec<usize> {
        worked.rows.iter().map(|&(page, _)| page).collect()
    }

    fn page(number: u32, text: &str, sparse: &SparseEmbedder) -> PageCandidates {
        PageCandidates::build(1, "A", number, None, Some(text), sparse).expect("builds")
    }

    #[test]
    fn a_margin_is_worked_out_from_two_rows_for_each_year_and_averaged() {
        let sparse = SparseEmbedder::new("english").expect("bm25");
        let income = page(
            65,
            "Consolidated Statements of Income\n(in millions) 2021 2020 2019\nNet sales $ 14,082 $ 11,303 $ 11,503\nCost of sales 9,019 7,772 7,468\nOperating income 2,112 509 1,306\nNet income 1,906 512 960",
            &sparse,
        );
        let pages = [RankedPage {
            page: &income,
            rank: 1.0,
        }];
        let asked = asked_ratio("What is the FY2019 - FY2021 3 year average operating margin?")
            .expect("a ratio");
        let worked = work_out(&asked, &pages).expect("worked out");
        // 1,306 / 11,503, 509 / 11,303 and 2,112 / 14,082.
        assert_eq!(
            worked.text,
            "Operating margin (operating income / revenue): 2019: 11.35%; 2020: 4.50%; 2021: 15.00%; average of 2019–2021: 10.28%"
        );
        assert_eq!(worked.rows.len(), 2);
        for (page, row) in worked.rows {
            assert_eq!(page, 0);
            assert_eq!(income.candidates[row].kind, PassageKind::Row);
        }
        // Without a year named, the latest year both rows have.
        let asked = asked_ratio("What is the net profit margin?").expect("a ratio");
        let worked = work_out(&asked, &pages).expect("worked out");
        assert_eq!(
            worked.text,
            "Net profit margin (net income / revenue): 2021: 13.54%"
        );
        // A change as of a year is told against the year before.
        let asked = asked_ratio("Has the operating margin improved in FY2021?").expect("a ratio");
        let worked = work_out(&asked, &pages).expect("worked out");
        assert_eq!(
            worked.text,
            "Operating margin (operating income / revenue): 2020: 4.50%; 2021: 15.00%; change 2020–2021: +10.49 points"
        );
        // A year no row has is not guessed at.
        let asked = asked_ratio("What was the operating margin in FY2017?").expect("a ratio");
        assert_eq!(work_out(&asked, &pages), None);
    }

    #[test]
    fn capital_expenditure_is_taken_as_spent_from_the_cash_flow_page() {
        let sparse = SparseEmbedder::new("english").expect("bm25");
        let cash = page(
            67,
            "Consolidated Statements of Cash Flows\n(In thousands) 2020 2019 2018\nCapital expenditures, net of construction payable (270,579) (739,006) (1,486,843)",
            &sparse,
        );
        let income = page(
            64,
            "Consolidated Statements of Operations\n(In thousands) 2020 2019 2018\nRevenues 5,162,082 12,899,672 11,763,096",
            &sparse,
        );
        let pages = [
            RankedPage {
                page: &cash,
                rank: 1.0,
            },
            RankedPage {
                page: &income,
                rank: 0.5,
            },
        ];
        let asked =
            asked_ratio("What is the FY2018 - FY2020 3 year average of capex as a % of revenue?")
                .expect("a ratio");
        let worked = work_out(&asked, &pages).expect("worked out");
        assert!(
            worked.text.ends_with("average of 2018–2020: 7.87%"),
            "{}",
            worked.text
        );
        assert_eq!(pages_of(&worked), [0, 1]);
    }

    #[test]
    fn a_tax_rate_and_a_current_ratio_from_their_statements() {
        let sparse = SparseEmbedder::new("english").expect("bm25");
        let income = page(
            55,
            "Consolidated Statements of Operations\n(Dollars in millions) 2022 2021 2020\nLoss before income taxes (5,022) (5,033) (14,476)\nIncome tax (expense)/benefit (31) 743 2,535\nNet loss (5,053) (4,290) (11,941)",
            &sparse,
        );
        let balance = page(
            56,
            "Consolidated Balance Sheets\n(in millions) 2023 2022\nTotal current assets 5,308 5,853\nTotal current liabilities 4,476 5,103",
            &sparse,
        );
        let pages = [
            RankedPage {
                page: &income,
                rank: 1.0,
            },
            RankedPage {
                page: &balance,
                rank: 0.8,
            },
        ];
        let asked =
            asked_ratio("How does Boeing's effective tax rate in FY2022 compare to FY2021?")
                .expect("a ratio");
        let worked = work_out(&asked, &pages).expect("worked out");
        // The tax is taken as paid whichever way the row signs it: 743 / -5,033, 31 / -5,022.
        assert!(
            worked
                .text
                .starts_with("Effective tax rate (income tax / income before income taxes): 2021: -14.76%; 2022: -0.62%"),
            "{}",
            worked.text
        );
        let asked = asked_ratio("What is the current ratio in FY2023?").expect("a ratio");
        let worked = work_out(&asked, &pages).expect("worked out");
        assert_eq!(
            worked.text,
            "Current ratio (current assets / current liabilities): 2023: 1.19 times"
        );
        assert_eq!(pages_of(&worked), [1, 1]);
    }

    #[test]
    fn a_whole_years_column_is_taken_before_a_quarters() {
        let row = Candidate {
            kind: PassageKind::Row,
            text: "Gross profit".into(),
            cells: [
                ("Three Months Ended June 30,", "2023", "722"),
                ("Twelve Months Ended June 30,", "2023", "2,725"),
                ("Three Months Ended June 30,", "2022", "794"),
                ("Twelve Months Ended June 30,", "2022", "2,820"),
            ]
            .into_iter()
            .map(|(group, header, value)| crate::chat::passages::Cell {
                group: Some(group.into()),
                header: Some(header.into()),
                value: value.into(),
            })
            .collect(),
            glyphs: Vec::new(),
            header_glyphs: Vec::new(),
        };
        assert_eq!(values_by_year(&row), vec![(2023, 2725.0), (2022, 2820.0)]);
    }

    #[test]
    fn amounts_read_as_filings_print_them() {
        assert_eq!(amount("$ 14,189"), Some(14189.0));
        assert_eq!(amount("(1,577)"), Some(-1577.0));
        assert_eq!(amount("—"), None);
        assert_eq!(
            label("Operating income (loss) (1):"),
            "operating income (loss)"
        );
        assert_eq!(
            label("Provision for income taxes (Note 8)"),
            "provision for income taxes"
        );
        for tax in [
            "provision for income taxes",
            "income tax (expense)/benefit",
            "(provision) benefit for income taxes",
            "income tax expense",
            "benefit from income taxes",
        ] {
            assert!(Line::IncomeTax.label_pattern().is_match(tax), "{tax}");
        }
        assert!(!Line::IncomeTax
            .label_pattern()
            .is_match("income before income taxes"));
        assert!(!Line::IncomeTax
            .label_pattern()
            .is_match("deferred income taxes"));
        for pretax in [
            "income before income taxes",
            "loss before income taxes",
            "(loss) income before income taxes",
            "income from continuing operations before income taxes",
        ] {
            assert!(
                Line::IncomeBeforeTax.label_pattern().is_match(pretax),
                "{pretax}"
            );
        }
    }
}
