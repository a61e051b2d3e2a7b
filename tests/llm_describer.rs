//! The LLM describer against a real OpenAI-compatible server (llama-server + SmolLM2),
//! and against test doubles that play a broken server.

mod common;

use std::time::{Duration, Instant};

use common::llm::{describe_error, double, free_port, settings};
use common::openai_double::{self, Behaviour};
use common::{added, ingest_fixture, leaf, llama, open_library_with_llm};
use pagetree::describe::LlmDescriber;
use pagetree::ingest::IngestOutcome;
use pagetree::llm::{LlmClient, LlmFailure};
use pagetree::tree::check_invariants;

#[tokio::test]
async fn a_real_server_describes_pages_and_sections_and_a_whole_document() {
    let server = llama::LlamaServer::start();
    let describer = LlmDescriber::new(settings(&server.base_url)).expect("settings");
    let page = describer
        .describe_page("Magma rises through the crust. A volcano erupts when pressure builds.")
        .await
        .expect("a schema-valid description");
    assert!(!page.description.trim().is_empty());
    assert!(page.description.chars().count() <= 1_000);
    assert!(page.keywords.len() <= 12);
    let summary = describer
        .summarise(&["Volcanoes erupt magma.", "Castles have a portcullis."])
        .await
        .expect("a schema-valid summary");
    assert!(!summary.trim().is_empty());

    let dir = tempfile::tempdir().expect("temp dir");
    let library = open_library_with_llm(dir.path(), Some(settings(&server.base_url))).await;
    let (document, _, _) = added(ingest_fixture(&library, "multipage.pdf").await);
    // A 135M model misses the schema now and then: those pages are described offline.
    assert!(
        matches!(document.describer.as_deref(), Some("llm" | "mixed")),
        "{:?}",
        document.describer
    );
    let (_, nodes) = library.tree("multipage").await.expect("tree");
    check_invariants(&nodes, 6).expect("invariants");
}

#[tokio::test]
async fn a_real_server_lists_its_model_and_an_absent_one_is_named() {
    let server = llama::LlamaServer::start();
    let client = LlmClient::new(settings(&server.base_url)).expect("settings");
    let names = client.model_names().await.expect("a model list");
    assert!(names.iter().any(|name| name == "smollm2"), "{names:?}");

    let url = format!("http://127.0.0.1:{}/v1", free_port());
    let absent = LlmClient::new(settings(&url)).expect("settings");
    let err = absent.model_names().await.expect_err("nothing listens");
    assert!(matches!(err, LlmFailure::Unreachable { .. }), "{err}");
}

#[tokio::test]
async fn garbage_from_the_server_is_reported_and_ingestion_falls_back_offline() {
    let address = openai_double::start(Behaviour::Content("this is not JSON at all".into())).await;
    let quick = double(address, 2);
    let err = LlmDescriber::new(quick.clone())
        .expect("settings")
        .describe_page("Some page.")
        .await
        .expect_err("garbage");
    assert!(matches!(err, LlmFailure::Garbage(_)), "{err}");
    assert!(err.to_string().contains("not the JSON asked for"));

    let dir = tempfile::tempdir().expect("temp dir");
    let library = open_library_with_llm(dir.path(), Some(quick)).await;
    let (_, warnings, _) = added(ingest_fixture(&library, "multipage.pdf").await);
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("described offline") && w.contains("not the JSON")),
        "{warnings:?}"
    );
    let (_, nodes) = library.tree("multipage").await.expect("tree");
    let magma = leaf(&nodes, 2);
    assert!(
        magma.keywords.iter().any(|k| k == "magma"),
        "offline keywords: {:?}",
        magma.keywords
    );
}

#[tokio::test]
async fn a_valid_json_answer_that_breaks_the_schema_is_garbage_too() {
    let address = openai_double::start(Behaviour::Content(r#"{"summary": 3}"#.into())).await;
    let err = describe_error(double(address, 1)).await;
    assert!(matches!(err, LlmFailure::Garbage(_)), "{err}");
}

#[tokio::test]
async fn server_errors_are_reported_in_words() {
    let address = openai_double::start(Behaviour::Raw(
        503,
        r#"{"error":{"message":"model is loading","type":"unavailable"}}"#.into(),
    ))
    .await;
    let err = describe_error(double(address, 1)).await;
    assert!(matches!(err, LlmFailure::Server(_)), "{err}");
    assert!(err.to_string().contains("model is loading"), "{err}");
}

#[tokio::test]
async fn a_silent_server_times_out_within_the_bounded_retries() {
    let address = openai_double::start(Behaviour::Hang).await;
    let mut slow = double(address, 2);
    slow.timeout = Duration::from_secs(1);
    let started = Instant::now();
    let err = describe_error(slow.clone()).await;
    // With a 1 s timeout the read timeout and the first-byte wait end together.
    assert!(
        matches!(err, LlmFailure::Silent { .. } | LlmFailure::Timeout { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("did not answer within 1 s"));
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "retries are bounded"
    );

    // A whole document gives up on the model after a few failures instead of waiting on every page.
    let dir = tempfile::tempdir().expect("temp dir");
    let library = open_library_with_llm(dir.path(), Some(slow)).await;
    let (_, warnings, _) = added(ingest_fixture(&library, "multipage.pdf").await);
    assert!(
        warnings.iter().any(|w| w.contains("did not answer")),
        "{warnings:?}"
    );
}

#[tokio::test]
async fn an_absent_server_is_named_and_ingestion_still_completes() {
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/v1");
    let err = describe_error(settings(&url)).await;
    assert!(matches!(err, LlmFailure::Unreachable { .. }), "{err}");
    assert!(err.to_string().contains(&format!("127.0.0.1:{port}")));

    let dir = tempfile::tempdir().expect("temp dir");
    let library = open_library_with_llm(dir.path(), Some(settings(&url))).await;
    let outcome = ingest_fixture(&library, "with-empty-page.pdf").await;
    assert!(matches!(
        outcome,
        IngestOutcome::AlreadyPresent { .. } | IngestOutcome::Added { .. }
    ));
}

#[tokio::test]
async fn a_huge_answer_is_refused_at_the_cap_without_reading_it() {
    let (address, probe) =
        openai_double::start_probed(Behaviour::Huge(200, 200 * 1024 * 1024)).await;
    let err = describe_error(double(address, 3)).await;
    assert!(matches!(err, LlmFailure::TooLarge { .. }), "{err}");
    assert!(err.to_string().contains("larger than 4 MB"), "{err}");
    // Read once (a size limit is not retried), and only as far as the cap.
    assert!(
        probe.sent() < 64 * 1024 * 1024,
        "{} bytes were read",
        probe.sent()
    );
}

#[tokio::test]
async fn a_huge_error_body_gives_a_short_message() {
    let (address, probe) =
        openai_double::start_probed(Behaviour::Huge(500, 200 * 1024 * 1024)).await;
    let err = describe_error(double(address, 1)).await;
    assert!(matches!(err, LlmFailure::Server(_)), "{err}");
    assert!(
        err.to_string().len() < 2_000,
        "{} bytes",
        err.to_string().len()
    );
    assert!(
        probe.sent() < 64 * 1024 * 1024,
        "{} bytes were read",
        probe.sent()
    );
}
