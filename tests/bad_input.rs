//! Files that are not usable PDFs: one clear line each, a non-zero exit, and the rest
//! of the batch and the library untouched.

mod common;

use common::{cli, fixture, open_library, text};
use pagetree::library::{Library, OpenOptions};

fn bad_files(dir: &std::path::Path) -> Vec<(std::path::PathBuf, &'static str)> {
    let truncated = dir.join("truncated.pdf");
    let bytes = std::fs::read(fixture("multipage.pdf")).expect("fixture");
    std::fs::write(&truncated, &bytes[..bytes.len() / 3]).expect("write");
    let garbage = dir.join("garbage.pdf");
    let mut corrupt = b"%PDF-1.7\n".to_vec();
    corrupt.extend(std::iter::repeat_n(b'#', 4096));
    std::fs::write(&garbage, corrupt).expect("write");
    let empty = dir.join("empty.pdf");
    std::fs::write(&empty, b"").expect("write");
    let not_pdf = dir.join("notes.pdf");
    std::fs::write(&not_pdf, "just some text, not a PDF\n").expect("write");
    vec![
        (truncated, "damaged or truncated"),
        (garbage, "damaged or truncated"),
        (empty, "empty (0 bytes)"),
        (not_pdf, "not a PDF"),
        (fixture("encrypted.pdf"), "encrypted with a password"),
        (fixture("zero-pages.pdf"), "has no pages"),
        (dir.join("missing.pdf"), "cannot read the file"),
    ]
}

#[test]
fn each_bad_file_gets_one_clear_line_and_the_good_ones_are_added() {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = dir.path().join("library");
    let bad = bad_files(dir.path());
    let mut args: Vec<String> = vec!["ingest".into()];
    args.push(fixture("multipage.pdf").display().to_string());
    args.extend(bad.iter().map(|(path, _)| path.display().to_string()));
    args.push(fixture("spanish.pdf").display().to_string());
    let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = cli(&library, &arg_refs);
    let stderr = text(&output.stderr);
    assert!(
        !output.status.success(),
        "a failed file makes the run fail:\n{stderr}"
    );
    for (path, reason) in &bad {
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let lines: Vec<&str> = stderr
            .lines()
            .filter(|line| line.starts_with("failed:") && line.contains(&name))
            .collect();
        assert_eq!(lines.len(), 1, "one line for {name}:\n{stderr}");
        assert!(
            lines[0].contains(reason),
            "{name} should say `{reason}`: {}",
            lines[0]
        );
    }
    assert!(
        stderr.contains("2 added, 0 already in the library, 7 failed"),
        "{stderr}"
    );

    let docs = cli(&library, &["docs", "--json"]);
    let documents: serde_json::Value = serde_json::from_slice(&docs.stdout).expect("json");
    let ready: Vec<&str> = documents
        .as_array()
        .expect("array")
        .iter()
        .filter(|d| d["status"] == "ready")
        .filter_map(|d| d["name"].as_str())
        .collect();
    assert_eq!(ready, vec!["multipage", "spanish"]);
    let tree = cli(&library, &["tree", "multipage", "--json"]);
    assert!(tree.status.success(), "{}", text(&tree.stderr));
}

#[tokio::test]
async fn a_failed_document_keeps_its_reason_and_can_be_retried() {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = open_library(dir.path()).await;
    let err = library
        .ingest(&fixture("encrypted.pdf"), &pagetree::ingest::NoProgress)
        .await
        .expect_err("encrypted");
    assert!(
        err.to_string()
            .starts_with("encrypted.pdf: the PDF is encrypted"),
        "{err}"
    );
    let documents = library.documents().await.expect("docs");
    assert_eq!(documents.len(), 1);
    assert!(documents[0]
        .error
        .as_deref()
        .unwrap_or("")
        .contains("encrypted"));
    // Trying again replaces the failed entry rather than piling up rows.
    let _ = library
        .ingest(&fixture("encrypted.pdf"), &pagetree::ingest::NoProgress)
        .await;
    assert_eq!(library.documents().await.expect("docs").len(), 1);
}

#[tokio::test]
async fn a_second_process_gets_a_clear_message_while_the_library_is_open() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_held, _) = Library::open(dir.path(), OpenOptions::default())
        .await
        .expect("first opener");
    let output = cli(
        dir.path(),
        &["ingest", &fixture("multipage.pdf").display().to_string()],
    );
    let stderr = text(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("is in use by another PageTree process")
            && stderr.contains(&format!("process {}", std::process::id())),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "one line, not a dump:\n{stderr}");
    // Listing needs no lock and works meanwhile.
    let docs = cli(dir.path(), &["docs"]);
    assert!(docs.status.success(), "{}", text(&docs.stderr));
}
