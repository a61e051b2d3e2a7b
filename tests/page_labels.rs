//! Page labels, the numbers printed in a book (i, ii in the front matter, then 1, 2, …):
//! read and stored on ingestion, meant by a question that names a page, and shown in
//! citations beside the PDF page. `page-labels.pdf` has six pages labelled i, ii, 1, 2,
//! 3, 4 and prints no number on any of them, so only its labels tell which page
//! "page 2" is (PDF page 4).

mod common;

use common::{cli, ingest_fixture, open_library, temp_library, text};
use pagetree::chat::AnswerSettings;
use pagetree::library::Library;
use pagetree::search::{SearchSettings, Strategy};

/// The terms `page-labels.pdf` carries on each PDF page (see tests/fixtures/README.md).
const TERMS: [(u32, &str, &str); 6] = [
    (1, "i", "marmalade"),
    (2, "ii", "almanac"),
    (3, "1", "loam"),
    (4, "2", "secateurs"),
    (5, "3", "rootstock"),
    (6, "4", "cider"),
];

async fn document_id(library: &Library, name: &str) -> i64 {
    library.catalog().resolve(name).await.expect("known").id
}

/// The one page a flat top-1 search of `question` over the document `name` finds.
async fn found_page(library: &Library, name: &str, question: &str) -> (u32, Option<String>) {
    let settings = SearchSettings {
        documents: Some(vec![document_id(library, name).await]),
        ..SearchSettings::default()
    };
    let result = library
        .search(question, &Strategy::Flat { k: 1 }, &settings)
        .await
        .expect("search");
    let pages = &result.context.pages;
    assert_eq!(pages.len(), 1, "{question}: {pages:?}");
    (pages[0].page, pages[0].page_label.clone())
}

#[tokio::test]
async fn labels_are_read_on_ingestion_and_stored() {
    let (_dir, library) = temp_library().await;
    ingest_fixture(&library, "page-labels.pdf").await;
    ingest_fixture(&library, "multipage.pdf").await;
    let labelled = document_id(&library, "page-labels").await;
    let pages: Vec<(i64, u32)> = (1..=6).map(|page| (labelled, page)).collect();
    let labels = library.catalog().page_labels(&pages).await.expect("labels");
    for (page, label, term) in TERMS {
        assert_eq!(
            labels.get(&(labelled, page)).map(String::as_str),
            Some(label),
            "PDF page {page}"
        );
        let stored = common::page_text(&library, "page-labels", page).await;
        assert!(
            stored.to_lowercase().contains(term),
            "page {page}: {stored}"
        );
    }
    let plain = document_id(&library, "multipage").await;
    let pages: Vec<(i64, u32)> = (1..=6).map(|page| (plain, page)).collect();
    assert!(
        library
            .catalog()
            .page_labels(&pages)
            .await
            .expect("labels")
            .is_empty(),
        "a PDF without labels has none"
    );
}

#[tokio::test]
async fn a_question_naming_a_page_finds_the_page_printed_with_that_number() {
    let (_dir, library) = temp_library().await;
    ingest_fixture(&library, "page-labels.pdf").await;
    ingest_fixture(&library, "multipage.pdf").await;
    for (question, page, label) in [
        ("What is on page 2?", 4, "2"),
        ("What does page 4 say?", 6, "4"),
        ("What is on page ii?", 2, "ii"),
        ("¿Qué dice la página 1?", 3, "1"),
        ("Что на странице 3?", 5, "3"),
    ] {
        assert_eq!(
            found_page(&library, "page-labels", question).await,
            (page, Some(label.to_string())),
            "{question}"
        );
    }
    // A PDF without labels: "page 5" is its fifth page.
    for (question, page) in [("What is on page 5?", 5), ("What is on p. 2?", 2)] {
        assert_eq!(
            found_page(&library, "multipage", question).await,
            (page, None),
            "{question}"
        );
    }
}

/// The pages, in page order, of a flat top-`k` search of `question` over `name`.
async fn found_pages(library: &Library, name: &str, question: &str, k: usize) -> Vec<u32> {
    let settings = SearchSettings {
        documents: Some(vec![document_id(library, name).await]),
        ..SearchSettings::default()
    };
    let result = library
        .search(question, &Strategy::Flat { k }, &settings)
        .await
        .expect("search");
    let mut pages: Vec<u32> = result.context.pages.iter().map(|p| p.page).collect();
    pages.sort_unstable();
    pages
}

#[tokio::test]
async fn a_range_of_pages_in_a_question_finds_every_page_printed_in_it() {
    let (_dir, library) = temp_library().await;
    ingest_fixture(&library, "page-labels.pdf").await;
    ingest_fixture(&library, "multipage.pdf").await;
    // Each question also names a word of a page outside its range, which the range's
    // pages must still come before.
    for (name, question, pages) in [
        (
            "page-labels",
            "Besides marmalade, what is said between page 1 and 3?",
            vec![3, 4, 5],
        ),
        (
            "page-labels",
            "Además de la mermelada (marmalade), ¿qué dicen las páginas 2 a 4?",
            vec![4, 5, 6],
        ),
        (
            "page-labels",
            "Кроме marmalade, что на страницах с 1 по 2?",
            vec![3, 4],
        ),
        (
            "multipage",
            "Besides chlorophyll, what do pages 3-5 say?",
            vec![3, 4, 5],
        ),
    ] {
        assert_eq!(
            found_pages(&library, name, question, pages.len()).await,
            pages,
            "{question}"
        );
    }
}

#[tokio::test]
async fn every_strategy_ranks_the_named_page_first_within_a_budget() {
    let (_dir, library) = temp_library().await;
    ingest_fixture(&library, "page-labels.pdf").await;
    let settings = SearchSettings {
        documents: Some(vec![document_id(&library, "page-labels").await]),
        // One page of the fixture and a little more: the budget keeps the best page.
        token_budget: Some(120),
        ..SearchSettings::default()
    };
    for strategy in common::tree_strategies() {
        let result = library
            .search("What is on page 2?", &strategy, &settings)
            .await
            .expect("search");
        let pages: Vec<u32> = result.context.pages.iter().map(|p| p.page).collect();
        assert_eq!(pages, vec![4], "{}: {pages:?}", strategy.name());
        assert!(
            result.context.text.contains("page 4, printed page 2>>"),
            "the model is told the printed number: {}",
            result.context.text
        );
    }
}

#[tokio::test]
async fn the_answer_cites_the_page_with_its_printed_number() {
    let (_dir, library) = temp_library().await;
    ingest_fixture(&library, "page-labels.pdf").await;
    let settings = SearchSettings {
        documents: Some(vec![document_id(&library, "page-labels").await]),
        ..SearchSettings::default()
    };
    let outcome = library
        .ask(
            "What is on page 2?",
            &Strategy::Flat { k: 1 },
            &settings,
            None,
            AnswerSettings::default(),
            &mut |_: &str| {},
        )
        .await
        .expect("asked");
    let cited: Vec<(u32, Option<&str>)> = outcome
        .answer
        .citations
        .iter()
        .map(|c| (c.page, c.page_label.as_deref()))
        .collect();
    assert!(!cited.is_empty(), "{}", outcome.answer.text);
    assert!(
        cited.iter().all(|&cited| cited == (4, Some("2"))),
        "{cited:?}"
    );
    assert_eq!(
        outcome.answer.citations[0].page_in_words(),
        "p. 2 · PDF page 4"
    );
}

#[tokio::test]
async fn the_cli_shows_the_printed_number_and_json_carries_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    {
        let library = open_library(dir.path()).await;
        ingest_fixture(&library, "page-labels.pdf").await;
    }
    let question = "What is on page 3?";
    let args = [
        "ask",
        question,
        "--strategy",
        "flat",
        "--k",
        "1",
        "--document",
        "page-labels",
    ];
    let shown = cli(dir.path(), &args);
    assert!(shown.status.success(), "{}", text(&shown.stderr));
    let out = text(&shown.stdout) + &text(&shown.stderr);
    assert!(
        out.contains("page-labels p. 3 · PDF page 5"),
        "the citation shows both numbers: {out}"
    );
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let json = cli(dir.path(), &json_args);
    assert!(json.status.success(), "{}", text(&json.stderr));
    let outcome: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let citation = &outcome["answer"]["citations"][0];
    assert_eq!(citation["page"], 5, "{outcome}");
    assert_eq!(citation["page_label"], "3", "{outcome}");
    assert_eq!(
        outcome["search"]["context"]["pages"][0]["page_label"], "3",
        "{outcome}"
    );
}

#[tokio::test]
async fn a_catalog_made_before_labels_opens_and_its_pages_have_none() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("catalog.sqlite");
    // The schema as it was before labels: every migration but the last.
    let older = dir.path().join("migrations");
    std::fs::create_dir(&older).expect("folder");
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    for entry in std::fs::read_dir(&source).expect("migrations") {
        let entry = entry.expect("entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.as_str() < "20261206190000" {
            std::fs::copy(entry.path(), older.join(&name)).expect("copy");
        }
    }
    {
        let options = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(&path)
            .create_if_missing(true);
        let pool = sqlx::SqlitePool::connect_with(options)
            .await
            .expect("sqlite");
        sqlx::migrate::Migrator::new(older.as_path())
            .await
            .expect("older migrations")
            .run(&pool)
            .await
            .expect("older schema");
        sqlx::query(
            "INSERT INTO documents (id, content_hash, name, file_name, path, status) \
             VALUES (1, 'h', 'old', 'old.pdf', '/old.pdf', 'ready')",
        )
        .execute(&pool)
        .await
        .expect("document");
        for page in 1..=3 {
            sqlx::query(
                "INSERT INTO pages (document_id, page_number, text, has_text) VALUES (1, ?, 'text', 1)",
            )
            .bind(page)
            .execute(&pool)
            .await
            .expect("page");
        }
        pool.close().await;
    }
    let catalog = pagetree::catalog::Catalog::open(&path)
        .await
        .expect("an older catalog opens");
    assert!(catalog
        .page_labels(&[(1, 1), (1, 2)])
        .await
        .expect("labels")
        .is_empty());
    assert_eq!(
        catalog.pages_named(&[1], "2").await.expect("named"),
        vec![(1, 2)],
        "without labels, page 2 is the PDF page"
    );
}
