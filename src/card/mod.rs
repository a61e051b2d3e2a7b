//! A document's identity card: who issued it, what kind of document it is and which
//! period it covers, read from the document itself (metadata, outline, first pages),
//! never from its file name. Cards let a question find its document before its pages.

mod correct;
pub(crate) mod dates;
mod kind;
mod llm;
mod names;
mod period;
pub mod question;
mod rules;
pub(crate) mod text;

use serde::{Deserialize, Serialize};

pub use llm::fill_card;
pub use question::{analyse_question, QuestionAnalysis};
pub use rules::read_card;

/// What kind of document a card describes. Filings have their SEC form; everything
/// else has a generic kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum DocumentKind {
    /// Form 10-K, or another company's annual report.
    AnnualReport,
    /// Form 10-Q.
    QuarterlyReport,
    /// Form 8-K.
    CurrentReport,
    /// A press release of results ("reports fourth-quarter results").
    EarningsRelease,
    Paper,
    Contract,
    /// A report that is not a filing: a survey, a study, an organisation's annual review.
    Report,
    /// A slide deck: landscape pages of a title and a few lines.
    Slides,
    /// A manual, a guide or a handbook: how to use or do something.
    Manual,
    /// A brochure, a leaflet or a prospectus for a place, a product or a programme.
    Brochure,
    /// A form to fill in, with its instructions.
    Form,
    Other,
}

impl DocumentKind {
    /// The short form people use: "10-K", "10-Q", "8-K", "earnings release", …
    pub fn label(self) -> &'static str {
        match self {
            DocumentKind::AnnualReport => "10-K annual report",
            DocumentKind::QuarterlyReport => "10-Q quarterly report",
            DocumentKind::CurrentReport => "8-K current report",
            DocumentKind::EarningsRelease => "earnings release",
            DocumentKind::Paper => "paper",
            DocumentKind::Contract => "contract",
            DocumentKind::Report => "report",
            DocumentKind::Slides => "slide deck",
            DocumentKind::Manual => "manual",
            DocumentKind::Brochure => "brochure",
            DocumentKind::Form => "form",
            DocumentKind::Other => "document",
        }
    }

    pub const ALL: [DocumentKind; 12] = [
        DocumentKind::AnnualReport,
        DocumentKind::QuarterlyReport,
        DocumentKind::CurrentReport,
        DocumentKind::EarningsRelease,
        DocumentKind::Paper,
        DocumentKind::Contract,
        DocumentKind::Report,
        DocumentKind::Slides,
        DocumentKind::Manual,
        DocumentKind::Brochure,
        DocumentKind::Form,
        DocumentKind::Other,
    ];

    /// Whether documents of this kind report on a fiscal period (filings and results),
    /// as papers, contracts and other documents do not.
    pub fn reports_a_period(self) -> bool {
        matches!(
            self,
            DocumentKind::AnnualReport
                | DocumentKind::QuarterlyReport
                | DocumentKind::CurrentReport
                | DocumentKind::EarningsRelease
        )
    }

    /// Parses the serialised name ("annual-report") or a label people type ("10-K").
    pub fn parse(text: &str) -> Option<Self> {
        let wanted = text.trim().to_lowercase();
        let by_form = match wanted.replace([' ', '_'], "-").as_str() {
            "10-k" | "10k" | "annual" => Some(DocumentKind::AnnualReport),
            "10-q" | "10q" | "quarterly" => Some(DocumentKind::QuarterlyReport),
            "8-k" | "8k" => Some(DocumentKind::CurrentReport),
            "earnings" => Some(DocumentKind::EarningsRelease),
            "slides" | "deck" | "presentation" => Some(DocumentKind::Slides),
            "guide" | "handbook" => Some(DocumentKind::Manual),
            _ => None,
        };
        by_form.or_else(|| {
            Self::ALL.into_iter().find(|kind| {
                serde_json::to_value(kind)
                    .ok()
                    .and_then(|v| v.as_str().map(|s| s == wanted.replace(' ', "-")))
                    .unwrap_or(false)
                    || kind.label() == wanted
            })
        })
    }
}

/// A card's fields, by the names `pagetree card DOC --set field=value` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum CardField {
    Title,
    Organization,
    Aliases,
    Kind,
    FiscalYear,
    FiscalQuarter,
    PeriodEnd,
    Date,
}

impl CardField {
    pub const ALL: [CardField; 8] = [
        CardField::Title,
        CardField::Organization,
        CardField::Aliases,
        CardField::Kind,
        CardField::FiscalYear,
        CardField::FiscalQuarter,
        CardField::PeriodEnd,
        CardField::Date,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CardField::Title => "title",
            CardField::Organization => "organization",
            CardField::Aliases => "aliases",
            CardField::Kind => "kind",
            CardField::FiscalYear => "fiscal_year",
            CardField::FiscalQuarter => "fiscal_quarter",
            CardField::PeriodEnd => "period_end",
            CardField::Date => "date",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        let name = name.trim().replace('-', "_");
        Self::ALL.into_iter().find(|field| field.name() == name)
    }
}

/// Where a card's values came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum CardSource {
    /// Read by rules from the document's metadata and first pages.
    #[default]
    Rules,
    /// Filled by the configured LLM through a JSON schema.
    Llm,
}

/// A document's identity. Every field may be missing; `unsure` names the fields the
/// reader guessed at, and `corrected` those a person set by hand.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DocumentCard {
    #[serde(default)]
    pub title: Option<String>,
    /// The issuing organisation as the document names itself ("3M Company").
    #[serde(default)]
    pub organization: Option<String>,
    /// Short forms and tickers the organisation goes by ("3M", "MMM").
    #[serde(default)]
    pub aliases: Vec<String>,
    #[serde(default)]
    pub kind: Option<DocumentKind>,
    /// The fiscal year the document reports on (for a 10-K, the year its fiscal year
    /// ends in; for a 10-Q or an earnings release, the fiscal year of its quarter).
    #[serde(default)]
    pub fiscal_year: Option<i32>,
    /// 1–4 for a quarterly document.
    #[serde(default)]
    pub fiscal_quarter: Option<u8>,
    /// The last day of the period covered, `YYYY-MM-DD`.
    #[serde(default)]
    pub period_end: Option<String>,
    /// The document's own date (an 8-K's date of report, a release's date), `YYYY-MM-DD`.
    #[serde(default)]
    pub date: Option<String>,
    #[serde(default)]
    pub unsure: Vec<CardField>,
    #[serde(default)]
    pub corrected: Vec<CardField>,
    #[serde(default)]
    pub source: CardSource,
}

/// What a document says about itself before its body: the input of card readers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FrontMatter {
    pub title: Option<String>,
    pub author: Option<String>,
    pub subject: Option<String>,
    pub keywords: Option<String>,
    /// PDF dates as stored (`D:20190207...`).
    pub creation_date: Option<String>,
    pub modification_date: Option<String>,
    /// Top-level bookmark titles, in order.
    pub outline: Vec<String>,
    /// Every bookmark of the outline with the page it opens, at every depth read.
    pub sections: Vec<crate::structure::SectionStart>,
    /// The cleaned text of the first pages, in order.
    pub first_pages: Vec<String>,
    /// How many pages the document has, and how many of them are wider than tall.
    pub page_count: usize,
    pub landscape_pages: usize,
}

/// Whether `year` can be a document's fiscal year; anything else a person or a model
/// gives is refused.
pub(crate) fn plausible_fiscal_year(year: i64) -> bool {
    (1900..=2100).contains(&year)
}

/// How many pages a card reader looks at: covers and the first pages of a filing's
/// body are enough, and reading further costs time on every ingestion. Four, not
/// three: a cover whose name is a logo leaves the name to the body's first page, which
/// comes after the cover, the contents and the forward-looking statements.
pub(crate) const FRONT_PAGES: usize = 4;

impl DocumentCard {
    /// The card in one line, as every node of its document carries it: organisation ·
    /// kind · period ("3M Company · 10-K annual report · fiscal year 2018"). Empty when
    /// the card knows none of them.
    pub fn short_form(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if let Some(organization) = &self.organization {
            parts.push(organization.clone());
        }
        if let Some(kind) = self.kind {
            parts.push(kind.label().to_string());
        }
        if !self.reports_a_period() {
            // A paper's year is the year of its date, not a fiscal year.
            match (&self.date, self.fiscal_year) {
                (Some(date), _) => parts.push(format!("dated {date}")),
                (None, Some(year)) => parts.push(year.to_string()),
                (None, None) => {}
            }
            return parts.join(" · ");
        }
        match (self.fiscal_quarter, self.fiscal_year) {
            (Some(quarter), Some(year)) => parts.push(format!("Q{quarter} fiscal year {year}")),
            (None, Some(year)) => parts.push(format!("fiscal year {year}")),
            _ => {}
        }
        if let Some(date) = &self.date {
            if self.kind == Some(DocumentKind::CurrentReport) || self.fiscal_year.is_none() {
                parts.push(format!("dated {date}"));
            }
        }
        parts.join(" · ")
    }

    /// The short form every node's dense vector starts with. A date and year the reader
    /// only guessed for a document that reports no period (most often the day its PDF
    /// was written, from the file's metadata) are left out: they say nothing about the
    /// text, and a page of a Wikipedia article that began "fiscal year 2026" was found
    /// less often.
    pub fn identity(&self) -> String {
        if self.reports_a_period() {
            return self.short_form();
        }
        let mut card = self.clone();
        if card.unsure.contains(&CardField::Date) {
            card.date = None;
        }
        if card.unsure.contains(&CardField::FiscalYear) {
            card.fiscal_year = None;
        }
        card.short_form()
    }

    /// Whether the card's kind reports on a fiscal period (not known: no).
    pub(crate) fn reports_a_period(&self) -> bool {
        self.kind.is_some_and(DocumentKind::reports_a_period)
    }

    /// The words a BM25 query should find the card by: the short form, the aliases,
    /// and the period as questions write it ("FY2018").
    pub(crate) fn search_words(&self) -> String {
        let mut words = vec![self.short_form()];
        words.extend(self.aliases.iter().cloned());
        if let Some(year) = self.fiscal_year {
            words.push(format!("FY{year} {year}"));
        }
        words.join(" ")
    }

    /// Whether the card names the organisation (the part that lets a question find
    /// the document without its file name).
    pub(crate) fn names_organization(&self) -> bool {
        self.organization.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_form_and_search_words() {
        let card = DocumentCard {
            organization: Some("3M Company".into()),
            aliases: vec!["3M".into(), "MMM".into()],
            kind: Some(DocumentKind::AnnualReport),
            fiscal_year: Some(2018),
            ..DocumentCard::default()
        };
        assert_eq!(
            card.short_form(),
            "3M Company · 10-K annual report · fiscal year 2018"
        );
        assert!(card.search_words().ends_with("3M MMM FY2018 2018"));
        let eight_k = DocumentCard {
            kind: Some(DocumentKind::CurrentReport),
            fiscal_year: Some(2022),
            date: Some("2022-07-01".into()),
            ..DocumentCard::default()
        };
        assert_eq!(
            eight_k.short_form(),
            "8-K current report · fiscal year 2022 · dated 2022-07-01"
        );
        assert_eq!(DocumentCard::default().short_form(), "");
    }

    #[test]
    fn short_form_of_a_document_that_reports_no_period() {
        let paper = DocumentCard {
            kind: Some(DocumentKind::Paper),
            fiscal_year: Some(2019),
            date: Some("2019-05-02".into()),
            ..DocumentCard::default()
        };
        assert_eq!(paper.short_form(), "paper · dated 2019-05-02");
        let contract = DocumentCard {
            kind: Some(DocumentKind::Contract),
            fiscal_year: Some(2019),
            ..DocumentCard::default()
        };
        assert_eq!(contract.short_form(), "contract · 2019");
        let unknown = DocumentCard {
            fiscal_year: Some(2026),
            ..DocumentCard::default()
        };
        assert_eq!(unknown.short_form(), "2026");
    }

    #[test]
    fn the_identity_leaves_out_a_period_guessed_for_a_document_that_reports_none() {
        // What the rules make of an article whose only date is its PDF's creation day.
        let article = DocumentCard {
            title: Some("Jacksonville".into()),
            fiscal_year: Some(2026),
            date: Some("2026-12-01".into()),
            unsure: vec![CardField::Kind, CardField::FiscalYear, CardField::Date],
            ..DocumentCard::default()
        };
        assert_eq!(article.short_form(), "dated 2026-12-01");
        assert_eq!(article.identity(), "");
        // A year the document states is kept, and a filing keeps even a guessed one.
        let paper = DocumentCard {
            kind: Some(DocumentKind::Paper),
            fiscal_year: Some(2019),
            date: Some("2019-05-02".into()),
            unsure: vec![CardField::Date],
            ..DocumentCard::default()
        };
        assert_eq!(paper.identity(), "paper · 2019");
        let filing = DocumentCard {
            organization: Some("3M Company".into()),
            kind: Some(DocumentKind::AnnualReport),
            fiscal_year: Some(2018),
            unsure: vec![CardField::FiscalYear],
            ..DocumentCard::default()
        };
        assert_eq!(filing.identity(), filing.short_form());
    }

    #[test]
    fn kinds_and_fields_parse_from_what_people_type() {
        assert_eq!(
            DocumentKind::parse("10-K"),
            Some(DocumentKind::AnnualReport)
        );
        assert_eq!(DocumentKind::parse("8k"), Some(DocumentKind::CurrentReport));
        assert_eq!(
            DocumentKind::parse("earnings-release"),
            Some(DocumentKind::EarningsRelease)
        );
        assert_eq!(DocumentKind::parse("poem"), None);
        assert_eq!(CardField::parse("fiscal-year"), Some(CardField::FiscalYear));
        assert_eq!(CardField::parse("colour"), None);
    }
}

/// A correction that cannot be applied, in words for the person who typed it.
#[derive(Debug, thiserror::Error)]
pub enum CardError {
    #[error("`{0}` is not a card field; the fields are title, organization, aliases, kind, fiscal_year, fiscal_quarter, period_end and date")]
    UnknownField(String),
    #[error("`{0}` is not field=value")]
    NotAnAssignment(String),
    #[error("{field} cannot be `{value}`: {expected}")]
    BadValue {
        field: &'static str,
        value: String,
        expected: &'static str,
    },
}

impl DocumentCard {
    /// Applies `field=value` as a person's correction (an empty value clears the field).
    pub fn correct(&mut self, assignment: &str) -> Result<CardField, CardError> {
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| CardError::NotAnAssignment(assignment.to_string()))?;
        let field =
            CardField::parse(name).ok_or_else(|| CardError::UnknownField(name.to_string()))?;
        let value = value.trim();
        let text = (!value.is_empty()).then(|| value.to_string());
        let bad = |expected| CardError::BadValue {
            field: field.name(),
            value: value.to_string(),
            expected,
        };
        match field {
            CardField::Title => self.title = text,
            CardField::Organization => self.organization = text,
            CardField::Aliases => {
                self.aliases = value
                    .split(',')
                    .map(str::trim)
                    .filter(|a| !a.is_empty())
                    .map(String::from)
                    .collect()
            }
            CardField::Kind => {
                self.kind = match text {
                    None => None,
                    Some(text) => Some(DocumentKind::parse(&text).ok_or_else(|| {
                        bad("one of 10-K, 10-Q, 8-K, earnings, paper, contract, other")
                    })?),
                }
            }
            CardField::FiscalYear => {
                self.fiscal_year = match text {
                    None => None,
                    Some(text) => Some(
                        text.parse::<i32>()
                            .ok()
                            .filter(|&y| plausible_fiscal_year(i64::from(y)))
                            .ok_or_else(|| bad("a year such as 2018"))?,
                    ),
                }
            }
            CardField::FiscalQuarter => {
                self.fiscal_quarter = match text {
                    None => None,
                    Some(text) => Some(
                        text.trim_start_matches(['Q', 'q'])
                            .parse::<u8>()
                            .ok()
                            .filter(|q| (1..=4).contains(q))
                            .ok_or_else(|| bad("a quarter from 1 to 4"))?,
                    ),
                }
            }
            CardField::PeriodEnd | CardField::Date => {
                if let Some(text) = &text {
                    if !llm::is_iso_date(text) {
                        return Err(bad("a date written YYYY-MM-DD"));
                    }
                }
                if field == CardField::PeriodEnd {
                    self.period_end = text;
                } else {
                    self.date = text;
                }
            }
        }
        self.unsure.retain(|f| *f != field);
        if !self.corrected.contains(&field) {
            self.corrected.push(field);
        }
        Ok(field)
    }
}

#[cfg(test)]
mod correction_tests {
    use super::*;

    #[test]
    fn corrections_set_clear_and_are_remembered() {
        let mut card = DocumentCard {
            unsure: vec![CardField::FiscalYear],
            ..DocumentCard::default()
        };
        card.correct("fiscal_year=2019").expect("year");
        card.correct("kind=10-K").expect("kind");
        card.correct("aliases=3M, MMM").expect("aliases");
        card.correct("fiscal-quarter=Q2").expect("quarter");
        assert_eq!(card.fiscal_year, Some(2019));
        assert_eq!(card.kind, Some(DocumentKind::AnnualReport));
        assert_eq!(card.aliases, vec!["3M", "MMM"]);
        assert_eq!(card.fiscal_quarter, Some(2));
        assert!(card.unsure.is_empty());
        assert_eq!(
            card.corrected,
            vec![
                CardField::FiscalYear,
                CardField::Kind,
                CardField::Aliases,
                CardField::FiscalQuarter
            ]
        );
        card.correct("fiscal_quarter=").expect("clears");
        assert_eq!(card.fiscal_quarter, None);
    }

    #[test]
    fn bad_corrections_say_what_is_expected() {
        let mut card = DocumentCard::default();
        let message = |result: Result<CardField, CardError>| result.expect_err("bad").to_string();
        assert!(message(card.correct("year=2019")).contains("not a card field"));
        assert!(message(card.correct("fiscal_year")).contains("not field=value"));
        assert!(message(card.correct("fiscal_year=last")).contains("a year such as 2018"));
        assert!(message(card.correct("date=1 July")).contains("YYYY-MM-DD"));
        assert!(message(card.correct("kind=poem")).contains("10-K"));
        assert_eq!(
            card,
            DocumentCard::default(),
            "a refused correction changes nothing"
        );
    }
}
