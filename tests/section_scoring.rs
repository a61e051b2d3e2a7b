//! Sections scored by their pages on a real filing: a question whose evidence page sits
//! under summaries that do not resemble it is found by the knee when sections are
//! scored by their best page, and lost when they are scored by their own text.

mod common;

use common::{filing, open_library};
use pagetree::ingest::NoProgress;
use pagetree::search::{SearchSettings, SectionScoring, Strategy};

/// MGM Resorts' 10-Q for the second quarter of 2023: the answer is in the note on
/// investments, page 11 (found on the dev split: the knee over own-text scores cuts the
/// section above it at the second step).
const FILING: &str = "MGMRESORTS_2023Q2_10Q";
const QUESTION: &str = "Which type of debt received the largest investment among the short \
    term investments for MGM in H1 FY2023?";
const EVIDENCE_PAGE: u32 = 11;

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
