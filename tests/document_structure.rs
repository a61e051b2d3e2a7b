//! Trees that follow a document's own structure: the chapters of its outline, or of its
//! numbered headings where it has none, are sections with their titles; a document with
//! neither keeps the grouping of consecutive pages; a slide is found by its title.

mod common;

use common::{ingest_fixture, temp_library};
use pagetree::search::{SearchSettings, Strategy};
use pagetree::tree::Node;

/// Every titled node of a tree as (title, first page, last page), in page order.
fn titled(nodes: &[Node]) -> Vec<(String, u32, u32)> {
    let mut found: Vec<(String, u32, u32)> = nodes
        .iter()
        .filter_map(|n| n.title.clone().map(|t| (t, n.page_start, n.page_end)))
        .collect();
    found.sort_by_key(|(_, start, end)| (*start, std::cmp::Reverse(*end)));
    found
}

fn child_titles(nodes: &[Node], parent: &Node) -> Vec<String> {
    parent
        .child_ids
        .iter()
        .filter_map(|id| nodes.iter().find(|n| n.id == *id))
        .filter_map(|n| n.title.clone())
        .collect()
}

#[tokio::test]
async fn an_outlines_chapters_are_sections_with_their_titles() {
    let (_dir, library) = temp_library().await;
    ingest_fixture(&library, "with-outline.pdf").await;
    let (_, nodes) = library.tree("with-outline").await.expect("tree");
    pagetree::tree::check_invariants(&nodes, 10).expect("a well-formed tree");
    assert_eq!(
        titled(&nodes),
        vec![
            ("1 Getting started".to_string(), 1, 3),
            ("2 Installing the pump".to_string(), 4, 7),
            ("2.1 Mounting bracket".to_string(), 4, 5),
            ("2.2 Wiring the motor".to_string(), 6, 7),
            ("3 Maintenance".to_string(), 8, 10),
        ]
    );
    let pump = nodes
        .iter()
        .find(|n| n.title.as_deref() == Some("2 Installing the pump"))
        .expect("chapter 2");
    assert_eq!(
        child_titles(&nodes, pump),
        vec!["2.1 Mounting bracket", "2.2 Wiring the motor"]
    );
    let root = nodes.iter().find(|n| n.is_root()).expect("a root");
    assert_eq!(root.child_ids.len(), 3, "the root holds the three chapters");
}

#[tokio::test]
async fn numbered_headings_make_the_sections_of_a_document_without_an_outline() {
    let (_dir, library) = temp_library().await;
    ingest_fixture(&library, "headings-only.pdf").await;
    let (_, nodes) = library.tree("headings-only").await.expect("tree");
    pagetree::tree::check_invariants(&nodes, 7).expect("a well-formed tree");
    assert_eq!(
        titled(&nodes),
        vec![
            ("1. Introduction".to_string(), 1, 2),
            ("2. Field observations".to_string(), 3, 5),
            ("3. Conclusions".to_string(), 6, 7),
        ]
    );
}

#[tokio::test]
async fn a_document_without_structure_keeps_consecutive_groups() {
    let (_dir, library) = temp_library().await;
    ingest_fixture(&library, "multipage.pdf").await;
    let (_, nodes) = library.tree("multipage").await.expect("tree");
    assert!(titled(&nodes).is_empty(), "{:?}", titled(&nodes));
    let mut sections: Vec<(u32, u32)> = nodes
        .iter()
        .filter(|n| !n.is_leaf() && !n.is_root())
        .map(|n| (n.page_start, n.page_end))
        .collect();
    sections.sort_unstable();
    assert_eq!(
        sections,
        vec![(1, 4), (5, 6)],
        "groups of four consecutive pages"
    );
}

#[tokio::test]
async fn a_slide_is_titled_and_found_by_its_topic() {
    let (_dir, library) = temp_library().await;
    ingest_fixture(&library, "slides.pdf").await;
    let deck = library.catalog().resolve("slides").await.expect("resolve");
    let kind = deck.card.and_then(|card| card.kind);
    assert_eq!(kind, Some(pagetree::card::DocumentKind::Slides));
    let (_, nodes) = library.tree("slides").await.expect("tree");
    let churn = common::leaf(&nodes, 4);
    assert_eq!(churn.title.as_deref(), Some("Customer churn by region"));
    for strategy in [Strategy::Knee { max_roots: 10 }, Strategy::Flat { k: 3 }] {
        let result = library
            .search(
                "Which region lost the most customers?",
                &strategy,
                &SearchSettings {
                    token_budget: Some(60),
                    ..SearchSettings::default()
                },
            )
            .await
            .expect("search");
        let pages: Vec<u32> = result.context.pages.iter().map(|p| p.page).collect();
        assert_eq!(pages.first(), Some(&4), "{}: {pages:?}", strategy.name());
    }
}
