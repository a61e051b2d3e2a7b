//! Every tree strategy on a small library whose right answers are unambiguous: each
//! fixture page has a term that appears on no other page of the library.

mod common;

use common::{ingest_distinct_fixtures, open_library, tree_strategies};
use pagetree::ingest::NoProgress;
use pagetree::search::{SearchResult, SearchSettings, Strategy};
use pagetree::Library;

async fn library(dir: &std::path::Path) -> Library {
    let library = open_library(dir).await;
    ingest_distinct_fixtures(&library).await;
    library
}

/// The trace step of the pages that filled a budget after the strategy stopped.
const FILLED: &str = "budget filled";

fn pages(result: &SearchResult) -> Vec<(String, u32)> {
    result
        .context
        .pages
        .iter()
        .map(|p| (p.file_name.clone(), p.page))
        .collect()
}

fn assert_well_formed(result: &SearchResult) {
    let name = result.strategy.name();
    assert!(!result.trace.is_empty(), "{name}: a trace");
    for (index, step) in result.trace.iter().enumerate() {
        let scores: Vec<f32> = step.candidates.iter().map(|c| c.score).collect();
        assert!(
            scores.windows(2).all(|w| w[0] >= w[1]),
            "{name} step {index}: candidates best first: {scores:?}"
        );
        assert!(
            step.kept <= step.candidates.len(),
            "{name} step {index}: kept within candidates"
        );
        if let Some(knee) = step.knee_index {
            // A knee at the foot of a drop is the first point cut; any other survives
            // (and a sensitive knee keeps more).
            assert!(
                knee <= step.kept,
                "{name} step {index}: nothing above the knee is cut"
            );
        }
        let candidates: Vec<u64> = step.candidates.iter().map(|c| c.id).collect();
        if step.label == FILLED {
            // What filled the budget joins the selection and comes after it.
            let selected: Vec<u64> = result.selected.iter().map(|s| s.id).collect();
            assert_eq!(index + 1, result.trace.len(), "{name}: the fill comes last");
            assert!(
                step.beam
                    .iter()
                    .all(|id| candidates.contains(id) || selected.contains(id)),
                "{name}: the filled beam is the selection and the fill"
            );
            assert!(
                candidates.iter().all(|id| !selected.contains(id)),
                "{name}: the fill adds pages the strategy did not choose"
            );
            continue;
        }
        assert!(
            step.beam.iter().all(|id| candidates.contains(id)),
            "{name} step {index}: the beam comes from the candidates"
        );
        assert!(
            step.eliminated.iter().all(|id| !step.beam.contains(id)),
            "{name} step {index}: nothing eliminated stays in the beam"
        );
    }
    let last = result
        .trace
        .iter()
        .rev()
        .find(|step| step.label != FILLED)
        .expect("a last step of the strategy's own");
    let selected: Vec<u64> = result.selected.iter().map(|s| s.id).collect();
    assert_eq!(
        last.beam.len(),
        selected.len(),
        "{name}: the last beam is the selection"
    );
    assert_eq!(
        result.context.tokens,
        pagetree::search::context::count_tokens(&result.context.text)
    );
    assert!(result.latency_ms >= result.embed_ms);
}

#[tokio::test]
async fn every_strategy_finds_the_unambiguous_page() {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = library(dir.path()).await;
    let settings = SearchSettings::default();
    let cases = [
        (
            "How does a turbofan jet engine produce thrust?",
            ("multipage.pdf", 5),
        ),
        (
            "What is the portcullis of a medieval castle?",
            ("multipage.pdf", 3),
        ),
        (
            "How is coffee roasted and what are arabica beans?",
            ("with-empty-page.pdf", 3),
        ),
    ];
    for (question, expected) in cases {
        for strategy in tree_strategies() {
            let result = library
                .search(question, &strategy, &settings)
                .await
                .expect("searches");
            assert_well_formed(&result);
            let found = pages(&result);
            assert!(
                found.contains(&(expected.0.to_string(), expected.1)),
                "{} for {question:?} returned {found:?}",
                strategy.name()
            );
        }
    }
}

#[tokio::test]
async fn warming_up_waits_for_a_document_then_leaves_search_ready() {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = open_library(dir.path()).await;
    assert!(
        !library.warm_up().await.expect("warms up"),
        "an empty library loads no model: its first document may choose another"
    );
    common::ingest_fixture(&library, "multipage.pdf").await;
    assert!(library.warm_up().await.expect("warms up"));
    let result = library
        .search(
            "What is the portcullis of a medieval castle?",
            &Strategy::Flat { k: 3 },
            &SearchSettings::default(),
        )
        .await
        .expect("searches");
    assert!(
        pages(&result).contains(&("multipage.pdf".to_string(), 3)),
        "{:?}",
        pages(&result)
    );
}

#[tokio::test]
async fn the_knee_keeps_fewer_nodes_than_the_sensitive_knee_at_zero() {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = library(dir.path()).await;
    let settings = SearchSettings::default();
    let question = "Which instrument is typical of Baroque music, the harpsichord?";
    let knee = library
        .search(question, &Strategy::Knee { max_roots: 20 }, &settings)
        .await
        .expect("knee");
    let keep_all = library
        .search(
            question,
            &Strategy::SensitiveKnee {
                sensitivity: 0.0,
                max_roots: 20,
            },
            &settings,
        )
        .await
        .expect("sensitive knee at 0");
    assert!(
        knee.context.pages.len() < keep_all.context.pages.len(),
        "knee {} pages vs sensitivity 0 {} pages",
        knee.context.pages.len(),
        keep_all.context.pages.len()
    );
    // Sensitivity 0 keeps every root it starts from: whole documents.
    let roots = &keep_all.trace[0];
    assert_eq!(roots.kept, roots.candidates.len());
    // The plain knee cuts the roots at a knee it found.
    assert!(knee.trace[0].knee_index.is_some() || knee.trace[0].candidates.len() <= 2);
}

#[tokio::test]
async fn restricting_to_one_document_and_a_token_budget() {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = library(dir.path()).await;
    let spanish = library
        .catalog()
        .resolve("spanish")
        .await
        .expect("known")
        .id;
    let settings = SearchSettings {
        documents: Some(vec![spanish]),
        ..SearchSettings::default()
    };
    let result = library
        .search("turbofan engines", &Strategy::Flat { k: 5 }, &settings)
        .await
        .expect("searches");
    assert!(result
        .context
        .pages
        .iter()
        .all(|p| p.file_name == "spanish.pdf"));

    let budget = SearchSettings {
        token_budget: Some(200),
        ..SearchSettings::default()
    };
    let result = library
        .search(
            "volcano magma eruption",
            &Strategy::SensitiveKnee {
                sensitivity: 0.0,
                max_roots: 20,
            },
            &budget,
        )
        .await
        .expect("searches");
    assert!(result.context.tokens <= 200 || result.context.pages.len() == 1);
    assert!(result.context.truncation.is_some());
}

#[tokio::test]
async fn proxy_pointer_without_a_model_says_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = library(dir.path()).await;
    let err = library
        .search(
            "anything",
            &Strategy::ProxyPointer { proxies: 5 },
            &SearchSettings::default(),
        )
        .await
        .expect_err("needs an LLM");
    assert!(
        err.to_string().contains("language model is not configured"),
        "{err}"
    );
}

#[tokio::test]
async fn rebuilding_bm25_vectors_keeps_points_and_dense_scores() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut library = library(dir.path()).await;
    assert!(
        library.settings().index_leaf_text,
        "a new library reads its pages' full text in BM25"
    );
    let dense_only = SearchSettings {
        fusion: pagetree::store::Fusion::rrf(2, 1.0, 0.0),
        ..SearchSettings::default()
    };
    let sparse_only = SearchSettings {
        fusion: pagetree::store::Fusion::rrf(2, 0.0, 1.0),
        ..SearchSettings::default()
    };
    let question = "How does a turbofan jet engine produce thrust?";
    let ids = |r: &SearchResult| r.selected.iter().map(|s| s.id).collect::<Vec<_>>();
    let before = library
        .search(question, &Strategy::Flat { k: 4 }, &dense_only)
        .await
        .expect("search");
    let keyword = library
        .search(question, &Strategy::Flat { k: 1 }, &sparse_only)
        .await
        .expect("search");
    let store = library.store().await.expect("store");
    let count = store.count(None).await.expect("count");

    for leaf_text in [false, true] {
        let settings = pagetree::settings::LibrarySettings {
            index_leaf_text: leaf_text,
            ..library.settings().clone()
        };
        library.update_settings(settings).await.expect("settings");
        let rewritten = library.reindex(false, &NoProgress).await.expect("reindex");
        assert_eq!(rewritten, count);
        assert_eq!(store.count(None).await.expect("count"), count);
        let after = library
            .search(question, &Strategy::Flat { k: 4 }, &dense_only)
            .await
            .expect("search");
        assert_eq!(ids(&before), ids(&after), "dense vectors are untouched");
    }
    let again = library
        .search(question, &Strategy::Flat { k: 1 }, &sparse_only)
        .await
        .expect("search");
    assert_eq!(pages(&keyword), vec![("multipage.pdf".to_string(), 5)]);
    assert_eq!(
        pages(&again),
        pages(&keyword),
        "the same BM25 vectors again"
    );

    let settings = pagetree::settings::LibrarySettings {
        index_leaf_text: false,
        ..library.settings().clone()
    };
    library.update_settings(settings).await.expect("settings");
    drop(store);
    drop(library);
    let reopened = open_library(dir.path()).await;
    assert!(!reopened.settings().index_leaf_text, "the setting is kept");
}

#[tokio::test]
async fn a_trace_outline_holds_every_touched_node_under_its_ancestors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = library(dir.path()).await;
    let result = library
        .search(
            "How does a turbofan jet engine produce thrust?",
            &Strategy::Knee { max_roots: 20 },
            &SearchSettings::default(),
        )
        .await
        .expect("searches");
    let mut touched: Vec<u64> = result
        .trace
        .iter()
        .flat_map(|step| step.candidates.iter().map(|c| c.id))
        .collect();
    touched.extend(result.selected.iter().map(|s| s.id));
    let outline = library.trace_outline(&touched).await.expect("an outline");

    let names: Vec<&str> = outline.iter().map(|d| d.name.as_str()).collect();
    assert!(names.contains(&"multipage"), "documents: {names:?}");
    let mut seen = std::collections::HashSet::new();
    for document in &outline {
        assert!(document.page_count > 0, "{}: a page count", document.name);
        for node in &document.nodes {
            assert!(
                node.parent_id == -1 || seen.contains(&(node.parent_id as u64)),
                "{}: node {} comes after its parent {}",
                document.name,
                node.id,
                node.parent_id
            );
            assert!(!node.title.is_empty(), "node {} has a title", node.id);
            seen.insert(node.id);
        }
        assert_eq!(
            document.nodes.first().map(|n| n.parent_id),
            Some(-1),
            "{}: the outline starts at the root",
            document.name
        );
    }
    for id in &touched {
        assert!(seen.contains(id), "touched node {id} is in the outline");
    }
    // The flat strategy touches pages only; the outline still shows where they sit.
    let flat = library
        .search(
            "How does a turbofan jet engine produce thrust?",
            &Strategy::Flat { k: 1 },
            &SearchSettings::default(),
        )
        .await
        .expect("searches");
    let page = flat.selected[0].id;
    let outline = library.trace_outline(&[page]).await.expect("an outline");
    assert_eq!(outline.len(), 1);
    assert!(
        outline[0].nodes.len() > 1,
        "the page comes with its ancestors"
    );
    assert!(library
        .trace_outline(&[u64::MAX >> 8])
        .await
        .expect("no error")
        .is_empty());
}

/// With a budget, the knee's context within one document holds every page flat top-k
/// would hold there, unless the budget has no room for it: the knee's own pages come
/// first, then the document's best other pages fill what is left. Without the fill, the
/// knee stops early and leaves the budget unspent.
#[tokio::test]
async fn a_budget_the_knee_leaves_is_filled_with_the_pages_flat_would_take() {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = library(dir.path()).await;
    let question = "volcano magma eruption";
    let knee = Strategy::Knee { max_roots: 20 };
    let budget = 600;
    // The document flat top-k finds first: the knee is told it, as a person who opened
    // one document asks.
    let best = library
        .search(
            question,
            &Strategy::Flat { k: 1 },
            &SearchSettings::default(),
        )
        .await
        .expect("flat");
    let document = best.context.pages.first().expect("a page").doc_id;
    let with_budget = SearchSettings {
        token_budget: Some(budget),
        documents: Some(vec![document]),
        ..SearchSettings::default()
    };
    let filled = library
        .search(question, &knee, &with_budget)
        .await
        .expect("knee");
    assert_well_formed(&filled);
    let unfilled = library
        .search(
            question,
            &knee,
            &SearchSettings {
                fill_budget: false,
                ..with_budget.clone()
            },
        )
        .await
        .expect("knee without the fill");
    assert!(
        unfilled.trace.iter().all(|step| step.label != FILLED),
        "no fill step when the fill is off"
    );
    let mut documents: Vec<i64> = filled.selected.iter().map(|s| s.doc_id).collect();
    documents.sort_unstable();
    documents.dedup();
    let flat = library
        .search(
            question,
            &Strategy::Flat { k: 10 },
            &SearchSettings {
                documents: Some(documents),
                ..with_budget.clone()
            },
        )
        .await
        .expect("flat over the knee's documents");
    let held = pages(&filled);
    for page in &flat.context.pages {
        if held.contains(&(page.file_name.clone(), page.page)) {
            continue;
        }
        assert!(
            filled.context.tokens + page.tokens > budget,
            "{} p.{} ({} tokens) fits beside the knee's {} tokens but was left out; knee {:?}, flat {:?}",
            page.file_name,
            page.page,
            page.tokens,
            filled.context.tokens,
            held,
            pages(&flat)
        );
    }
    let unfilled_pages = pages(&unfilled);
    assert!(
        unfilled_pages.iter().all(|page| held.contains(page)),
        "the knee's own pages stay: {unfilled_pages:?} within {held:?}"
    );
    assert!(
        filled.context.tokens >= unfilled.context.tokens,
        "the fill spends more of the budget"
    );
}
