//! A question that names a financial statement finds that statement's page in a real
//! filing: the page is known as the statement from its heading at ingestion, and the
//! search ranks it up. Without the question's analysis the same search misses it, so
//! the test fails if either half stops working.

mod common;

use common::{filing, open_library};
use pagetree::ingest::{IngestOutcome, NoProgress};
use pagetree::search::{SearchSettings, Strategy};
use pagetree::statements::FinancialStatement;

/// 3M's 2018 10-K: page 56 is the income statement, 58 the balance sheet and 60 the
/// statement of cash flows, whose "Purchases of property, plant and equipment" line is
/// the answer (FinanceBench's gold page).
const QUESTION: &str = "What is the FY2018 capital expenditure amount (in USD millions) for 3M? \
    Give a response to the question by relying on the details shown in the cash flow statement.";
const CASH_FLOWS_PAGE: u32 = 60;

#[tokio::test]
async fn the_statement_a_question_names_is_found_in_a_real_filing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = open_library(&dir.path().join("library")).await;
    let outcome = library
        .ingest(&filing("3M_2018_10K.pdf"), &NoProgress)
        .await
        .expect("ingests");
    let IngestOutcome::Added { document, .. } = outcome else {
        panic!("the filing was new");
    };

    let scope = library.catalog().search_scope().await.expect("scope");
    let statements: Vec<(u32, FinancialStatement)> = scope
        .statement_pages
        .iter()
        .map(|page| (page.page, page.statement))
        .collect();
    for expected in [
        (56, FinancialStatement::IncomeStatement),
        (58, FinancialStatement::BalanceSheet),
        (CASH_FLOWS_PAGE, FinancialStatement::CashFlows),
    ] {
        assert!(
            statements.contains(&expected),
            "{expected:?} in {statements:?}"
        );
    }
    // The index of the statements (page 3) names them all and is none of them.
    assert!(
        statements.iter().all(|&(page, _)| page != 3),
        "{statements:?}"
    );

    // Over the whole library the analysis says so in the trace too.
    let whole = library
        .search(
            QUESTION,
            &Strategy::Knee { max_roots: 40 },
            &SearchSettings::default(),
        )
        .await
        .expect("search");
    let note = whole
        .analysis
        .map(|analysis| analysis.note)
        .unwrap_or_default();
    assert!(
        note.contains("asks about the statement of cash flows"),
        "{note}"
    );

    for strategy in [Strategy::Flat { k: 10 }, Strategy::Knee { max_roots: 40 }] {
        let settings = |analysis: bool| SearchSettings {
            documents: Some(vec![document.id]),
            token_budget: Some(2_500),
            query_analysis: analysis,
            ..SearchSettings::default()
        };
        let pages_found = |result: &pagetree::search::SearchResult| -> Vec<u32> {
            result.context.pages.iter().map(|page| page.page).collect()
        };

        let analysed = library
            .search(QUESTION, &strategy, &settings(true))
            .await
            .expect("search");
        assert_eq!(analysed.statements, vec![FinancialStatement::CashFlows]);
        assert!(
            pages_found(&analysed).contains(&CASH_FLOWS_PAGE),
            "{strategy:?} with the question analysed: {:?}",
            pages_found(&analysed)
        );

        let plain = library
            .search(QUESTION, &strategy, &settings(false))
            .await
            .expect("search");
        assert!(plain.statements.is_empty());
        assert!(
            !pages_found(&plain).contains(&CASH_FLOWS_PAGE),
            "{strategy:?} found the statement without the analysis, so this test shows nothing: {:?}",
            pages_found(&plain)
        );
    }
}
