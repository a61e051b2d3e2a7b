//! A new library's embedding model is chosen by its first document's language unless
//! someone chose it: a library that starts with a Russian or Spanish document takes
//! multilingual-e5-small, since all-MiniLM-L6-v2 would find its pages by their words
//! alone; one that starts in English takes the two together; one whose first document
//! has no readable text, or whose model was chosen, keeps what it has.

mod common;

use common::{added, cli, fixture, ingest_fixture, open_library, temp_library, text};
use pagetree::embed::DenseModel;
use pagetree::ingest::NoProgress;

#[tokio::test]
async fn a_first_document_in_russian_makes_the_library_multilingual() {
    let (dir, mut library) = temp_library().await;
    assert!(library.may_settle_model().await.expect("asked"));
    let notice = library
        .settle_model_for(&fixture("cyrillic.pdf"))
        .await
        .expect("settled")
        .expect("the model changes");
    assert!(
        notice.contains("Russian") && notice.contains("multilingual-e5-small"),
        "{notice}"
    );
    assert_eq!(library.settings().dense_model, DenseModel::E5Small);
    assert!(
        !library.settings().dense_model_chosen,
        "nobody chose it: the document did"
    );

    // Recorded in the library, which reopens with it.
    drop(library);
    let library = open_library(dir.path()).await;
    assert_eq!(library.settings().dense_model, DenseModel::E5Small);
    let (_, warnings, _) = added(ingest_fixture(&library, "cyrillic.pdf").await);
    assert!(
        warnings.iter().all(|w| !w.contains("reads English only")),
        "{warnings:?}"
    );
    // A library with a document keeps its model.
    assert!(!library.may_settle_model().await.expect("asked"));
}

#[tokio::test]
async fn an_english_first_document_makes_the_library_e5_and_minilm_together() {
    let (dir, mut library) = temp_library().await;
    let notice = library
        .settle_model_for(&fixture("multipage.pdf"))
        .await
        .expect("settled")
        .expect("the model changes");
    assert!(
        notice.contains("English") && notice.contains("multilingual-e5-small + all-MiniLM-L6-v2"),
        "{notice}"
    );
    assert_eq!(library.settings().dense_model, DenseModel::E5SmallMiniLm);
    drop(library);
    let library = open_library(dir.path()).await;
    assert_eq!(library.settings().dense_model, DenseModel::E5SmallMiniLm);
    let (_, warnings, _) = added(ingest_fixture(&library, "multipage.pdf").await);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(!library.may_settle_model().await.expect("asked"));
}

#[tokio::test]
async fn an_unreadable_first_document_keeps_minilm() {
    let (_dir, mut library) = temp_library().await;
    for file in ["encrypted.pdf", "zero-pages.pdf"] {
        let notice = library
            .settle_model_for(&fixture(file))
            .await
            .unwrap_or_else(|err| panic!("{file}: {err}"));
        assert_eq!(notice, None, "{file}");
        assert_eq!(library.settings().dense_model, DenseModel::MiniLm, "{file}");
    }
    // Still empty: the first document actually added decides.
    assert!(library.may_settle_model().await.expect("asked"));
}

#[tokio::test]
async fn a_model_someone_chose_is_kept() {
    let (_dir, mut library) = temp_library().await;
    library
        .switch_dense_model(DenseModel::E5Small, &NoProgress)
        .await
        .expect("switched");
    library
        .switch_dense_model(DenseModel::MiniLm, &NoProgress)
        .await
        .expect("switched back");
    assert!(library.settings().dense_model_chosen);
    assert!(!library.may_settle_model().await.expect("asked"));
    let notice = library
        .settle_model_for(&fixture("cyrillic.pdf"))
        .await
        .expect("asked");
    assert_eq!(notice, None);
    assert_eq!(library.settings().dense_model, DenseModel::MiniLm);
}

#[test]
fn ingest_says_what_the_first_document_chose_and_a_model_asked_for_wins() {
    let spanish = fixture("spanish.pdf");
    let spanish = spanish.to_str().expect("a UTF-8 path");

    let chosen_by_document = tempfile::tempdir().expect("temp dir");
    let out = cli(chosen_by_document.path(), &["ingest", spanish]);
    let said = text(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("the first document is in Spanish") && said.contains("multilingual-e5-small"),
        "{said}"
    );
    let docs = text(&cli(chosen_by_document.path(), &["docs", "--json"]).stdout);
    assert!(docs.contains("\"e5-small\""), "{docs}");

    let chosen_by_user = tempfile::tempdir().expect("temp dir");
    let out = cli(
        chosen_by_user.path(),
        &["ingest", "--model", "minilm", spanish],
    );
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{said}");
    assert!(said.contains("reads English only"), "{said}");
    let docs = text(&cli(chosen_by_user.path(), &["docs", "--json"]).stdout);
    assert!(docs.contains("\"minilm\""), "{docs}");
}

/// `bench --pdfs` makes the library a person would get: the first document's language
/// chooses the model, English the pair and Russian e5 alone.
#[test]
fn a_library_made_by_bench_has_the_model_ingest_would_choose() {
    for (file, model) in [
        ("multipage.pdf", "\"e5-small+minilm\""),
        ("cyrillic.pdf", "\"e5-small\""),
    ] {
        let dir = tempfile::tempdir().expect("temp dir");
        let pdfs = dir.path().join("pdfs");
        std::fs::create_dir_all(&pdfs).expect("pdfs dir");
        std::os::unix::fs::symlink(fixture(file), pdfs.join(file)).expect("link");
        let stem = file.trim_end_matches(".pdf");
        let questions = dir.path().join("questions.jsonl");
        std::fs::write(
            &questions,
            format!(
                r#"{{"financebench_id": "q1", "doc_name": "{stem}", "question": "What is on the first page?", "answer": "", "evidence": [{{"doc_name": "{stem}", "page_index": 0}}]}}"#
            ),
        )
        .expect("questions");
        let library = dir.path().join("library");
        let out = cli(
            &library,
            &[
                "bench",
                "--questions",
                questions.to_str().expect("utf-8"),
                "--pdfs",
                pdfs.to_str().expect("utf-8"),
                "--strategies",
                "flat",
            ],
        );
        assert!(out.status.success(), "{file}: {}", text(&out.stderr));
        let docs = text(&cli(&library, &["docs", "--json"]).stdout);
        assert!(docs.contains(model), "{file}: {docs}");
    }
}
