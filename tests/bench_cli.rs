//! `pagetree bench` on a two-filing subset of the FinanceBench dev split.

mod common;

use common::{cli, filing, text};

const DOCUMENTS: [&str; 2] = ["AMCOR_2023Q4_EARNINGS", "MGMRESORTS_2022Q4_EARNINGS"];

#[test]
fn bench_ingests_what_is_missing_and_reports_figures_computed_from_its_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pdfs = dir.path().join("pdfs");
    std::fs::create_dir_all(&pdfs).expect("dir");
    for name in DOCUMENTS {
        std::os::unix::fs::symlink(
            filing(&format!("{name}.pdf")),
            pdfs.join(format!("{name}.pdf")),
        )
        .expect("link");
    }
    let all = std::fs::read_to_string(filing("../questions.jsonl")).expect("questions");
    let subset: Vec<&str> = all
        .lines()
        .filter(|line| {
            DOCUMENTS
                .iter()
                .any(|d| line.contains(&format!("\"doc_name\": \"{d}\"")))
        })
        .collect();
    assert_eq!(subset.len(), 5, "two AMCOR and three MGM questions");
    let questions = dir.path().join("questions.jsonl");
    std::fs::write(&questions, subset.join("\n")).expect("write");

    let library = dir.path().join("library");
    let output = cli(
        &library,
        &[
            "bench",
            "--questions",
            questions.to_str().expect("utf-8"),
            "--pdfs",
            pdfs.to_str().expect("utf-8"),
            "--json",
        ],
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json report");
    assert_eq!(report["documents"], 2);
    let strategies = report["strategies"].as_array().expect("strategies");
    let names: Vec<&str> = strategies
        .iter()
        .filter_map(|s| s["strategy"]["name"].as_str())
        .collect();
    assert_eq!(
        names,
        vec![
            "flat",
            "branch",
            "beam",
            "knee",
            "sensitive-knee",
            "largest-gap",
            "collapsed-tree"
        ],
        "proxy-pointer needs an LLM"
    );
    for strategy in strategies {
        let runs = strategy["runs"].as_array().expect("runs");
        assert_eq!(runs.len(), 5);
        let hits = runs.iter().filter(|r| r["hit"] == true).count() as f64;
        let mean = |key: &str| {
            runs.iter()
                .map(|r| r[key].as_f64().unwrap_or(0.0))
                .sum::<f64>()
                / runs.len() as f64
        };
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(close(
            strategy["hit_rate"].as_f64().expect("hit rate"),
            hits / 5.0
        ));
        assert!(close(
            strategy["page_recall"].as_f64().expect("recall"),
            mean("recall")
        ));
        assert!(close(
            strategy["mean_tokens"].as_f64().expect("tokens"),
            mean("tokens")
        ));
        assert!(close(
            strategy["mean_pages"].as_f64().expect("pages"),
            mean("pages")
        ));
        assert!(
            runs.iter().all(|r| r["tokens"].as_u64().unwrap_or(0) > 0),
            "every run built a context"
        );
        let mut latencies: Vec<f64> = runs
            .iter()
            .map(|r| r["latency_ms"].as_f64().unwrap_or(0.0))
            .collect();
        latencies.sort_by(f64::total_cmp);
        assert!(close(
            strategy["median_latency_ms"].as_f64().expect("p50"),
            latencies[2]
        ));
        assert!(close(
            strategy["p95_latency_ms"].as_f64().expect("p95"),
            latencies[4]
        ));
    }

    // The run is one history entry carrying its metrics.
    let history = cli(&library, &["history", "--json"]);
    let runs: serde_json::Value = serde_json::from_slice(&history.stdout).expect("history json");
    let bench_runs: Vec<&serde_json::Value> = runs
        .as_array()
        .expect("array")
        .iter()
        .filter(|r| r["kind"] == "bench")
        .collect();
    assert_eq!(bench_runs.len(), 1);
    assert_eq!(
        bench_runs[0]["metrics"]["strategies"]
            .as_array()
            .map(Vec::len),
        Some(names.len())
    );

    // It keeps each question's gold pages, for the app to say which strategies found them.
    let first: serde_json::Value = serde_json::from_str(subset[0]).expect("a question");
    let asked = first["question"].as_str().expect("question text");
    let expected: Vec<(String, u32)> = first["evidence"]
        .as_array()
        .expect("evidence")
        .iter()
        .map(|e| {
            (
                e["doc_name"].as_str().expect("doc").to_string(),
                e["page_index"].as_u64().expect("page") as u32 + 1,
            )
        })
        .collect();
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let (gold, unknown) = runtime.block_on(async {
        let catalog = pagetree::Library::open_catalog(&library)
            .await
            .expect("catalog");
        let respaced = format!("  {}  ", asked.to_uppercase().replace(' ', "   "));
        (
            catalog.bench_gold(&respaced).await.expect("gold"),
            catalog
                .bench_gold("a question no bench asked")
                .await
                .expect("none"),
        )
    });
    let gold: Vec<(String, u32)> = gold.into_iter().map(|g| (g.document, g.page)).collect();
    assert!(!gold.is_empty(), "gold pages of {asked:?}");
    for page in &expected {
        assert!(gold.contains(page), "{page:?} in {gold:?}");
    }
    assert!(unknown.is_empty());

    // A second run finds both filings already ingested.
    let again = cli(
        &library,
        &[
            "bench",
            "--questions",
            questions.to_str().expect("utf-8"),
            "--pdfs",
            pdfs.to_str().expect("utf-8"),
            "--per-document",
        ],
    );
    let stdout = text(&again.stdout);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(
        !text(&again.stderr).contains("ingested"),
        "nothing new to ingest"
    );
    assert!(
        stdout.contains("per document") && stdout.contains("sensitive-knee"),
        "{stdout}"
    );

    // A question about a filing the library lacks could never be found: the whole-library
    // run refuses to score it as a miss and says which one it is.
    let stranger = subset[0].replace(DOCUMENTS[0], "NOT_INGESTED_10K");
    let with_stranger = dir.path().join("with-stranger.jsonl");
    std::fs::write(&with_stranger, [subset.join("\n"), stranger].join("\n")).expect("write");
    let refused = cli(
        &library,
        &[
            "bench",
            "--questions",
            with_stranger.to_str().expect("utf-8"),
        ],
    );
    let stderr = text(&refused.stderr);
    assert!(!refused.status.success(), "{}", text(&refused.stdout));
    assert!(
        stderr.contains(
            "1 of 6 questions are about documents that are not in the library: NOT_INGESTED_10K"
        ),
        "{stderr}"
    );
}

/// A filing present twice under two names is one document; a question about the second
/// name is scored against it, also in a later run that does not read the folder again.
#[test]
fn a_duplicate_filings_questions_are_scored_in_later_runs_too() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pdfs = dir.path().join("pdfs");
    std::fs::create_dir_all(&pdfs).expect("dir");
    let original = DOCUMENTS[0];
    let copy = "AMCOR_COPY_OF_EARNINGS";
    for name in [original, copy] {
        std::os::unix::fs::symlink(
            filing(&format!("{original}.pdf")),
            pdfs.join(format!("{name}.pdf")),
        )
        .expect("link");
    }
    let all = std::fs::read_to_string(filing("../questions.jsonl")).expect("questions");
    let about_copy: Vec<String> = all
        .lines()
        .filter(|line| line.contains(&format!("\"doc_name\": \"{original}\"")))
        .map(|line| line.replace(original, copy))
        .collect();
    assert_eq!(about_copy.len(), 2, "two AMCOR questions");
    let questions = dir.path().join("questions.jsonl");
    std::fs::write(&questions, about_copy.join("\n")).expect("write");
    let library = dir.path().join("library");
    let questions = questions.to_str().expect("utf-8");
    let bench = |extra: &[&str]| {
        let mut args = vec![
            "bench",
            "--questions",
            questions,
            "--per-document",
            "--json",
        ];
        args.extend_from_slice(extra);
        cli(&library, &args)
    };

    let first = bench(&[
        "--pdfs",
        pdfs.to_str().expect("utf-8"),
        "--strategies",
        "flat",
    ]);
    assert!(first.status.success(), "{}", text(&first.stderr));
    let later = bench(&["--strategies", "flat"]);
    assert!(later.status.success(), "{}", text(&later.stderr));
    let hits = |output: &std::process::Output| {
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
        report["strategies"][0]["hit_rate"]
            .as_f64()
            .expect("hit rate")
    };
    assert_eq!(hits(&later), hits(&first));
}
