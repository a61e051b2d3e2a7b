//! A new library's BM25 vectors read each page's full text, not only its description:
//! on a real filing, words that only the page's text holds find the page by BM25
//! alone, and stop finding it once the library is switched to descriptions only.

mod common;

use common::{filing, open_library};
use pagetree::ingest::{IngestOutcome, NoProgress};
use pagetree::search::{SearchResult, SearchSettings, Strategy};
use pagetree::settings::LibrarySettings;
use pagetree::store::Fusion;

/// Amcor's release for 2023 Q4 lists the dial-in numbers of its conference call on
/// page 5; the page's extractive description stops before the countries' list.
const FILING: &str = "AMCOR_2023Q4_EARNINGS";
const PAGE: u32 = 5;
const QUESTION: &str = "Singapore Hong Kong";

/// The pages BM25 alone ranks first for the question, with their scores.
async fn bm25_only(library: &pagetree::library::Library, document: i64) -> SearchResult {
    let settings = SearchSettings {
        documents: Some(vec![document]),
        fusion: Fusion::rrf(2, 0.0, 1.0),
        ..SearchSettings::default()
    };
    library
        .search(QUESTION, &Strategy::Flat { k: 3 }, &settings)
        .await
        .expect("searches")
}

#[tokio::test]
async fn words_past_a_pages_description_find_it_by_bm25_only_with_full_text() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut library = open_library(&dir.path().join("library")).await;
    assert!(library.settings().index_leaf_text, "on for a new library");
    let outcome = library
        .ingest(&filing(&format!("{FILING}.pdf")), &NoProgress)
        .await
        .expect("ingests");
    let IngestOutcome::Added { document, .. } = outcome else {
        panic!("{FILING} was new");
    };

    // Without this the test would prove nothing: the words must be in the page's text
    // and in no node's description or keywords.
    let store = library.store().await.expect("store");
    let nodes = store.document_nodes(document.id).await.expect("nodes");
    for node in &nodes {
        let said = format!("{} {}", node.description, node.keywords.join(" ")).to_lowercase();
        assert!(
            !said.contains("singapore") && !said.contains("hong kong"),
            "node {} (pages {}-{}) describes the words itself: {said}",
            node.id,
            node.page_start,
            node.page_end
        );
    }

    let full_text = bm25_only(&library, document.id).await;
    let first = full_text.selected.first().expect("a page");
    assert_eq!(
        (first.page_start, first.page_end),
        (PAGE, PAGE),
        "{:?}",
        full_text.selected
    );
    assert!(first.score > 0.0, "found by BM25: {first:?}");

    let descriptions_only = LibrarySettings {
        index_leaf_text: false,
        ..library.settings().clone()
    };
    library
        .update_settings(descriptions_only)
        .await
        .expect("settings");
    library.reindex(false, &NoProgress).await.expect("reindex");
    let described = bm25_only(&library, document.id).await;
    assert!(
        described.selected.iter().all(|node| node.score == 0.0),
        "no description holds the words: {:?}",
        described.selected
    );
}
