//! A document's identity card: who issued it, what kind of document it is and which
//! period it covers, read from the document itself (metadata, outline, first pages),
//! never from its file name. Cards let a question find its document before its pages.

mod dates;
mod kind;
mod names;
mod period;
mod rules;
mod text;

use serde::{Deserialize, Serialize};

pub use rules::read_card;

/// What kind of document a card describes. Filings have their SEC form; everything
/// else has a generic kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
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
            DocumentKind::Other => "document",
        }
    }

    pub const ALL: [DocumentKind; 7] = [
        DocumentKind::AnnualReport,
        DocumentKind::QuarterlyReport,
        DocumentKind::CurrentReport,
        DocumentKind::EarningsRelease,
        DocumentKind::Paper,
        DocumentKind::Contract,
        DocumentKind::Other,
    ];

    /// Parses the serialised name ("annual-report") or a label people type ("10-K").
    pub fn parse(text: &str) -> Option<Self> {
        let wanted = text.trim().to_lowercase();
        let by_form = match wanted.replace([' ', '_'], "-").as_str() {
            "10-k" | "10k" | "annual" => Some(DocumentKind::AnnualReport),
            "10-q" | "10q" | "quarterly" => Some(DocumentKind::QuarterlyReport),
            "8-k" | "8k" => Some(DocumentKind::CurrentReport),
            "earnings" => Some(DocumentKind::EarningsRelease),
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
    /// The cleaned text of the first pages, in order.
    pub first_pages: Vec<String>,
}

/// How many pages a card reader looks at: covers and the first pages of a filing's
/// body are enough, and reading further costs time on every ingestion. Four, not
/// three: a cover whose name is a logo leaves the name to the body's first page, which
/// comes after the cover, the contents and the forward-looking statements.
pub const FRONT_PAGES: usize = 4;
