//! Pages embedded in windows, on a real filing: a library keeps one vector a page by
//! default, and `reindex --windows N` rebuilds its index so that long pages keep up to
//! N, without reading the PDF again and without losing a node.

mod common;

use common::{cli, filing, open_library, text};
use pagetree::ingest::NoProgress;
use pagetree::search::{SearchSettings, Strategy};
use pagetree::store::DenseLayout;

/// MGM Resorts' fourth-quarter 2022 earnings release: 15 pages, most of them tables
/// longer than the model's 256 tokens.
const FILING: &str = "MGMRESORTS_2022Q4_EARNINGS";

#[tokio::test]
async fn reindex_with_windows_rebuilds_the_index_and_keeps_every_node() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("library");
    let document = {
        let library = open_library(&root).await;
        let outcome = library
            .ingest(&filing(&format!("{FILING}.pdf")), &NoProgress)
            .await
            .expect("ingests");
        let pagetree::ingest::IngestOutcome::Added { document, .. } = outcome else {
            panic!("{FILING} was new");
        };
        let store = library.store().await.expect("store");
        assert_eq!(store.dense_layout(), DenseLayout::Single);
        let points = store.document_points(document.id).await.expect("points");
        assert!(points.iter().all(|point| point.dense.len() == 1));
        document
    };

    let output = cli(&root, &["reindex", "--windows", "3"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).contains("up to 3 window(s)"),
        "{}",
        text(&output.stdout)
    );
    let leftovers: Vec<String> = std::fs::read_dir(&root)
        .expect("library folder")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.starts_with("index."))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    let library = open_library(&root).await;
    assert_eq!(library.settings().page_windows, 3);
    let store = library.store().await.expect("store");
    assert_eq!(store.dense_layout(), DenseLayout::Windows);
    let points = store.document_points(document.id).await.expect("points");
    assert_eq!(points.len() as u32, document.node_count.expect("nodes"));
    let windows: Vec<usize> = points
        .iter()
        .filter(|point| point.node.is_leaf())
        .map(|point| point.dense.len())
        .collect();
    assert!(
        windows.iter().all(|&count| (1..=3).contains(&count)),
        "{windows:?}"
    );
    assert!(windows.iter().any(|&count| count > 1), "{windows:?}");
    assert!(points
        .iter()
        .filter(|point| !point.node.is_leaf())
        .all(|point| point.dense.len() == 1));

    let result = library
        .search(
            "MGM Resorts adjusted EBITDAR by region in the fourth quarter of 2022",
            &Strategy::Knee { max_roots: 20 },
            &SearchSettings {
                token_budget: Some(2500),
                ..SearchSettings::default()
            },
        )
        .await
        .expect("searches the rebuilt index");
    assert!(!result.context.pages.is_empty());
    assert!(result.context.tokens <= 2500, "{}", result.context.tokens);
}
