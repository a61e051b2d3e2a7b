//! Questions answered with citations: a real streamed answer from llama-server, citation
//! validation and model faults with test doubles, and the answer without a model.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::llm::free_port;
use common::openai_double::{self, Behaviour};
use common::{ingest_fixture, llama, open_library, open_library_with_llm};
use pagetree::chat::ask::AskOutcome;
use pagetree::chat::AnswerSettings;
use pagetree::library::Library;
use pagetree::llm::LlmSettings;
use pagetree::search::{SearchSettings, Strategy};

const STRATEGY: Strategy = Strategy::Flat { k: 2 };

async fn library(dir: &std::path::Path, base_url: Option<String>) -> Library {
    library_with(dir, base_url, |_| {}).await
}

/// [`library`], with the LLM settings changed by `tune`.
async fn library_with(
    dir: &std::path::Path,
    base_url: Option<String>,
    tune: impl FnOnce(&mut LlmSettings),
) -> Library {
    {
        let offline = open_library(dir).await;
        for file in ["multipage.pdf", "spanish.pdf"] {
            ingest_fixture(&offline, file).await;
        }
    }
    let llm = base_url.map(|url| {
        let mut settings = common::llm::settings(&url);
        settings.max_attempts = 1;
        tune(&mut settings);
        settings
    });
    open_library_with_llm(dir, llm).await
}

/// `ask` with the tests' strategy and default settings, not watching the stream.
async fn ask(library: &Library, question: &str) -> pagetree::Result<AskOutcome> {
    ask_streaming(
        library,
        question,
        AnswerSettings::default(),
        &mut |_: &str| {},
    )
    .await
}

/// `ask` with the tests' strategy, giving each streamed piece to `on_piece`.
async fn ask_streaming(
    library: &Library,
    question: &str,
    answer: AnswerSettings,
    on_piece: &mut (dyn FnMut(&str) + Send),
) -> pagetree::Result<AskOutcome> {
    library
        .ask(
            question,
            &STRATEGY,
            &SearchSettings::default(),
            None,
            answer,
            on_piece,
        )
        .await
}

/// The history's record of the run `id`.
async fn recorded_run(library: &Library, id: i64) -> pagetree::history::RunRecord {
    library
        .catalog()
        .run(id)
        .await
        .expect("history")
        .expect("recorded")
}

/// [`ask`], which must fail within bounded retries and be recorded as a failed run.
async fn ask_fails_in_bounded_time(library: &Library) -> pagetree::Error {
    let started = std::time::Instant::now();
    let err = ask(library, "turbofan?")
        .await
        .expect_err("the model fails");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "bounded retries"
    );
    let runs = library.catalog().runs(10, None).await.expect("history");
    assert_eq!(runs[0].status, "failed");
    err
}

#[tokio::test]
async fn a_real_model_streams_an_answer_that_is_recorded() {
    let server = llama::LlamaServer::start();
    let dir = tempfile::tempdir().expect("temp dir");
    let library = library(dir.path(), Some(server.base_url.clone())).await;
    let mut pieces = Vec::new();
    let outcome = ask_streaming(
        &library,
        "How does a turbofan produce thrust?",
        AnswerSettings {
            temperature: 0.1,
            max_tokens: 120,
        },
        &mut |piece: &str| pieces.push(piece.to_string()),
    )
    .await
    .expect("answers");
    assert!(pieces.len() > 3, "the answer arrived in pieces: {pieces:?}");
    assert!(outcome
        .first_token_ms
        .is_some_and(|ms| ms <= outcome.total_ms));
    assert!(outcome.model.is_some());
    let run = recorded_run(&library, outcome.run_id).await;
    let answer = run.answer.expect("the answer is in history");
    assert_eq!(answer.text, outcome.answer.text);
    assert_eq!(run.status, "ok");
    assert!(run.pages.as_array().is_some_and(|p| !p.is_empty()));

    // A follow-up continues the conversation.
    let follow_up = library
        .ask(
            "And what is a harpsichord?",
            &STRATEGY,
            &SearchSettings::default(),
            Some(outcome.conversation_id),
            AnswerSettings {
                temperature: 0.1,
                max_tokens: 60,
            },
            &mut |_: &str| {},
        )
        .await
        .expect("answers the follow-up");
    assert_eq!(follow_up.conversation_id, outcome.conversation_id);
    let turns = library
        .catalog()
        .conversation_turns(outcome.conversation_id)
        .await
        .expect("turns");
    assert_eq!(turns.len(), 2);
}

#[tokio::test]
async fn citations_of_pages_outside_the_context_are_removed_and_reported() {
    let pieces = vec![
        "A turbofan moves a large mass of air ".to_string(),
        "[multipage p.5]. ".to_string(),
        "It was invented in 1066 [multipage p.3] ".to_string(),
        "and [NETFLIX_2015_10K p.12].".to_string(),
    ];
    let address = openai_double::start(Behaviour::Stream(pieces)).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let library = library(dir.path(), Some(format!("http://{address}/v1"))).await;
    let outcome = library
        .ask(
            "How does a turbofan produce thrust?",
            &Strategy::Flat { k: 1 },
            &SearchSettings::default(),
            None,
            AnswerSettings::default(),
            &mut |_: &str| {},
        )
        .await
        .expect("answers");
    let pages: Vec<u32> = outcome
        .search
        .context
        .pages
        .iter()
        .map(|p| p.page)
        .collect();
    assert_eq!(pages, vec![5], "the context is page 5 only");
    assert_eq!(
        outcome.answer.removed,
        vec!["[multipage p.3]", "[NETFLIX_2015_10K p.12]"]
    );
    assert!(outcome.answer.text.contains("[multipage p.5]"));
    assert!(!outcome.answer.text.contains("p.3") && !outcome.answer.text.contains("NETFLIX"));
    assert!(outcome
        .notes
        .iter()
        .any(|n| n.contains("removed citations")));
    let run = recorded_run(&library, outcome.run_id).await;
    assert_eq!(run.answer.expect("answer").removed.len(), 2);
}

#[tokio::test]
async fn an_answer_without_citations_is_flagged() {
    let address =
        openai_double::start(Behaviour::Stream(vec!["Turbofans are great.".into()])).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let library = library(dir.path(), Some(format!("http://{address}/v1"))).await;
    let outcome = ask(&library, "turbofan?").await.expect("answers");
    assert!(outcome.answer.uncited);
    assert!(outcome.notes.iter().any(|n| n.contains("cites no page")));
}

#[tokio::test]
async fn a_dropped_stream_ends_in_a_clear_error_and_a_failed_history_entry() {
    let address = openai_double::start(Behaviour::StreamThenDrop(vec![
        "A turbofan ".into(),
        "moves air".into(),
    ]))
    .await;
    let dir = tempfile::tempdir().expect("temp dir");
    let library = library(dir.path(), Some(format!("http://{address}/v1"))).await;
    let err = ask(&library, "turbofan?")
        .await
        .expect_err("the stream broke");
    assert!(err.to_string().contains("broke off"), "{err}");
    let runs = library.catalog().runs(10, None).await.expect("history");
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].status, "failed");
    assert!(runs[0].error.as_deref().unwrap_or("").contains("broke off"));
}

#[tokio::test]
async fn a_refusal_is_reported_in_words_and_recorded_as_failed() {
    let address = openai_double::start(Behaviour::Refusal("I can't help with that.".into())).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let library = library(dir.path(), Some(format!("http://{address}/v1"))).await;
    let err = ask(&library, "turbofan?").await.expect_err("refused");
    assert!(
        err.to_string()
            .contains("the model refused to answer: I can't help with that."),
        "{err}"
    );
    let runs = library.catalog().runs(10, None).await.expect("history");
    assert_eq!(runs[0].status, "failed");
}

#[tokio::test]
async fn a_silent_server_times_out_and_the_question_is_recorded_as_failed() {
    let address = openai_double::start(Behaviour::Hang).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let library = library_with(dir.path(), Some(format!("http://{address}/v1")), |llm| {
        llm.timeout = Duration::from_secs(1);
        // The default number of attempts: retrying a silent server stays bounded.
        llm.max_attempts = LlmSettings::new("", "").max_attempts;
    })
    .await;
    let err = ask_fails_in_bounded_time(&library).await;
    assert!(
        err.to_string().contains("did not answer within 1 s"),
        "{err}"
    );
}

#[tokio::test]
async fn rate_limits_and_server_errors_are_retried_then_reported() {
    let address = openai_double::start(Behaviour::Raw(
        429,
        r#"{"error":{"message":"slow down","type":"rate_limit"}}"#.into(),
    ))
    .await;
    let dir = tempfile::tempdir().expect("temp dir");
    let library = library(dir.path(), Some(format!("http://{address}/v1"))).await;
    let err = ask_fails_in_bounded_time(&library).await;
    assert!(err.to_string().contains("slow down"), "{err}");
}

#[tokio::test]
async fn without_a_model_the_answer_quotes_the_cited_pages() {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = library(dir.path(), None).await;
    let mut streamed = String::new();
    let outcome = ask_streaming(
        &library,
        "How does a turbofan produce thrust?",
        AnswerSettings::default(),
        &mut |p: &str| streamed.push_str(p),
    )
    .await
    .expect("answers offline");
    assert!(outcome.model.is_none());
    assert!(outcome
        .answer
        .text
        .starts_with("No language model is configured"));
    assert!(
        outcome.answer.text.contains("[multipage p.5]"),
        "{}",
        outcome.answer.text
    );
    assert_eq!(streamed, outcome.answer.text);
    assert!(!outcome.answer.uncited);
    // Each quote comes with its page and where it is on the page.
    assert!(
        (2..=3).contains(&outcome.passages.len()),
        "{:?}",
        outcome.passages
    );
    let best = &outcome.passages[0];
    assert_eq!((best.document.as_str(), best.page), ("multipage", 5));
    assert!(outcome.answer.text.contains(&best.quote));
    let boxes = best.boxes.as_ref().expect("the quote's boxes");
    assert!(!boxes.rects.is_empty());
    assert!(boxes.rects.iter().all(|r| r.x >= 0.0
        && r.y >= 0.0
        && r.x + r.width <= boxes.page_width
        && r.y + r.height <= boxes.page_height));
    assert!(
        outcome.numbers.is_none(),
        "an extractive answer only quotes"
    );
}

#[tokio::test]
async fn a_password_in_the_llm_url_is_shown_nowhere() {
    let port = free_port();
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("http://alice:s3cret-pw@127.0.0.1:{port}/v1");
    let library = library(dir.path(), Some(url)).await;
    let err = ask(&library, "turbofan?")
        .await
        .expect_err("nobody listens");
    let message = err.to_string();
    assert!(!message.contains("s3cret"), "{message}");
    assert!(!message.contains("alice"), "{message}");
    assert!(message.contains("http://***@127.0.0.1"), "{message}");
    let runs = library.catalog().full_runs(10).await.expect("history");
    assert_eq!(runs[0].status, "failed");
    let recorded = serde_json::to_string(&runs).expect("history as JSON");
    assert!(!recorded.contains("s3cret"), "{recorded}");
    let described = library
        .llm_settings()
        .map(|settings| settings.shown_url())
        .unwrap_or_default();
    assert_eq!(described, format!("http://***@127.0.0.1:{port}/v1"));
}

/// An answer straight from the model to an empty context, with no library around it.
async fn answer_from(
    address: std::net::SocketAddr,
    tune: impl FnOnce(&mut LlmSettings),
) -> Result<pagetree::chat::Answer, pagetree::chat::AnswerError> {
    let mut settings = LlmSettings::new(format!("http://{address}/v1"), "smollm2");
    tune(&mut settings);
    let client = pagetree::llm::LlmClient::new(settings).expect("settings");
    let context = pagetree::search::Context::default();
    let mut ignore = |_: &str| {};
    let answering = pagetree::chat::answer(
        &client,
        "turbofan?",
        &context,
        &[],
        AnswerSettings::default(),
        &mut ignore,
    );
    // Without the bounds these tests are about, an answer would never end.
    tokio::time::timeout(Duration::from_secs(20), answering)
        .await
        .expect("the answer ended")
}

/// More than any answer, far less than the 200 MB the doubles offer: what a client that
/// stops at its cap lets through, socket buffers included.
const READ_AT_MOST: usize = 64 * 1024 * 1024;

#[tokio::test]
async fn a_huge_error_body_is_read_only_as_far_as_its_message() {
    let (address, probe) =
        openai_double::start_probed(Behaviour::Huge(500, 200 * 1024 * 1024)).await;
    let err = answer_from(address, |_| {})
        .await
        .expect_err("a server error");
    let message = err.to_string();
    assert!(
        message.contains("HTTP 500"),
        "{}",
        message.get(..200).unwrap_or(&message)
    );
    assert!(
        message.len() < 2_000,
        "a message of {} bytes",
        message.len()
    );
    // Three attempts, each stopped at the part of the body kept for the message.
    assert!(
        probe.sent() < READ_AT_MOST,
        "{} bytes were read",
        probe.sent()
    );
}

#[tokio::test]
async fn an_endless_slow_stream_is_cut_short_at_the_answer_deadline() {
    let (address, probe) =
        openai_double::start_probed(Behaviour::SlowStream(Duration::from_millis(200))).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let library = library_with(dir.path(), Some(format!("http://{address}/v1")), |llm| {
        llm.answer_deadline = Duration::from_secs(1);
    })
    .await;
    let outcome = tokio::time::timeout(Duration::from_secs(20), ask(&library, "turbofan?"))
        .await
        .expect("the answer ended")
        .expect("what arrived is kept");
    assert!(
        outcome.answer.text.contains("and so on"),
        "{}",
        outcome.answer.text
    );
    assert!(
        outcome
            .notes
            .iter()
            .any(|n| n.contains("stopped after 1 s")),
        "{:?}",
        outcome.notes
    );
    assert!(
        probe.closed_within(Duration::from_secs(2)).await,
        "the stream is still being read after the answer ended"
    );
}

#[tokio::test]
async fn a_silent_start_past_the_answer_deadline_is_an_error() {
    let address = openai_double::start(Behaviour::Hang).await;
    let err = answer_from(address, |llm| llm.answer_deadline = Duration::from_secs(1))
        .await
        .expect_err("nothing arrived");
    assert!(err.to_string().contains("more than 1 s"), "{err}");
}

#[tokio::test]
async fn an_event_line_that_never_ends_is_refused_and_its_connection_closed() {
    let (address, probe) = openai_double::start_probed(Behaviour::EndlessLine).await;
    let err = answer_from(address, |_| {}).await.expect_err("no answer");
    assert!(
        err.to_string()
            .contains("one event of a stream larger than 1 MB"),
        "{err}"
    );
    assert!(
        probe.closed_within(Duration::from_secs(2)).await,
        "the line is still being read after the answer ended"
    );
    assert!(
        probe.sent() < READ_AT_MOST,
        "{} bytes were read",
        probe.sent()
    );
}

/// Log lines, as a subscriber writes them.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("log").extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Captured {
    type Writer = Captured;

    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

#[tokio::test]
async fn a_body_that_is_not_json_never_reaches_the_log() {
    let captured = Captured::default();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(captured.clone())
        .finish();
    // The test's runtime runs every task on this thread, the double's and the client's.
    let _logging = tracing::subscriber::set_default(subscriber);
    tracing::error!("the log is captured");
    let body = format!("{{\"oops\": \"{}", "SECRET-BODY-".repeat(10_000));

    // A first token, so that the garbage after it ends the answer with no retry.
    let token = serde_json::json!({
        "id": "double-1", "object": "chat.completion.chunk", "created": 0, "model": "double",
        "choices": [{"index": 0, "delta": {"content": "Turbofans"}, "finish_reason": null}]
    });
    let address =
        openai_double::start(Behaviour::Events(vec![token.to_string(), body.clone()])).await;
    let err = answer_from(address, |_| {}).await.expect_err("garbage");
    assert!(err.to_string().contains("not the JSON"), "{err}");
    assert!(!err.to_string().contains("SECRET-BODY"), "{err}");

    let address = openai_double::start(Behaviour::Raw(200, body)).await;
    let mut settings = LlmSettings::new(format!("http://{address}/v1"), "smollm2");
    settings.max_attempts = 1;
    let describer = pagetree::describe::LlmDescriber::new(settings).expect("settings");
    let err = describer.describe_page("x").await.expect_err("garbage");
    assert!(!err.to_string().contains("SECRET-BODY"), "{err}");

    let log = String::from_utf8_lossy(&captured.0.lock().expect("log")).into_owned();
    assert!(log.contains("the log is captured"), "{log}");
    assert!(!log.contains("SECRET-BODY"), "{} bytes of log", log.len());
}

#[tokio::test]
async fn a_figure_on_none_of_the_cited_pages_is_marked_and_counted() {
    let pieces = vec![
        "A turbofan moves 1,600 tonnes of air a minute ".to_string(),
        "[multipage p.5].".to_string(),
    ];
    let address = openai_double::start(Behaviour::Stream(pieces)).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let library = library(dir.path(), Some(format!("http://{address}/v1"))).await;
    let outcome = library
        .ask(
            "How does a turbofan produce thrust?",
            &Strategy::Flat { k: 1 },
            &SearchSettings::default(),
            None,
            AnswerSettings::default(),
            &mut |_: &str| {},
        )
        .await
        .expect("answers");
    let numbers = outcome
        .numbers
        .as_ref()
        .expect("a written answer's figures are checked");
    assert_eq!(
        (numbers.checked, numbers.missing.clone()),
        (1, vec!["1,600".to_string()])
    );
    assert!(
        outcome.answer.text.contains("1,600 [?] tonnes"),
        "{}",
        outcome.answer.text
    );
    assert!(outcome
        .notes
        .iter()
        .any(|n| n.contains("on none of the pages cited")));
    let run = recorded_run(&library, outcome.run_id).await;
    assert!(run.answer.expect("answer").text.contains("1,600 [?]"));
}
