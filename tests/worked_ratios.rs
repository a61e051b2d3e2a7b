//! An extractive answer works out the ratio a question asks for from the rows of a real
//! filing's statement page, as pdfium reads it, and quotes those rows first.

mod common;

use pagetree::assets::Assets;
use pagetree::chat::extractive::{answer, shortlist, PageCandidates, RankedPage};
use pagetree::chat::layout::read_layouts;
use pagetree::embed::SparseEmbedder;

/// The answer's first line (after the note) for `question` over `pages` of `filing`.
fn worked_out(filing: &str, pages: &[u32], question: &str) -> (String, Vec<Option<String>>) {
    let assets = Assets::locate(None, None).expect("assets (scripts/setup.sh)");
    let sparse = SparseEmbedder::new("english").expect("bm25");
    let path = common::filing(filing);
    let layouts = read_layouts(&assets.pdfium_library, &path, pages).expect("layouts");
    let built: Vec<PageCandidates> = layouts
        .into_iter()
        .map(|layout| {
            let page = layout.page;
            PageCandidates::build(1, "F", page, Some(layout), None, &sparse).expect("candidates")
        })
        .collect();
    let ranked: Vec<RankedPage<'_>> = built
        .iter()
        .map(|page| RankedPage { page, rank: 1.0 })
        .collect();
    let answered = answer(&shortlist(question, &sparse, &ranked), &|_| None);
    let line = answered
        .checked
        .text
        .lines()
        .nth(1)
        .unwrap_or_default()
        .to_string();
    let labels = answered.passages.iter().map(|p| p.label.clone()).collect();
    (line, labels)
}

#[test]
fn corning_s_three_year_average_operating_margin() {
    let (line, labels) = worked_out(
        "CORNING_2021_10K.pdf",
        &[65],
        "Taking into account the information outlined in the income statement, what is the FY2019 - FY2021 3 year average unadjusted operating income % margin for Corning? Answer in units of percents and round to one decimal place.",
    );
    // 1,306 / 11,503, 509 / 11,303 and 2,112 / 14,082.
    assert_eq!(
        line,
        "- Worked out from the rows quoted below: Operating margin (operating income / revenue): 2019: 11.35%; 2020: 4.50%; 2021: 15.00%; average of 2019–2021: 10.28% [F p.65]"
    );
    assert_eq!(
        labels[..2],
        [
            Some("Operating income".to_string()),
            Some("Net sales".to_string())
        ]
    );
}

#[test]
fn boeing_s_effective_tax_rate_against_the_year_before() {
    let (line, _) = worked_out(
        "BOEING_2022_10K.pdf",
        &[55],
        "How does Boeing's effective tax rate in FY2022 compare to FY2021?",
    );
    assert!(
        line.contains("Effective tax rate (income tax / income before income taxes): 2021: -14.76%; 2022: -0.62%"),
        "{line}"
    );
}

#[test]
fn no_ratio_is_made_up_for_a_question_that_asks_for_a_line() {
    let (line, _) = worked_out(
        "CORNING_2021_10K.pdf",
        &[65],
        "What was Corning's operating income in FY2021?",
    );
    assert!(!line.contains("Worked out"), "{line}");
}
