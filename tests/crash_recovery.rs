//! kill -9 in the middle of an ingestion, then reopen: the library opens, the
//! interrupted document is gone, and adding it again completes.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::{cli, filing, open_library, text};
use pagetree::catalog::DocumentStatus;
use pagetree::ingest::{IngestOutcome, NoProgress};
use pagetree::tree::check_invariants;

/// Starts `pagetree ingest` and kills it with SIGKILL once its progress shows `stage`.
fn kill_during(library: &std::path::Path, file: &std::path::Path, stage: &str) {
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
            child.kill().expect("SIGKILL");
            break;
        }
    }
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
            listed[0]["status"], "ingesting",
            "the killed run left its mark"
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
