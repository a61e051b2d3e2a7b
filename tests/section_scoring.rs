//! Sections scored by their pages on a real filing: a question whose evidence page sits
//! under summaries that do not resemble it is found by the knee when sections are
//! scored by their best page, and lost when they are scored by their own text.

mod common;

use common::{filing, open_library};
use pagetree::ingest::NoProgress;
use pagetree::search::{SearchSettings, SectionScoring, Strategy};

/// Boeing's 10-K for 2022: the revenue by product and service category that answers the
/// question is on page 62, inside the segment note. Over own-text scores the knee keeps
/// page 55 and cuts the section holding page 62. Measured on the dev split, told the filing
/// (`bench --per-document --strategies knee`, `--section-scoring own-text` against
/// `best-page`), and in a library of this filing alone. The earlier case (MGM's 10-Q for
/// 2023 Q2) stopped telling the scorings apart in a library of its own once boilerplate
/// left the descriptions: its summaries no longer hide the page.
const FILING: &str = "BOEING_2022_10K";
const QUESTION: &str = "Are there any product categories / service categories that represent \
    more than 20% of Boeing's revenue for FY2022?";
const EVIDENCE_PAGE: u32 = 62;

#[tokio::test]
async fn the_knee_finds_a_page_below_a_generic_summary_only_by_section_scores_from_pages() {
    let file = filing(&format!("{FILING}.pdf"));
    let dir = tempfile::tempdir().expect("temp dir");
    let library = open_library(&dir.path().join("library")).await;
    let outcome = library.ingest(&file, &NoProgress).await.expect("ingests");
    let pagetree::ingest::IngestOutcome::Added { document, .. } = outcome else {
        panic!("{FILING} was new");
    };

    let mut found = Vec::new();
    for scoring in SectionScoring::ALL {
        let settings = SearchSettings {
            documents: Some(vec![document.id]),
            token_budget: Some(2500),
            section_scoring: scoring,
            ..SearchSettings::default()
        };
        let result = library
            .search(QUESTION, &Strategy::Knee { max_roots: 40 }, &settings)
            .await
            .expect("searches");
        let pages: Vec<u32> = result.context.pages.iter().map(|p| p.page).collect();
        found.push((scoring, pages.contains(&EVIDENCE_PAGE), pages));
    }
    let by = |wanted: SectionScoring| {
        found
            .iter()
            .find(|(scoring, _, _)| *scoring == wanted)
            .map(|(_, hit, pages)| (*hit, pages.clone()))
            .expect("both scorings ran")
    };
    let (best_page_hit, best_pages) = by(SectionScoring::BestPage);
    let (own_text_hit, own_pages) = by(SectionScoring::OwnText);
    assert!(
        best_page_hit,
        "best-page scoring reaches page {EVIDENCE_PAGE}: {best_pages:?}"
    );
    assert!(
        !own_text_hit,
        "own-text scoring cuts it away: {own_pages:?}"
    );
}
