//! kill -9 in the middle of an ingestion or a reindex, then reopen: the library opens, the
//! interrupted document is gone and adding it again completes; an interrupted reindex loses nothing.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use common::{cli, filing, open_library, text};
use pagetree::catalog::DocumentStatus;
use pagetree::ingest::{IngestOutcome, NoProgress};
use pagetree::library::{Library, OpenOptions};
use pagetree::tree::check_invariants;

/// Starts `pagetree ingest` and returns it once its progress shows `stage`, with what
/// it printed until then.
fn ingest_until(library: &Path, file: &Path, stage: &str) -> (Child, Vec<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pagetree"))
        .arg("--library")
        .arg(library)
        .arg("ingest")
        .arg(file)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("starts");
    let stderr = child.stderr.take().expect("stderr");
    let mut seen = Vec::new();
    for line in BufReader::new(stderr).lines() {
        let line = line.expect("line");
        let reached = line.contains(stage);
        seen.push(line);
        if reached {
            break;
        }
    }
    (child, seen)
}

/// Starts `pagetree ingest` and kills it with SIGKILL once its progress shows `stage`.
fn kill_during(library: &Path, file: &Path, stage: &str) {
    let (mut child, seen) = ingest_until(library, file, stage);
    child.kill().expect("SIGKILL");
    let status = child.wait().expect("waits");
    assert!(
        !status.success(),
        "the ingestion was killed mid-way; it printed:\n{}",
        seen.join("\n")
    );
}

#[tokio::test]
async fn killed_while_indexing_then_reopened_and_reingested() {
    let dir = tempfile::tempdir().expect("temp dir");
    let library_dir = dir.path().join("library");
    let pdf = filing("3M_2018_10K.pdf");
    for stage in ["embedding 0/", "indexing 0/"] {
        kill_during(&library_dir, &pdf, stage);
        let docs = cli(&library_dir, &["docs", "--json"]);
        let listed: serde_json::Value = serde_json::from_slice(&docs.stdout).expect("json");
        assert_eq!(
            listed[0]["status"], "interrupted",
            "the killed run left its mark, and its writer is gone"
        );
    }
    let library = open_library(&library_dir).await;
    assert!(
        library.documents().await.expect("docs").is_empty(),
        "the partial document was cleaned up"
    );
    assert_eq!(
        library
            .store()
            .await
            .expect("store")
            .count(None)
            .await
            .expect("count"),
        0
    );
    let outcome = library.ingest(&pdf, &NoProgress).await.expect("re-ingests");
    let IngestOutcome::Added { document, .. } = outcome else {
        panic!("added")
    };
    assert_eq!(document.status, DocumentStatus::Ready);
    let (_, nodes) = library.tree("3M_2018_10K").await.expect("tree");
    check_invariants(&nodes, document.page_count.expect("pages")).expect("invariants");
    drop(library);
    let output = cli(&library_dir, &["docs"]);
    assert!(text(&output.stdout).contains("3M_2018_10K"));
}

/// Whether opening `root` now is refused because another holder has the library.
async fn refused_as_in_use(root: &Path) -> bool {
    match Library::open(root, OpenOptions::default()).await {
        Ok(_) => false,
        Err(err) => {
            let message = err.to_string();
            assert!(
                message.contains("in use"),
                "refused for another reason: {message}"
            );
            true
        }
    }
}

#[tokio::test]
async fn a_removed_lock_file_does_not_let_a_second_handle_in() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("library");
    let first = open_library(&root).await;
    assert!(refused_as_in_use(&root).await, "the lock holds");
    std::fs::remove_file(root.join("library.lock")).expect("removes the lock file");
    assert!(
        refused_as_in_use(&root).await,
        "removing library.lock let a second handle open the library"
    );
    drop(first);
    open_library(&root).await;
}

/// The case from issue 16: `rm library.lock` during an ingestion, then a second process
/// opened the library and its start-up clean-up deleted the document being written.
#[tokio::test]
async fn a_removed_lock_file_does_not_let_another_process_clean_up_a_live_ingestion() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("library");
    let (mut child, seen) = ingest_until(&root, &filing("3M_2018_10K.pdf"), "embedding 0/");
    std::fs::remove_file(root.join("library.lock")).expect("removes the lock file");
    let refused = refused_as_in_use(&root).await;
    let second = cli(&root, &["delete", "3M_2018_10K"]);
    let docs = cli(&root, &["docs", "--json"]);
    child.kill().expect("SIGKILL");
    child.wait().expect("waits");
    assert!(
        refused,
        "a second open was let in; the ingestion printed:\n{}",
        seen.join("\n")
    );
    assert!(
        !second.status.success() && text(&second.stderr).contains("in use"),
        "a second process was let in: {}",
        text(&second.stderr)
    );
    let listed: serde_json::Value = serde_json::from_slice(&docs.stdout).expect("json");
    assert_eq!(
        listed[0]["status"], "ingesting",
        "the live ingestion's document is still there"
    );
    let library = open_library(&root).await;
    assert!(
        library.documents().await.expect("docs").is_empty(),
        "once its process is gone, the partial document is cleaned up"
    );
}

/// Start-up removes a half-written document only when the process writing it is gone,
/// whatever the lock said (an older PageTree locks only the file).
#[tokio::test]
async fn start_up_leaves_a_document_whose_writer_is_alive() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("library");
    drop(open_library(&root).await);
    let mut writer = Command::new("sleep").arg("60").spawn().expect("sleep runs");
    let owner = pagetree::owner::token(writer.id()).unwrap_or_else(|| format!("{}:", writer.id()));
    {
        let catalog = Library::open_catalog(&root).await.expect("catalog");
        let document = catalog
            .begin_document("hash", "live.pdf", "/live.pdf")
            .await
            .expect("begins");
        sqlx::query("UPDATE documents SET ingest_owner = ? WHERE id = ?")
            .bind(&owner)
            .bind(document.id)
            .execute(catalog.pool())
            .await
            .expect("records the other writer");
        catalog.pool().close().await;
    }
    let (library, recovery) = Library::open(&root, OpenOptions::default())
        .await
        .expect("opens");
    let names: Vec<String> = library
        .documents()
        .await
        .expect("docs")
        .into_iter()
        .map(|document| document.name)
        .collect();
    drop(library);
    writer.kill().expect("kills");
    writer.wait().expect("waits");
    assert_eq!(names, ["live"], "the live writer's document was removed");
    assert_eq!(recovery.in_progress, ["live"]);
    assert!(recovery.cleaned.is_empty());
    let (library, recovery) = Library::open(&root, OpenOptions::default())
        .await
        .expect("opens");
    assert_eq!(recovery.cleaned, ["live"], "once its writer is gone");
    assert!(library.documents().await.expect("docs").is_empty());
}

#[tokio::test]
async fn killed_while_reindexing_the_documents_survive_and_search() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("library");
    {
        let library = open_library(&root).await;
        library
            .ingest(&filing("3M_2018_10K.pdf"), &NoProgress)
            .await
            .expect("ingests");
    }
    // Re-embedding a filing's pages takes tens of seconds: a kill a few seconds in
    // lands while the new index is being written beside the old one.
    let mut reindex = Command::new(env!("CARGO_BIN_EXE_pagetree"))
        .arg("--library")
        .arg(&root)
        .args(["reindex", "--dense"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    std::thread::sleep(std::time::Duration::from_secs(3));
    reindex.kill().expect("SIGKILL");
    let status = reindex.wait().expect("waits");
    assert!(!status.success(), "the reindex was killed mid-way");

    let docs = cli(&root, &["docs"]);
    assert!(docs.status.success(), "docs: {}", text(&docs.stderr));
    assert!(text(&docs.stdout).contains("3M_2018_10K"));
    let search = cli(
        &root,
        &[
            "search",
            "--json",
            "capital expenditures cash flow statement",
        ],
    );
    assert!(search.status.success(), "search: {}", text(&search.stderr));
    let found: serde_json::Value = serde_json::from_slice(&search.stdout).expect("json");
    assert!(
        found["selected"].as_array().is_some_and(|s| !s.is_empty()),
        "the filing is still searchable"
    );
    let again = cli(&root, &["reindex"]);
    assert!(
        again.status.success(),
        "reindex again: {}",
        text(&again.stderr)
    );
}

#[tokio::test]
async fn killed_while_optimizing_the_filing_stays_and_is_found() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("library");
    let pdf = filing("3M_2018_10K.pdf");
    kill_during(&root, &pdf, "optimizing the index");
    let docs = cli(&root, &["docs", "--json"]);
    let listed: serde_json::Value = serde_json::from_slice(&docs.stdout).expect("json");
    assert_eq!(
        listed[0]["status"], "ready",
        "the filing was complete before the optimize"
    );
    let search = cli(&root, &["search", "--json", "capital expenditures"]);
    assert!(search.status.success(), "search: {}", text(&search.stderr));
    let found: serde_json::Value = serde_json::from_slice(&search.stdout).expect("json");
    assert!(found["selected"].as_array().is_some_and(|s| !s.is_empty()));
    let again = cli(&root, &["ingest", pdf.to_str().expect("a UTF-8 path")]);
    assert!(
        text(&again.stderr).contains("already in the library")
            || text(&again.stdout).contains("already in the library"),
        "{}",
        text(&again.stderr)
    );
}
