//! Over the whole library, a question's words that a document's text holds anywhere rank
//! its root up at the first step: the best match by the full weight, the others by
//! their share of its BM25.

mod common;

use std::collections::HashMap;

use common::{ingest_distinct_fixtures, open_library};
use pagetree::search::document_words::DOCUMENT_WORDS_WEIGHT;
use pagetree::search::{SearchSettings, Strategy};
use pagetree::tree::doc_id_of;
use pagetree::Library;

/// Each document's root score at the knee's first step, by file name.
async fn root_scores(
    library: &Library,
    question: &str,
    settings: &SearchSettings,
) -> HashMap<String, f32> {
    let names: HashMap<i64, String> = library
        .documents()
        .await
        .expect("documents")
        .into_iter()
        .map(|doc| (doc.id, doc.file_name))
        .collect();
    let result = library
        .search(question, &Strategy::Knee { max_roots: 20 }, settings)
        .await
        .expect("searches");
    let roots = result.trace.first().expect("a first step");
    roots
        .candidates
        .iter()
        .map(|node| (names[&doc_id_of(node.id)].clone(), node.score))
        .collect()
}

/// What the question's words add to each document's root.
async fn word_boosts(library: &Library, question: &str) -> HashMap<String, f32> {
    let with = root_scores(library, question, &SearchSettings::default()).await;
    let without = SearchSettings {
        query_analysis: false,
        ..SearchSettings::default()
    };
    let without = root_scores(library, question, &without).await;
    with.iter()
        .map(|(name, score)| (name.clone(), score - without[name]))
        .collect()
}

#[tokio::test]
async fn a_documents_words_rank_its_root_up_by_their_share_of_the_best_match() {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = open_library(dir.path()).await;
    ingest_distinct_fixtures(&library).await;

    // Words of two pages of one document, on no other.
    let boosts = word_boosts(&library, "magma turbofan").await;
    assert!(boosts.len() > 2, "{boosts:?}");
    for (name, boost) in &boosts {
        let expected = if name == "multipage.pdf" {
            DOCUMENT_WORDS_WEIGHT
        } else {
            0.0
        };
        assert!((boost - expected).abs() < 1e-4, "{name}: {boosts:?}");
    }

    // A word of each of two documents: each gets a share, the better match all of it.
    let boosts = word_boosts(&library, "chlorophyll chlorophyll camellia").await;
    let (multipage, coffee) = (boosts["multipage.pdf"], boosts["with-empty-page.pdf"]);
    assert!(multipage > 0.0 && coffee > 0.0, "{boosts:?}");
    assert!(
        (multipage.max(coffee) - DOCUMENT_WORDS_WEIGHT).abs() < 1e-4,
        "{boosts:?}"
    );
    assert!(multipage.min(coffee) < DOCUMENT_WORDS_WEIGHT, "{boosts:?}");

    // The lookup runs beside the store calls; every strategy waits for it, flat (which
    // weighs documents only when it orders the pages it took) included.
    for strategy in [Strategy::Knee { max_roots: 20 }, Strategy::Flat { k: 5 }] {
        let result = library
            .search("magma turbofan", &strategy, &SearchSettings::default())
            .await
            .expect("searches");
        let note = result.analysis.expect("the question's analysis").note;
        assert!(
            note.contains("the one document whose text holds the question's words is ranked up"),
            "{}: {note}",
            strategy.name()
        );
    }
}
