//! Shared helpers for the integration tests.
#![allow(dead_code)]

pub mod contract;
pub mod llama;
pub mod llm;
pub mod openai_double;
pub mod qdrant;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pagetree::catalog::DocumentRecord;
use pagetree::ingest::{IngestOutcome, NoProgress, StageSeconds};
use pagetree::library::{Library, OpenOptions};
use pagetree::llm::LlmSettings;
use pagetree::tree::Node;

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The FinanceBench dev filings, which live beside the repository in `../shared`.
pub fn filing(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/bench/financebench-dev/pdfs")
        .join(name);
    assert!(
        path.exists(),
        "{} is missing: the tests read the benchmark filings from ../shared (see docs/development.md)",
        path.display()
    );
    path
}

/// The fixtures whose pages each carry a term found on no other page of the set.
pub const DISTINCT_FIXTURES: [&str; 4] = [
    "multipage.pdf",
    "cyrillic.pdf",
    "spanish.pdf",
    "with-empty-page.pdf",
];

/// Adds [`DISTINCT_FIXTURES`] to `library`.
pub async fn ingest_distinct_fixtures(library: &Library) {
    for file in DISTINCT_FIXTURES {
        ingest_fixture(library, file).await;
    }
}

/// Every tree strategy (and flat), with settings small enough for a fixture library.
pub fn tree_strategies() -> Vec<pagetree::search::Strategy> {
    use pagetree::search::Strategy;
    vec![
        Strategy::Flat { k: 3 },
        Strategy::Branch { roots: 2 },
        Strategy::Beam { width: 3 },
        Strategy::Knee { max_roots: 20 },
        Strategy::SensitiveKnee {
            sensitivity: 0.85,
            max_roots: 20,
        },
        Strategy::SensitiveKnee {
            sensitivity: 0.0,
            max_roots: 20,
        },
    ]
}

pub async fn open_library(root: &Path) -> Library {
    open_library_with_llm(root, None).await
}

/// Opens the library at `root` with `llm` as its model (`None`: offline).
pub async fn open_library_with_llm(root: &Path, llm: Option<LlmSettings>) -> Library {
    let options = OpenOptions {
        llm,
        ..OpenOptions::default()
    };
    let (library, _) = Library::open(root, options).await.unwrap_or_else(|err| {
        panic!("the library opens: {err} (run scripts/setup.sh for the assets)")
    });
    library
}

/// An empty library in a fresh temporary folder (keep the folder while the library lives).
pub async fn temp_library() -> (tempfile::TempDir, Library) {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = open_library(dir.path()).await;
    (dir, library)
}

/// Adds the fixture `name` to `library`.
pub async fn ingest_fixture(library: &Library, name: &str) -> IngestOutcome {
    library
        .ingest(&fixture(name), &NoProgress)
        .await
        .unwrap_or_else(|err| panic!("{name} ingests: {err}"))
}

/// The document, warnings and stage timings of an outcome that must be `Added`.
pub fn added(outcome: IngestOutcome) -> (DocumentRecord, Vec<String>, StageSeconds) {
    match outcome {
        IngestOutcome::Added {
            document,
            warnings,
            seconds,
            ..
        } => (document, warnings, seconds),
        IngestOutcome::AlreadyPresent { document } => {
            panic!("{} was already in the library", document.name)
        }
    }
}

/// The leaf of page `page` among a document's tree nodes.
pub fn leaf(nodes: &[Node], page: u32) -> &Node {
    nodes
        .iter()
        .find(|node| node.is_leaf() && node.page_start == page)
        .unwrap_or_else(|| panic!("no leaf for page {page}"))
}

/// The stored text of page `page` of the document `name`.
pub async fn page_text(library: &Library, name: &str, page: u32) -> String {
    let document = library.catalog().resolve(name).await.expect("known");
    library
        .catalog()
        .page_text(document.id, page)
        .await
        .expect("query")
        .unwrap_or_else(|| panic!("{name} has text for page {page}"))
}

pub fn cli(library: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pagetree"))
        .arg("--library")
        .arg(library)
        .args(args)
        .env_remove("PAGETREE_LLM_URL")
        .output()
        .expect("the pagetree binary runs")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
