//! The LLM describer against a real OpenAI-compatible server (llama-server + SmolLM2),
//! and against test doubles that play a broken server.

mod common;

use std::time::{Duration, Instant};

use common::openai_double::{self, Behaviour};
use common::{fixture, llama};
use pagetree::describe::{LlmDescriber, LlmSettings};
use pagetree::ingest::{IngestOutcome, NoProgress};
use pagetree::library::{Library, OpenOptions};
use pagetree::llm::{LlmClient, LlmFailure};
use pagetree::tree::check_invariants;

fn settings(base_url: &str) -> LlmSettings {
    let mut settings = LlmSettings::new(base_url, "smollm2");
    settings.timeout = Duration::from_secs(60);
    settings
}

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
    let options = OpenOptions {
        llm: Some(settings(&server.base_url)),
        ..OpenOptions::default()
    };
    let (library, _) = Library::open(dir.path(), options).await.expect("opens");
    let outcome = library
        .ingest(&fixture("multipage.pdf"), &NoProgress)
        .await
        .expect("ingests");
    let IngestOutcome::Added { document, .. } = outcome else {
        panic!("added")
    };
    assert_eq!(document.describer.as_deref(), Some("llm"));
    let (_, nodes) = library.tree("multipage").await.expect("tree");
    check_invariants(&nodes, 6).expect("invariants");
}

#[tokio::test]
async fn a_real_server_lists_its_model_and_an_absent_one_is_named() {
    let server = llama::LlamaServer::start();
    let client = LlmClient::new(settings(&server.base_url)).expect("settings");
    let names = client.model_names().await.expect("a model list");
    assert!(names.iter().any(|name| name == "smollm2"), "{names:?}");

    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("port")
        .port();
    let absent =
        LlmClient::new(settings(&format!("http://127.0.0.1:{port}/v1"))).expect("settings");
    let err = absent.model_names().await.expect_err("nothing listens");
    assert!(matches!(err, LlmFailure::Unreachable { .. }), "{err}");
}

#[tokio::test]
async fn garbage_from_the_server_is_reported_and_ingestion_falls_back_offline() {
    let address = openai_double::start(Behaviour::Content("this is not JSON at all".into())).await;
    let url = format!("http://{address}/v1");
    let mut quick = settings(&url);
    quick.max_attempts = 2;
    let describer = LlmDescriber::new(quick.clone()).expect("settings");
    let err = describer
        .describe_page("Some page.")
        .await
        .expect_err("garbage");
    assert!(matches!(err, LlmFailure::Garbage(_)), "{err}");
    assert!(err.to_string().contains("not the JSON asked for"));

    let dir = tempfile::tempdir().expect("temp dir");
    let options = OpenOptions {
        llm: Some(quick),
        ..OpenOptions::default()
    };
    let (library, _) = Library::open(dir.path(), options).await.expect("opens");
    let outcome = library
        .ingest(&fixture("multipage.pdf"), &NoProgress)
        .await
        .expect("still ingests");
    let IngestOutcome::Added { warnings, .. } = outcome else {
        panic!("added")
    };
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("described offline") && w.contains("not the JSON")),
        "{warnings:?}"
    );
    let (_, nodes) = library.tree("multipage").await.expect("tree");
    let magma = nodes
        .iter()
        .find(|n| n.is_leaf() && n.page_start == 2)
        .expect("page 2");
    assert!(
        magma.keywords.iter().any(|k| k == "magma"),
        "offline keywords: {:?}",
        magma.keywords
    );
}

#[tokio::test]
async fn a_valid_json_answer_that_breaks_the_schema_is_garbage_too() {
    let address = openai_double::start(Behaviour::Content(r#"{"summary": 3}"#.into())).await;
    let mut quick = settings(&format!("http://{address}/v1"));
    quick.max_attempts = 1;
    let err = LlmDescriber::new(quick)
        .expect("settings")
        .describe_page("x")
        .await
        .expect_err("bad");
    assert!(matches!(err, LlmFailure::Garbage(_)), "{err}");
}

#[tokio::test]
async fn server_errors_are_reported_in_words() {
    let address = openai_double::start(Behaviour::Raw(
        503,
        r#"{"error":{"message":"model is loading","type":"unavailable"}}"#.into(),
    ))
    .await;
    let mut quick = settings(&format!("http://{address}/v1"));
    quick.max_attempts = 1;
    let err = LlmDescriber::new(quick)
        .expect("settings")
        .describe_page("x")
        .await
        .expect_err("503");
    assert!(matches!(err, LlmFailure::Server(_)), "{err}");
    assert!(err.to_string().contains("model is loading"), "{err}");
}

#[tokio::test]
async fn a_silent_server_times_out_within_the_bounded_retries() {
    let address = openai_double::start(Behaviour::Hang).await;
    let mut slow = settings(&format!("http://{address}/v1"));
    slow.timeout = Duration::from_secs(1);
    slow.max_attempts = 2;
    let started = Instant::now();
    let err = LlmDescriber::new(slow.clone())
        .expect("settings")
        .describe_page("x")
        .await
        .expect_err("timeout");
    assert!(matches!(err, LlmFailure::Timeout { .. }), "{err}");
    assert!(err.to_string().contains("did not answer within 1 s"));
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "retries are bounded"
    );

    // A whole document gives up on the model after a few failures instead of waiting on every page.
    let dir = tempfile::tempdir().expect("temp dir");
    let options = OpenOptions {
        llm: Some(slow),
        ..OpenOptions::default()
    };
    let (library, _) = Library::open(dir.path(), options).await.expect("opens");
    let outcome = library
        .ingest(&fixture("multipage.pdf"), &NoProgress)
        .await
        .expect("ingests offline");
    let IngestOutcome::Added { warnings, .. } = outcome else {
        panic!("added")
    };
    assert!(
        warnings.iter().any(|w| w.contains("did not answer")),
        "{warnings:?}"
    );
}

#[tokio::test]
async fn an_absent_server_is_named_and_ingestion_still_completes() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("port")
        .port();
    // Nothing listens on the port once the probe listener is dropped.
    let url = format!("http://127.0.0.1:{port}/v1");
    let err = LlmDescriber::new(settings(&url))
        .expect("settings")
        .describe_page("x")
        .await
        .expect_err("absent");
    assert!(matches!(err, LlmFailure::Unreachable { .. }), "{err}");
    assert!(err.to_string().contains(&format!("127.0.0.1:{port}")));

    let dir = tempfile::tempdir().expect("temp dir");
    let options = OpenOptions {
        llm: Some(settings(&url)),
        ..OpenOptions::default()
    };
    let (library, _) = Library::open(dir.path(), options).await.expect("opens");
    let outcome = library
        .ingest(&fixture("with-empty-page.pdf"), &NoProgress)
        .await
        .expect("ingests");
    assert!(matches!(
        outcome,
        IngestOutcome::AlreadyPresent { .. } | IngestOutcome::Added { .. }
    ));
}

#[tokio::test]
async fn a_huge_answer_is_refused_at_the_cap_without_reading_it() {
    let (address, probe) =
        openai_double::start_probed(Behaviour::Huge(200, 200 * 1024 * 1024)).await;
    let mut quick = settings(&format!("http://{address}/v1"));
    quick.max_attempts = 3;
    let err = LlmDescriber::new(quick)
        .expect("settings")
        .describe_page("x")
        .await
        .expect_err("too large");
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
    let mut quick = settings(&format!("http://{address}/v1"));
    quick.max_attempts = 1;
    let err = LlmDescriber::new(quick)
        .expect("settings")
        .describe_page("x")
        .await
        .expect_err("a server error");
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
