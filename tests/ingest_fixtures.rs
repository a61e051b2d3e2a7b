//! Ingestion of small real PDFs: pages, cleaning, flags, trees and idempotence.

mod common;

use common::{added, fixture, ingest_fixture, leaf, open_library, page_text, temp_library};
use pagetree::catalog::DocumentStatus;
use pagetree::ingest::{IngestOutcome, NoProgress};
use pagetree::tree::check_invariants;

#[tokio::test]
async fn multipage_pdf_becomes_a_valid_tree_with_distinctive_keywords() {
    let (_dir, library) = temp_library().await;
    let (document, warnings, seconds) = added(ingest_fixture(&library, "multipage.pdf").await);
    assert_eq!(document.status, DocumentStatus::Ready);
    assert_eq!(document.page_count, Some(6));
    assert!(warnings.is_empty(), "{warnings:?}");
    // Every stage that did work was timed (for per-stage throughput in `ingest`).
    for (stage, secs) in seconds.stages() {
        assert!(secs > 0.0, "{stage} was timed: {seconds:?}");
    }

    let (_, nodes) = library.tree("multipage").await.expect("tree");
    check_invariants(&nodes, 6).expect("tree invariants");
    // 6 pages at width 4: two parents (4 + 2 pages) and a root.
    assert_eq!(nodes.len(), 9);
    let page = |n: u32| leaf(&nodes, n);
    for (number, term) in [
        (1, "chlorophyll"),
        (2, "magma"),
        (3, "portcullis"),
        (5, "turbofan"),
    ] {
        assert!(
            page(number).keywords.iter().any(|k| k == term),
            "page {number} keywords {:?} lack {term}",
            page(number).keywords
        );
        assert!(page(number).description.to_lowercase().contains(term));
    }
    let root = nodes.iter().find(|node| node.is_root()).expect("root");
    assert_eq!((root.page_start, root.page_end, root.parent_id), (1, 6, -1));
    assert!(root.keywords.iter().any(|k| k == "harpsichord"));
}

#[tokio::test]
async fn words_hyphenated_across_lines_are_joined_in_the_stored_text() {
    let (_dir, library) = temp_library().await;
    ingest_fixture(&library, "multipage.pdf").await;
    let text = page_text(&library, "multipage", 2).await;
    assert!(text.contains("violent eruption that"), "{text}");
    assert!(!text.contains('\u{fffe}') && !text.contains('\u{2}') && !text.contains('\r'));
}

#[tokio::test]
async fn a_blank_page_is_flagged_and_kept() {
    let (_dir, library) = temp_library().await;
    let (document, warnings, _) = added(ingest_fixture(&library, "with-empty-page.pdf").await);
    assert_eq!(document.page_count, Some(3));
    assert_eq!(document.pages_without_text, Some(1));
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("no text layer") && w.ends_with(": 2")),
        "{warnings:?}"
    );
    let (_, nodes) = library.tree("with-empty-page").await.expect("tree");
    check_invariants(&nodes, 3).expect("every page, blank or not, is a leaf");
}

#[tokio::test]
async fn cyrillic_and_spanish_text_survive_extraction() {
    let (_dir, library) = temp_library().await;
    for file in ["cyrillic.pdf", "spanish.pdf"] {
        ingest_fixture(&library, file).await;
    }
    let (_, nodes) = library.tree("cyrillic").await.expect("tree");
    let baikal = leaf(&nodes, 2);
    assert!(
        baikal.keywords.iter().any(|k| k == "байкал"),
        "{:?}",
        baikal.keywords
    );
    let text = page_text(&library, "spanish", 2).await;
    assert!(
        text.contains("paella") && text.chars().any(|c| "áéíóñ".contains(c)),
        "{text}"
    );
}

#[tokio::test]
async fn adding_the_same_content_twice_is_a_no_op_and_delete_removes_everything() {
    let (dir, library) = temp_library().await;
    ingest_fixture(&library, "multipage.pdf").await;
    // Same bytes under another name: still the same document.
    let copy = dir.path().join("copy-of-multipage.pdf");
    std::fs::copy(fixture("multipage.pdf"), &copy).expect("copy");
    let again = library.ingest(&copy, &NoProgress).await.expect("second");
    assert!(matches!(again, IngestOutcome::AlreadyPresent { .. }));
    assert_eq!(library.documents().await.expect("docs").len(), 1);

    let store = library.store().await.expect("store");
    let document = library.catalog().resolve("multipage").await.expect("known");
    assert_eq!(store.count(Some(document.id)).await.expect("count"), 9);
    library.delete("multipage").await.expect("delete");
    assert_eq!(store.count(Some(document.id)).await.expect("count"), 0);
    assert!(library.documents().await.expect("docs").is_empty());
    assert!(library
        .catalog()
        .page_text(document.id, 1)
        .await
        .expect("q")
        .is_none());
}

#[tokio::test]
async fn a_library_reopens_with_its_documents_and_trees() {
    let dir = tempfile::tempdir().expect("temp dir");
    {
        let library = open_library(dir.path()).await;
        ingest_fixture(&library, "multipage.pdf").await;
    }
    let library = open_library(dir.path()).await;
    let (document, nodes) = library
        .tree("multipage")
        .await
        .expect("tree after reopening");
    assert_eq!(document.status, DocumentStatus::Ready);
    check_invariants(&nodes, 6).expect("invariants");
}

#[tokio::test]
async fn keywords_of_real_documents_hold_no_stop_word() {
    let (_dir, library) = temp_library().await;
    let files = [
        fixture("multipage.pdf"),
        fixture("cyrillic.pdf"),
        fixture("spanish.pdf"),
        common::filing("FOOTLOCKER_2022_8K_dated-2022-05-20.pdf"),
    ];
    for file in &files {
        library.ingest(file, &NoProgress).await.expect("ingests");
    }
    for document in library.catalog().documents().await.expect("documents") {
        let (_, nodes) = library.tree(&document.name).await.expect("tree");
        let keywords: Vec<&String> = nodes.iter().flat_map(|node| &node.keywords).collect();
        assert!(!keywords.is_empty(), "{} has keywords", document.name);
        let stop: Vec<&&String> = keywords
            .iter()
            .filter(|word| pagetree::describe::extractive::is_stop_word(word))
            .collect();
        assert!(stop.is_empty(), "{}: {stop:?}", document.name);
    }
}
