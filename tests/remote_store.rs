//! The remote backend against a real Qdrant server. The tests that need one are
//! `#[ignore]`d, so `cargo test` reports them as ignored; with a server, run them with
//! `PAGETREE_TEST_QDRANT_URL=http://127.0.0.1:6334 cargo test --test remote_store -- --ignored`.
//! The unreachable-server test needs no server and always runs.

mod common;

use std::time::Duration;

use common::qdrant::{server_key, server_url, TcpProxy};
use common::{cli, fixture, ingest_distinct_fixtures, text, tree_strategies, DISTINCT_FIXTURES};
use pagetree::catalog::DocumentStatus;
use pagetree::ingest::{IngestOutcome, NoProgress, Progress, Stage};
use pagetree::library::{OpenOptions, QdrantOptions};
use pagetree::migrate::MigrationTarget;
use pagetree::search::{SearchResult, SearchSettings, Strategy};
use pagetree::secret::ApiKey;
use pagetree::store::location::StoreLocation;
use pagetree::Library;

const QUESTIONS: [&str; 3] = [
    "How does a turbofan jet engine produce thrust?",
    "What is the portcullis of a medieval castle?",
    "How is coffee roasted and what are arabica beans?",
];

fn remote(url: &str) -> OpenOptions {
    OpenOptions {
        qdrant: QdrantOptions {
            url: Some(url.to_string()),
            api_key: ApiKey::new(server_key().unwrap_or_default()),
            ..QdrantOptions::default()
        },
        ..OpenOptions::default()
    }
}

/// Options for reopening a library that already knows its server.
fn reopen() -> OpenOptions {
    let mut options = remote("");
    options.qdrant.url = None;
    options
}

/// The CLI with the test server's key where the CLI reads it.
fn remote_cli(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_pagetree"));
    command
        .arg("--library")
        .arg(dir)
        .args(args)
        .env_remove("PAGETREE_LLM_URL")
        .env_remove("PAGETREE_QDRANT_URL");
    match server_key() {
        Some(key) => command.env("QDRANT_API_KEY", key),
        None => command.env_remove("QDRANT_API_KEY"),
    };
    command.output().expect("the pagetree binary runs")
}

async fn open(dir: &std::path::Path, options: OpenOptions) -> Library {
    let (library, _) = Library::open(dir, options)
        .await
        .unwrap_or_else(|err| panic!("the library opens: {err}"));
    library
}

/// What a search found, in a form two stores must agree on: each step's candidates
/// with their scores (ties in any order), and the pages of the context.
type Fingerprint = (Vec<Vec<(u64, i64)>>, Vec<(String, u32)>);

fn fingerprint(result: &SearchResult) -> Fingerprint {
    let steps = result
        .trace
        .iter()
        .map(|step| {
            let mut scored: Vec<(u64, i64)> = step
                .candidates
                .iter()
                .map(|c| (c.id, (f64::from(c.score) * 1e5).round() as i64))
                .collect();
            scored.sort_unstable();
            scored
        })
        .collect();
    let pages = result
        .context
        .pages
        .iter()
        .map(|p| (p.file_name.clone(), p.page))
        .collect();
    (steps, pages)
}

async fn all_results(library: &Library) -> Vec<Fingerprint> {
    let settings = SearchSettings::default();
    let mut results = Vec::new();
    for question in QUESTIONS {
        for strategy in tree_strategies() {
            let result = library
                .search(question, &strategy, &settings)
                .await
                .unwrap_or_else(|err| panic!("{} searches: {err}", strategy.name()));
            assert!(
                !result.context.pages.is_empty(),
                "{}: pages",
                strategy.name()
            );
            results.push(fingerprint(&result));
        }
    }
    results
}

#[tokio::test]
async fn an_unreachable_server_is_reported_and_nothing_is_written() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let dir = tempfile::tempdir().expect("temp dir");
    let err = Library::open(dir.path(), remote(&url))
        .await
        .err()
        .expect("opening against a closed port fails");
    assert!(
        err.to_string().contains("cannot be reached") && err.to_string().contains(&url),
        "{err}"
    );
    let catalog = Library::open_catalog(dir.path()).await.expect("catalog");
    assert_eq!(catalog.setting("vector_store").await.expect("read"), None);
    assert!(catalog.documents().await.expect("documents").is_empty());

    let multipage = fixture("multipage.pdf");
    let output = cli(
        dir.path(),
        &[
            "--qdrant-url",
            &url,
            "ingest",
            multipage.to_str().expect("path"),
        ],
    );
    let stderr = text(&output.stderr);
    assert!(!output.status.success(), "non-zero exit");
    assert!(stderr.contains("cannot be reached"), "{stderr}");
    assert!(catalog.documents().await.expect("documents").is_empty());
}

#[tokio::test]
#[ignore = "needs PAGETREE_TEST_QDRANT_URL"]
async fn a_remote_library_finds_what_an_embedded_one_finds() {
    let url = server_url();
    let embedded_dir = tempfile::tempdir().expect("temp dir");
    let remote_dir = tempfile::tempdir().expect("temp dir");
    let embedded = open(embedded_dir.path(), OpenOptions::default()).await;
    let remote_library = open(remote_dir.path(), remote(&url)).await;
    assert!(matches!(
        remote_library.location(),
        StoreLocation::Remote(_)
    ));
    ingest_distinct_fixtures(&embedded).await;
    ingest_distinct_fixtures(&remote_library).await;

    for document in remote_library.documents().await.expect("documents") {
        let (_, remote_nodes) = remote_library.tree(&document.name).await.expect("tree");
        let (_, embedded_nodes) = embedded.tree(&document.name).await.expect("tree");
        assert_eq!(
            remote_nodes, embedded_nodes,
            "{}: the same tree",
            document.name
        );
    }
    assert_eq!(
        all_results(&remote_library).await,
        all_results(&embedded).await
    );

    // Deleting a document removes its points from the server.
    let store = remote_library.store().await.expect("store");
    let before = store.count(None).await.expect("count");
    let deleted = remote_library.delete("spanish").await.expect("delete");
    assert_eq!(store.count(Some(deleted.id)).await.expect("count"), 0);
    assert!(store.count(None).await.expect("count") < before);

    // The library remembers its server: the next run needs no URL.
    drop(store);
    drop(remote_library);
    let reopened = open(remote_dir.path(), reopen()).await;
    assert!(matches!(reopened.location(), StoreLocation::Remote(_)));
    assert_eq!(reopened.documents().await.expect("documents").len(), 3);
}

#[tokio::test]
#[ignore = "needs PAGETREE_TEST_QDRANT_URL"]
async fn migrating_to_the_server_and_back_keeps_every_result() {
    let url = server_url();
    let dir = tempfile::tempdir().expect("temp dir");
    let mut library = open(dir.path(), reopen()).await;
    ingest_distinct_fixtures(&library).await;
    let points = library
        .store()
        .await
        .expect("store")
        .count(None)
        .await
        .expect("count");
    let before = all_results(&library).await;

    let report = library
        .migrate(MigrationTarget::Remote { url: url.clone() }, &NoProgress)
        .await
        .expect("to the server");
    assert_eq!(
        (report.documents, report.points),
        (DISTINCT_FIXTURES.len(), points)
    );
    assert!(report.checked_queries > 0);
    assert!(matches!(library.location(), StoreLocation::Remote(_)));
    assert_eq!(all_results(&library).await, before);

    let again = library
        .migrate(MigrationTarget::Remote { url: url.clone() }, &NoProgress)
        .await
        .expect_err("already there");
    assert!(again.to_string().contains("already on"), "{again}");

    let back = library
        .migrate(MigrationTarget::Embedded, &NoProgress)
        .await
        .expect("back to this computer");
    assert_eq!(back.points, points);
    assert_eq!(library.location(), &StoreLocation::Embedded);
    assert_eq!(all_results(&library).await, before);

    // An embedded library with documents is not silently pointed at a server.
    drop(library);
    let err = Library::open(dir.path(), remote(&url))
        .await
        .err()
        .expect("refused");
    assert!(err.to_string().contains("migrate --to-remote"), "{err}");
}

#[tokio::test]
#[ignore = "needs PAGETREE_TEST_QDRANT_URL"]
async fn the_cli_migrates_and_searches_a_remote_library() {
    let url = server_url();
    let dir = tempfile::tempdir().expect("temp dir");
    let multipage = fixture("multipage.pdf");
    let ingest = remote_cli(dir.path(), &["ingest", multipage.to_str().expect("path")]);
    assert!(ingest.status.success(), "{}", text(&ingest.stderr));
    let migrate = remote_cli(dir.path(), &["migrate", "--to-remote", &url, "--json"]);
    assert!(migrate.status.success(), "{}", text(&migrate.stderr));
    let report: serde_json::Value = serde_json::from_slice(&migrate.stdout).expect("JSON");
    assert_eq!(report["documents"], 1);
    let search = remote_cli(
        dir.path(),
        &[
            "search",
            "How does a turbofan jet engine produce thrust?",
            "--strategy",
            "knee",
            "--json",
        ],
    );
    assert!(search.status.success(), "{}", text(&search.stderr));
    let result: serde_json::Value = serde_json::from_slice(&search.stdout).expect("JSON");
    let pages: Vec<u64> = result["context"]["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .filter_map(|page| page["page"].as_u64())
        .collect();
    assert!(pages.contains(&5), "the turbofan page: {pages:?}");
}

/// Cuts the line to the server when indexing begins.
struct CutWhileIndexing<'a> {
    proxy: &'a TcpProxy,
}

impl Progress for CutWhileIndexing<'_> {
    fn stage(&self, _: &str, stage: Stage, _: usize, _: usize) {
        if stage == Stage::Indexing {
            self.proxy.cut();
        }
    }
}

#[tokio::test]
#[ignore = "needs PAGETREE_TEST_QDRANT_URL"]
async fn a_connection_lost_mid_ingestion_leaves_the_document_unsearchable_until_added_again() {
    let url = server_url();
    let proxy = TcpProxy::start(&url).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let mut options = remote(&proxy.url);
    options.qdrant.timeout_secs = Some(3);
    let library = open(dir.path(), options).await;
    library
        .ingest(&fixture("spanish.pdf"), &NoProgress)
        .await
        .expect("the first document");

    let err = library
        .ingest(
            &fixture("multipage.pdf"),
            &CutWhileIndexing { proxy: &proxy },
        )
        .await
        .expect_err("the line was cut");
    assert!(err.to_string().contains("Qdrant server"), "{err}");
    let failed = library.catalog().resolve("multipage").await.expect("row");
    assert_eq!(failed.status, DocumentStatus::Failed);

    proxy.restore();
    let result = library
        .search(
            "How does a turbofan jet engine produce thrust?",
            &Strategy::Flat { k: 10 },
            &SearchSettings::default(),
        )
        .await
        .expect("search");
    assert!(
        result
            .context
            .pages
            .iter()
            .all(|p| p.file_name == "spanish.pdf"),
        "the failed document is not searchable"
    );

    let outcome = library
        .ingest(&fixture("multipage.pdf"), &NoProgress)
        .await
        .expect("added again");
    assert!(matches!(outcome, IngestOutcome::Added { .. }));
    let store = library.store().await.expect("store");
    let document = library.catalog().resolve("multipage").await.expect("row");
    assert_eq!(
        store.count(Some(document.id)).await.expect("count"),
        document.node_count.expect("nodes") as usize
    );
}

#[tokio::test]
#[ignore = "needs PAGETREE_TEST_QDRANT_URL"]
async fn a_server_slower_than_the_timeout_gives_a_clear_error() {
    let url = server_url();
    let proxy = TcpProxy::start(&url).await;
    proxy.slow_down(Duration::from_secs(3));
    let dir = tempfile::tempdir().expect("temp dir");
    let mut options = remote(&proxy.url);
    options.qdrant.timeout_secs = Some(1);
    let err = Library::open(dir.path(), options)
        .await
        .err()
        .expect("too slow");
    let message = err.to_string();
    assert!(
        message.contains("did not answer within 1 s (3 tries)"),
        "{message}"
    );
    let catalog = Library::open_catalog(dir.path()).await.expect("catalog");
    assert_eq!(catalog.setting("vector_store").await.expect("read"), None);
}

#[tokio::test]
#[ignore = "needs PAGETREE_TEST_QDRANT_URL and PAGETREE_TEST_QDRANT_API_KEY"]
async fn a_wrong_api_key_is_refused_in_words_that_do_not_repeat_it() {
    let url = server_url();
    assert!(
        server_key().is_some(),
        "set {} to the test server's API key to run this test (or --skip it)",
        common::qdrant::KEY_VARIABLE
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let wrong = "not-the-key-4711";
    let mut options = remote(&url);
    options.qdrant.api_key = ApiKey::new(wrong);
    let err = Library::open(dir.path(), options)
        .await
        .err()
        .expect("refused");
    let message = err.to_string();
    assert!(message.contains("API key"), "{message}");
    assert!(
        !message.contains(wrong),
        "the key is not repeated: {message}"
    );
    let catalog = Library::open_catalog(dir.path()).await.expect("catalog");
    assert_eq!(catalog.setting("vector_store").await.expect("read"), None);
}

#[tokio::test]
#[ignore = "needs PAGETREE_TEST_QDRANT_URL"]
async fn local_fusion_of_raw_scores_ranks_exactly_as_the_server() {
    use common::contract::{assert_local_fusion_matches_the_engine, fill, DIMENSION};
    use pagetree::store::remote::{RemoteConfig, RemoteStore};
    let url = server_url();
    // One collection, emptied at the start of every run.
    let collection = "pagetree_test_store_contract";
    let key = ApiKey::new(server_key().unwrap_or_default());
    let store = RemoteStore::open(
        RemoteConfig::new(url, collection),
        &key,
        DIMENSION,
        true,
        pagetree::store::DenseLayout::Windows,
    )
    .await
    .expect("the server opens a fresh collection");
    let points = fill(&store, 3).await;
    assert_local_fusion_matches_the_engine(&store, &points).await;
    common::contract::assert_rankings_are_stable_and_filters_agree(&store, &points).await;
}
