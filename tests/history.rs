//! History: every run is recorded, listed, shown, re-run and exported; a catalog made
//! by an older version upgrades without losing anything.

mod common;

use common::{cli, fixture, text};
use pagetree::catalog::Catalog;
use pagetree::history::{NewRun, RunKind};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};

fn json(output: &std::process::Output) -> serde_json::Value {
    assert!(output.status.success(), "{}", text(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("json")
}

#[test]
fn search_compare_and_ask_are_recorded_shown_rerun_and_exported() {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = dir.path();
    let ingest = cli(
        library,
        &["ingest", &fixture("multipage.pdf").display().to_string()],
    );
    assert!(ingest.status.success(), "{}", text(&ingest.stderr));

    json(&cli(
        library,
        &[
            "search",
            "turbofan thrust",
            "--strategy",
            "flat",
            "--k",
            "2",
            "--json",
        ],
    ));
    json(&cli(library, &["compare", "castle portcullis", "--json"]));
    let asked = cli(
        library,
        &[
            "ask",
            "What is a portcullis?",
            "--strategy",
            "flat",
            "--k",
            "1",
        ],
    );
    assert!(asked.status.success(), "{}", text(&asked.stderr));
    assert!(
        text(&asked.stdout).contains("[multipage p.3]"),
        "{}",
        text(&asked.stdout)
    );

    let runs = json(&cli(library, &["history", "--json"]));
    let runs = runs.as_array().expect("array");
    // One search, seven strategies compared (proxy-pointer needs a model), one question.
    assert_eq!(runs.len(), 9);
    let kinds: Vec<&str> = runs.iter().filter_map(|r| r["kind"].as_str()).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "compare").count(), 7);
    let ask = runs
        .iter()
        .find(|r| r["kind"] == "ask")
        .expect("the question");
    assert!(ask["answer"]["text"]
        .as_str()
        .unwrap_or("")
        .contains("portcullis"));
    let search_id = runs.iter().find(|r| r["kind"] == "search").expect("search")["id"]
        .as_i64()
        .expect("id");

    let shown = json(&cli(
        library,
        &["history", "show", &search_id.to_string(), "--json"],
    ));
    assert_eq!(shown["question"], "turbofan thrust");
    assert_eq!(shown["settings"]["strategy"]["name"], "flat");
    assert!(
        shown["trace"].as_array().is_some_and(|t| !t.is_empty()),
        "the trace is kept"
    );

    let rerun = json(&cli(
        library,
        &[
            "history",
            "rerun",
            &search_id.to_string(),
            "--strategy",
            "beam",
            "--json",
        ],
    ));
    assert_eq!(rerun["strategy"]["name"], "beam");
    assert_eq!(rerun["question"], "turbofan thrust");
    let filtered = json(&cli(
        library,
        &["history", "--search", "turbofan", "--json"],
    ));
    assert_eq!(
        filtered.as_array().expect("array").len(),
        2,
        "the search and its re-run"
    );

    let markdown = cli(library, &["history", "export", "--format", "md"]);
    let markdown = text(&markdown.stdout);
    assert!(markdown.starts_with("# PageTree history"));
    assert!(markdown.contains("## Question #") && markdown.contains("What is a portcullis?"));
    let exported = json(&cli(library, &["history", "export", "--format", "json"]));
    assert_eq!(exported.as_array().expect("array").len(), 10);
}

#[tokio::test]
async fn a_catalog_from_the_first_release_upgrades_cleanly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("catalog.sqlite");
    // Build the catalog exactly as the first migration left it, with a document in it.
    let first_only = dir.path().join("migrations");
    std::fs::create_dir_all(&first_only).expect("dir");
    let first = "20261130000001_catalog.sql";
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("migrations")
            .join(first),
        first_only.join(first),
    )
    .expect("copy");
    let options = SqliteConnectOptions::new()
        .filename(&path)
        .create_if_missing(true);
    let pool = SqlitePoolOptions::new()
        .connect_with(options)
        .await
        .expect("pool");
    sqlx::migrate::Migrator::new(first_only.as_path())
        .await
        .expect("migrator")
        .run(&pool)
        .await
        .expect("first migration");
    sqlx::query("INSERT INTO documents (content_hash, name, file_name, path, status, page_count) VALUES ('h', 'old', 'old.pdf', '/old.pdf', 'ready', 3)")
        .execute(&pool)
        .await
        .expect("insert");
    let history_missing = sqlx::query("SELECT 1 FROM runs")
        .fetch_optional(&pool)
        .await;
    assert!(history_missing.is_err(), "the old catalog has no history");
    pool.close().await;

    let catalog = Catalog::open(&path).await.expect("upgrades");
    let documents = catalog.documents().await.expect("documents");
    assert_eq!(documents.len(), 1);
    assert_eq!(documents[0].name, "old");
    assert_eq!(documents[0].page_count, Some(3));
    let run = NewRun::failed(RunKind::Search, None, "q", serde_json::json!({}), "boom");
    let id = catalog
        .record_run(&run)
        .await
        .expect("history works after the upgrade");
    assert_eq!(
        catalog.run(id).await.expect("q").expect("found").status,
        "failed"
    );
}

#[tokio::test]
async fn readers_and_a_writer_share_the_catalog() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("catalog.sqlite");
    let writer = Catalog::open(&path).await.expect("writer");
    let mut readers = Vec::new();
    for _ in 0..3 {
        // Separate pools, as separate processes would have.
        let reader = Catalog::open(&path).await.expect("reader");
        readers.push(tokio::spawn(async move {
            let mut seen = 0;
            for _ in 0..50 {
                seen = seen.max(
                    reader
                        .runs(1_000, None)
                        .await
                        .expect("reads while writing")
                        .len(),
                );
            }
            seen
        }));
    }
    for i in 0..200 {
        let run = NewRun::failed(
            RunKind::Search,
            None,
            &format!("q{i}"),
            serde_json::json!({}),
            "x",
        );
        writer.record_run(&run).await.expect("writes while read");
    }
    for reader in readers {
        assert!(reader.await.expect("reader finished") <= 200);
    }
    assert_eq!(
        writer.runs(1_000, None).await.expect("all there").len(),
        200
    );
}
