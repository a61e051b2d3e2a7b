//! Shared helpers for the integration tests.
#![allow(dead_code)]

pub mod contract;
pub mod llama;
pub mod openai_double;
pub mod qdrant;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pagetree::library::{Library, OpenOptions};

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
        "{} is missing: the tests read the benchmark filings from ../shared (see README)",
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
        library
            .ingest(&fixture(file), &pagetree::ingest::NoProgress)
            .await
            .unwrap_or_else(|err| panic!("{file} ingests: {err}"));
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
    let (library, _) = Library::open(root, OpenOptions::default())
        .await
        .unwrap_or_else(|err| {
            panic!("the library opens: {err} (run scripts/setup.sh for the assets)")
        });
    library
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
