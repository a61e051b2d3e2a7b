//! What kind of document a front matter belongs to: an SEC form by its cover, an
//! earnings release by its headline, a paper or a contract by a few telling words.

use std::sync::OnceLock;

use regex::Regex;

use super::text::{loose_regex, window};
use super::DocumentKind;

/// How far into the cover the form's name is looked for: past it, a cover only
/// mentions other forms ("Part III of this Form 10-K", "Form 8-K filing is intended").
const COVER_HEAD: usize = 1_500;

/// The SEC form a cover page announces, if it is one.
pub(crate) fn sec_form(cover: &str) -> Option<DocumentKind> {
    let head = window(cover, 0, COVER_HEAD);
    if !looks_like_sec_cover(head) {
        return None;
    }
    form_named_first(head).or_else(|| form_by_report_heading(head))
}

fn looks_like_sec_cover(head: &str) -> bool {
    static CUES: OnceLock<Vec<Regex>> = OnceLock::new();
    let cues = CUES.get_or_init(|| {
        [
            "securities and exchange commission",
            "pursuant to section 13 or 15(d)",
            "exact name of registrant",
        ]
        .iter()
        .map(|phrase| loose_regex(phrase))
        .collect()
    });
    cues.iter().any(|cue| cue.is_match(head))
}

/// The first "Form 10-K" / "FORM 10-Q" / "Form 8-K" in the head: the cover's title comes
/// before its check boxes mention any other form.
fn form_named_first(head: &str) -> Option<DocumentKind> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)\bform\s*(10\s*-?\s*k|10\s*-?\s*q|8\s*-?\s*k)(?:\s*/\s*a)?\b")
            .expect("valid regex")
    });
    let form = re.captures(head)?.get(1)?.as_str().to_lowercase();
    kind_of_form(&form)
}

fn kind_of_form(form: &str) -> Option<DocumentKind> {
    let compact: String = form.chars().filter(|c| c.is_alphanumeric()).collect();
    match compact.as_str() {
        "10k" => Some(DocumentKind::AnnualReport),
        "10q" => Some(DocumentKind::QuarterlyReport),
        "8k" => Some(DocumentKind::CurrentReport),
        _ => None,
    }
}

/// Covers whose form name is an image still say which report they are.
fn form_by_report_heading(head: &str) -> Option<DocumentKind> {
    static HEADINGS: OnceLock<Vec<(Regex, DocumentKind)>> = OnceLock::new();
    let headings = HEADINGS.get_or_init(|| {
        [
            ("quarterly report pursuant", DocumentKind::QuarterlyReport),
            ("current report pursuant", DocumentKind::CurrentReport),
            ("annual report pursuant", DocumentKind::AnnualReport),
        ]
        .into_iter()
        .map(|(phrase, kind)| (loose_regex(phrase), kind))
        .collect()
    });
    headings
        .iter()
        .filter_map(|(re, kind)| re.find(head).map(|found| (found.start(), *kind)))
        .min_by_key(|(start, _)| *start)
        .map(|(_, kind)| kind)
}

/// Whether the first page reads like a press release of results: "Pfizer Reports
/// Second-Quarter 2023 Results", "… reported financial results for the quarter".
pub(crate) fn is_earnings_release(first_page: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"(?i)\breports?\b.{0,60}?\b(?:quarter|full[\s-]*year|fiscal|annual|half[\s-]*year|(?:19|20)\d\d)\b.{0,40}?\b(?:results|earnings)\b|\breported\s+(?:financial\s+)?results\s+for\s+the\b|\bearnings\s+release\b",
        )
        .expect("valid regex")
    });
    re.is_match(window(first_page, 0, COVER_HEAD))
}

/// The kind a form name in PDF metadata gives ("Form 10-Q filed on …", "10-K"), for
/// documents whose cover has no text layer.
pub(crate) fn form_in_metadata(value: &str) -> Option<DocumentKind> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)(?:^|[^\w-])(10-?k|10-?q|8-?k)(?:[^\w-]|$)").expect("valid regex")
    });
    let form = re.captures(value)?.get(1)?.as_str().to_lowercase();
    kind_of_form(&form)
}

/// Papers and contracts by the words they cannot do without, in English, Spanish and
/// Russian. Two different cues are needed: one word is too easily a coincidence.
pub(crate) fn generic_kind(text: &str) -> Option<DocumentKind> {
    const PAPER: [&str; 12] = [
        "abstract",
        "references",
        "introduction",
        "et al.",
        "doi:",
        "arxiv",
        "resumen",
        "referencias",
        "introducción",
        "аннотация",
        "список литературы",
        "введение",
    ];
    const CONTRACT: [&str; 14] = [
        "agreement",
        "hereinafter",
        "parties",
        "party",
        "whereas",
        "witnesseth",
        "contrato",
        "las partes",
        "en adelante",
        "cláusula",
        "договор",
        "стороны",
        "именуем",
        "соглашение",
    ];
    let lower = text.to_lowercase();
    let cues = |words: &[&str]| words.iter().filter(|word| lower.contains(*word)).count();
    let (paper, contract) = (cues(&PAPER), cues(&CONTRACT));
    match (paper >= 2, contract >= 2) {
        (true, false) => Some(DocumentKind::Paper),
        (false, true) => Some(DocumentKind::Contract),
        (true, true) if paper > contract => Some(DocumentKind::Paper),
        (true, true) => Some(DocumentKind::Contract),
        (false, false) => None,
    }
}
