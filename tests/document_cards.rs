//! Whole-library search over filings of one company that only their periods tell
//! apart: the question's year must find its filing through the cards, with the files
//! under their own names and under meaningless ones.

mod common;

use std::path::{Path, PathBuf};

use common::{filing, open_library};
use pagetree::eval::document_rank;
use pagetree::ingest::NoProgress;
use pagetree::search::{SearchSettings, Strategy};

/// Three Netflix 10-Ks: each reports the year before it as a comparative, so the
/// 2018 filing holds the 2017 balance sheet too.
const FILINGS: [&str; 3] = ["NETFLIX_2016_10K", "NETFLIX_2017_10K", "NETFLIX_2018_10K"];
const QUESTION: &str =
    "What is Netflix's year end FY2017 total current liabilities (in USD millions)? \
    Base your judgments on the information provided primarily in the balance sheet.";

async fn search_finds_the_period_s_filing(files: Vec<PathBuf>, gold: &Path) {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = open_library(&dir.path().join("library")).await;
    let mut gold_id = None;
    for file in &files {
        let outcome = library.ingest(file, &NoProgress).await.expect("ingests");
        let pagetree::ingest::IngestOutcome::Added { document, .. } = outcome else {
            panic!("{} was new", file.display());
        };
        let card = document
            .card
            .clone()
            .expect("every new document has a card");
        assert_eq!(
            card.kind,
            Some(pagetree::card::DocumentKind::AnnualReport),
            "{card:?}"
        );
        if file == gold {
            gold_id = Some(document.id);
            assert_eq!(card.fiscal_year, Some(2017), "{card:?}");
        }
    }
    let gold_id = gold_id.expect("the gold filing was ingested");
    library
        .store()
        .await
        .expect("store")
        .optimize()
        .await
        .expect("optimize");

    for strategy in [
        Strategy::Knee { max_roots: 40 },
        Strategy::SensitiveKnee {
            sensitivity: 0.85,
            max_roots: 40,
        },
        Strategy::Beam { width: 3 },
    ] {
        let result = library
            .search(QUESTION, &strategy, &SearchSettings::default())
            .await
            .expect("searches");
        let analysis = result.analysis.clone().expect("the question was analysed");
        assert_eq!(analysis.years, vec![2017], "{analysis:?}");
        assert_eq!(analysis.organizations.len(), 1, "{analysis:?}");
        assert_eq!(
            analysis.filter.as_ref().map(Vec::len),
            Some(3),
            "{analysis:?}"
        );
        assert_eq!(
            document_rank(&result, gold_id),
            Some(1),
            "{}: the 2017 filing ranks first at the first step ({})",
            strategy.name(),
            analysis.note
        );
        assert!(
            result.context.pages.iter().any(|p| p.doc_id == gold_id),
            "{}: the context holds pages of the 2017 filing",
            strategy.name()
        );
    }
}

#[tokio::test]
async fn the_period_in_the_question_finds_its_filing_among_the_same_company_s_years() {
    let files: Vec<PathBuf> = FILINGS
        .iter()
        .map(|name| filing(&format!("{name}.pdf")))
        .collect();
    let gold = files[1].clone();
    search_finds_the_period_s_filing(files, &gold).await;
}

#[tokio::test]
async fn it_does_so_with_file_names_that_say_nothing() {
    let copies = tempfile::tempdir().expect("temp dir");
    let files: Vec<PathBuf> = FILINGS
        .iter()
        .enumerate()
        .map(|(index, name)| {
            // Names in an order unrelated to the years.
            let copy = copies
                .path()
                .join(format!("doc-{:x}.pdf", 0xbeef - index * 7));
            std::fs::copy(filing(&format!("{name}.pdf")), &copy).expect("copy");
            copy
        })
        .collect();
    let gold = files[1].clone();
    search_finds_the_period_s_filing(files, &gold).await;
}
