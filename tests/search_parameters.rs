//! Every search parameter a caller can pass (CLI flags, the app's JSON) either works or
//! is refused with a sentence, never a panic: `search --k 18446744073709551615` used to
//! die with "capacity overflow" (issue 16, item 5).

mod common;

use common::{cli, fixture, open_library, text};
use pagetree::ingest::NoProgress;
use pagetree::search::{SearchSettings, Strategy};
use pagetree::store::{Fusion, FusionMethod};
use proptest::prelude::*;
use proptest::strategy::Strategy as _;
use proptest::test_runner::{Config, TestRunner};

/// Counts near both ends of every range, and anything at all.
fn count() -> BoxedStrategy<usize> {
    prop_oneof![
        0usize..=3,
        995usize..=1_005,
        Just(usize::MAX),
        Just(usize::MAX / 2 + 1),
        any::<usize>(),
    ]
    .boxed()
}

fn weight() -> BoxedStrategy<f32> {
    prop_oneof![
        Just(0.0f32),
        Just(1.0f32),
        -1.0f32..1_500.0,
        Just(f32::NAN),
        Just(f32::INFINITY),
        any::<f32>(),
    ]
    .boxed()
}

/// Every strategy that runs without a language model, with any parameters.
fn strategy() -> BoxedStrategy<Strategy> {
    prop_oneof![
        count().prop_map(|k| Strategy::Flat { k }),
        count().prop_map(|roots| Strategy::Branch { roots }),
        count().prop_map(|width| Strategy::Beam { width }),
        count().prop_map(|max_roots| Strategy::Knee { max_roots }),
        count().prop_map(|max_roots| Strategy::LargestGap { max_roots }),
        (weight(), count()).prop_map(|(sensitivity, max_roots)| Strategy::SensitiveKnee {
            sensitivity,
            max_roots
        }),
        count().prop_map(|depth| Strategy::CollapsedTree { depth }),
    ]
    .boxed()
}

fn settings() -> BoxedStrategy<SearchSettings> {
    let method = prop_oneof![
        Just(FusionMethod::Rrf),
        Just(FusionMethod::MinMax),
        Just(FusionMethod::Dbsf)
    ];
    let budget = prop_oneof![
        Just(None),
        count().prop_map(Some),
        (1usize..20_000).prop_map(Some)
    ];
    let node_pages = prop_oneof![
        Just(None),
        (0u32..4).prop_map(Some),
        any::<u32>().prop_map(Some)
    ];
    (
        method,
        count(),
        weight(),
        weight(),
        budget,
        node_pages,
        any::<bool>(),
    )
        .prop_map(
            |(method, rrf_k, dense, sparse, token_budget, max_node_pages, root)| {
                let fusion = Fusion::rrf(rrf_k, dense, sparse).with_method(method);
                SearchSettings {
                    fusion: if root {
                        Fusion::rrf(2, 1.0, 1.0)
                    } else {
                        fusion
                    },
                    root_fusion: root.then_some(fusion),
                    token_budget,
                    max_node_pages,
                    ..SearchSettings::default()
                }
            },
        )
        .boxed()
}

#[test]
fn every_search_parameter_works_or_is_refused_in_words() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let library = runtime.block_on(async {
        let library = open_library(dir.path()).await;
        library
            .ingest(&fixture("multipage.pdf"), &NoProgress)
            .await
            .expect("the fixture ingests");
        library
    });
    // Each case is a real search; 64 keep the test to seconds on a busy machine while
    // the generators put most of them at the edges of the ranges.
    let mut runner = TestRunner::new(Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&(strategy(), settings()), |(strategy, settings)| {
            let expected = strategy.validate().and_then(|()| settings.validate());
            let outcome = runtime.block_on(library.search_recorded(
                "quarterly revenue",
                &strategy,
                &settings,
            ));
            match (expected, outcome) {
                (Ok(()), Ok(_)) => {}
                (Ok(()), Err(err)) => {
                    return Err(TestCaseError::fail(format!("in range but failed: {err}")))
                }
                (Err(refusal), Err(err)) => {
                    prop_assert_eq!(err.to_string(), refusal.to_string());
                    prop_assert!(
                        err.to_string().contains("must") || err.to_string().contains("cannot")
                    );
                }
                (Err(refusal), Ok(_)) => {
                    return Err(TestCaseError::fail(format!(
                        "out of range ({refusal}) but searched"
                    )))
                }
            }
            Ok(())
        })
        .unwrap_or_else(|failure| panic!("{failure}"));
}

#[test]
fn the_cli_refuses_a_k_that_used_to_panic() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    tokio::runtime::Runtime::new()
        .expect("a runtime")
        .block_on(async {
            let library = open_library(dir.path()).await;
            library
                .ingest(&fixture("multipage.pdf"), &NoProgress)
                .await
                .expect("the fixture ingests");
        });
    for (args, words) in [
        (
            vec![
                "search",
                "--strategy",
                "flat",
                "--k",
                "18446744073709551615",
            ],
            "k must be between 1 and 1000, not 18446744073709551615",
        ),
        (
            vec!["search", "--strategy", "beam", "--width", "0"],
            "width must be between 1 and 1000, not 0",
        ),
        (
            vec!["compare", "--rrf-k", "0"],
            "RRF k must be between 1 and 10000, not 0",
        ),
        (
            vec!["search", "--dense-weight", "NaN"],
            "dense weight must be between 0 and 1000, not NaN",
        ),
    ] {
        let mut args = args;
        args.push("quarterly revenue");
        let output = cli(dir.path(), &args);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
