//! A card filled by the configured language model through a JSON schema, checked
//! field by field; what the model leaves out or gets wrong falls back to the rules.

use serde::Deserialize;
use serde_json::json;

use super::{CardField, CardSource, DocumentCard, DocumentKind, FrontMatter};
use crate::llm::{cut_chars, LlmClient, LlmFailure};

/// Covers and first pages carry a document's identity; more text only costs tokens
/// (and a small local model seconds per document).
const FRONT_CHARS: usize = 3_000;
const NAME_MAX_CHARS: usize = 120;
const MAX_ALIASES: usize = 6;

const CARD_PROMPT: &str = "You catalogue documents. Read the start of a document and \
answer with JSON describing the document itself: `title`; `organization`, the issuer's \
full name as the document writes it; `aliases`, short names and stock tickers people use \
for it; `kind`, one of annual-report (e.g. a 10-K), quarterly-report (10-Q), \
current-report (8-K), earnings-release, paper, contract, report (a report that is not \
a filing), slides, manual (a manual or guide), brochure, form, other; `fiscal_year`, the \
fiscal year the document reports on; `fiscal_quarter` (1-4) for a quarterly document; \
`period_end` and `date` as YYYY-MM-DD. Use null for what the text does not say.";

#[derive(Deserialize)]
struct RawCard {
    title: Option<String>,
    organization: Option<String>,
    #[serde(default)]
    aliases: Vec<String>,
    kind: Option<String>,
    fiscal_year: Option<i64>,
    fiscal_quarter: Option<i64>,
    period_end: Option<String>,
    date: Option<String>,
}

/// Asks the model for `front`'s card; `rules` supplies what the model does not.
pub async fn fill_card(
    client: &LlmClient,
    front: &FrontMatter,
    rules: &DocumentCard,
) -> Result<DocumentCard, LlmFailure> {
    let content = client
        .complete_json(CARD_PROMPT, &prompt(front), &schema(), "document_card", 250)
        .await?;
    parse(&content, rules)
}

fn prompt(front: &FrontMatter) -> String {
    let mut lines = Vec::new();
    for (label, value) in [
        ("Metadata title", &front.title),
        ("Metadata author", &front.author),
        ("Metadata subject", &front.subject),
    ] {
        if let Some(value) = value {
            lines.push(format!("{label}: {}", cut_chars(value, 300)));
        }
    }
    if !front.outline.is_empty() {
        lines.push(format!(
            "Outline: {}",
            cut_chars(&front.outline.join(" | "), 600)
        ));
    }
    let text = front.first_pages.join("\n\n");
    lines.push(format!(
        "First pages:\n\"\"\"\n{}\n\"\"\"",
        cut_chars(&text, FRONT_CHARS)
    ));
    lines.join("\n")
}

fn schema() -> serde_json::Value {
    let text = |max: usize| json!({"type": ["string", "null"], "maxLength": max});
    json!({
        "type": "object",
        "properties": {
            "title": text(200),
            "organization": text(NAME_MAX_CHARS),
            "aliases": {"type": "array", "items": {"type": "string", "maxLength": 40}, "maxItems": MAX_ALIASES},
            "kind": {"type": ["string", "null"], "enum": ["annual-report", "quarterly-report", "current-report", "earnings-release", "paper", "contract", "report", "slides", "manual", "brochure", "form", "other", null]},
            "fiscal_year": {"type": ["integer", "null"], "minimum": 1900, "maximum": 2100},
            "fiscal_quarter": {"type": ["integer", "null"], "minimum": 1, "maximum": 4},
            "period_end": text(10),
            "date": text(10)
        },
        "required": ["title", "organization", "aliases", "kind", "fiscal_year", "fiscal_quarter", "period_end", "date"],
        "additionalProperties": false
    })
}

/// Keeps each of the model's values that passes its check, and the rules' value
/// otherwise; a field the model filled is no longer unsure.
fn parse(content: &str, rules: &DocumentCard) -> Result<DocumentCard, LlmFailure> {
    let raw: RawCard =
        serde_json::from_str(content).map_err(|err| LlmFailure::Garbage(err.to_string()))?;
    let mut card = rules.clone();
    let mut filled = Vec::new();
    let clean = |value: Option<String>, max: usize| {
        value
            .map(|v| cut_chars(v.trim(), max))
            .filter(|v| !v.is_empty())
    };
    if let Some(title) = clean(raw.title, 200) {
        card.title = Some(title);
        filled.push(CardField::Title);
    }
    if let Some(organization) = clean(raw.organization, NAME_MAX_CHARS) {
        card.organization = Some(organization);
        filled.push(CardField::Organization);
    }
    let aliases: Vec<String> = raw
        .aliases
        .into_iter()
        .filter_map(|a| clean(Some(a), 40))
        .take(MAX_ALIASES)
        .collect();
    if !aliases.is_empty() {
        for alias in aliases {
            if !card.aliases.iter().any(|a| a.eq_ignore_ascii_case(&alias)) {
                card.aliases.push(alias);
            }
        }
        filled.push(CardField::Aliases);
    }
    if let Some(kind) = raw.kind.as_deref().and_then(DocumentKind::parse) {
        card.kind = Some(kind);
        filled.push(CardField::Kind);
    }
    if let Some(year) = raw.fiscal_year.filter(|&y| super::plausible_fiscal_year(y)) {
        card.fiscal_year = Some(year as i32);
        filled.push(CardField::FiscalYear);
    }
    if let Some(quarter) = raw.fiscal_quarter.filter(|q| (1..=4).contains(q)) {
        card.fiscal_quarter = Some(quarter as u8);
        filled.push(CardField::FiscalQuarter);
    }
    if let Some(end) = clean(raw.period_end, 10).filter(|d| is_iso_date(d)) {
        card.period_end = Some(end);
        filled.push(CardField::PeriodEnd);
    }
    if let Some(date) = clean(raw.date, 10).filter(|d| is_iso_date(d)) {
        card.date = Some(date);
        filled.push(CardField::Date);
    }
    if filled.is_empty() {
        return Err(LlmFailure::Garbage("the card is empty".into()));
    }
    card.unsure.retain(|field| !filled.contains(field));
    card.source = CardSource::Llm;
    Ok(card)
}

/// `YYYY-MM-DD` with a plausible month and day.
pub(crate) fn is_iso_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let number = |part: &str, len: usize| {
        (part.len() == len && part.chars().all(|c| c.is_ascii_digit()))
            .then(|| part.parse::<u32>().ok())
            .flatten()
    };
    match parts.as_slice() {
        [y, m, d] => {
            number(y, 4).is_some_and(|y| (1900..=2100).contains(&y))
                && number(m, 2).is_some_and(|m| (1..=12).contains(&m))
                && number(d, 2).is_some_and(|d| (1..=31).contains(&d))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_valid_values_and_falls_back_to_the_rules_for_the_rest() {
        let rules = DocumentCard {
            organization: Some("3M Company".into()),
            fiscal_year: Some(2018),
            unsure: vec![CardField::Kind, CardField::FiscalYear],
            ..DocumentCard::default()
        };
        let card = parse(
            r#"{"title":" 3M 10-K 2018 ","organization":null,"aliases":["MMM"],"kind":"annual-report",
                "fiscal_year":3018,"fiscal_quarter":7,"period_end":"2018-12-31","date":"31/12/2018"}"#,
            &rules,
        )
        .expect("valid");
        assert_eq!(card.title.as_deref(), Some("3M 10-K 2018"));
        assert_eq!(card.organization.as_deref(), Some("3M Company"));
        assert_eq!(card.aliases, vec!["MMM"]);
        assert_eq!(card.kind, Some(DocumentKind::AnnualReport));
        assert_eq!(
            card.fiscal_year,
            Some(2018),
            "an impossible year is refused"
        );
        assert_eq!(card.fiscal_quarter, None);
        assert_eq!(card.period_end.as_deref(), Some("2018-12-31"));
        assert_eq!(card.date, None, "a date not in YYYY-MM-DD is refused");
        assert_eq!(card.unsure, vec![CardField::FiscalYear]);
        assert_eq!(card.source, CardSource::Llm);
    }

    #[test]
    fn garbage_and_empty_cards_are_failures() {
        let rules = DocumentCard::default();
        assert!(matches!(
            parse("not json", &rules),
            Err(LlmFailure::Garbage(_))
        ));
        let empty = r#"{"title":null,"organization":"  ","aliases":[],"kind":"poem","fiscal_year":null,
            "fiscal_quarter":null,"period_end":null,"date":null}"#;
        assert!(matches!(parse(empty, &rules), Err(LlmFailure::Garbage(_))));
    }

    #[test]
    fn iso_dates() {
        assert!(is_iso_date("2022-07-01"));
        assert!(!is_iso_date("2022-13-01"));
        assert!(!is_iso_date("22-07-01"));
        assert!(!is_iso_date("July 1"));
    }
}
