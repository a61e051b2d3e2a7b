//! Proxy-pointer against a real OpenAI-compatible server (llama-server + SmolLM2) and
//! against test doubles that answer with chosen pointers or with garbage.

mod common;

use common::openai_double::{self, Behaviour};
use common::{fixture, llama};
use pagetree::ingest::NoProgress;
use pagetree::library::{Library, OpenOptions};
use pagetree::llm::LlmSettings;
use pagetree::search::{SearchSettings, Strategy};

async fn library_with_llm(dir: &std::path::Path, base_url: &str) -> Library {
    let mut llm = LlmSettings::new(base_url, "smollm2");
    llm.max_attempts = 2;
    let options = OpenOptions {
        llm: Some(llm),
        ..OpenOptions::default()
    };
    let (library, _) = Library::open(dir, options).await.expect("opens");
    library
}

async fn ingest_offline(dir: &std::path::Path) {
    let (library, _) = Library::open(dir, OpenOptions::default())
        .await
        .expect("opens");
    for file in ["multipage.pdf", "spanish.pdf"] {
        library
            .ingest(&fixture(file), &NoProgress)
            .await
            .expect("ingests");
    }
}

const STRATEGY: Strategy = Strategy::ProxyPointer { proxies: 6 };

#[tokio::test]
async fn pointers_are_validated_and_the_pages_read_from_the_originals() {
    let dir = tempfile::tempdir().expect("temp dir");
    ingest_offline(dir.path()).await;
    let answer = serde_json::json!({"pointers": [
        {"document": "multipage", "page_start": 5, "page_end": 5, "confidence": 0.9},
        {"document": "NO_SUCH_FILING_2030", "page_start": 1, "page_end": 2, "confidence": 0.95},
        {"document": "spanish", "page_start": 1, "page_end": 1, "confidence": 0.1}
    ]});
    let address = openai_double::start(Behaviour::Content(answer.to_string())).await;
    let library = library_with_llm(dir.path(), &format!("http://{address}/v1")).await;
    let result = library
        .search(
            "How does a turbofan produce thrust?",
            &STRATEGY,
            &SearchSettings::default(),
        )
        .await
        .expect("searches");
    let pages: Vec<(String, u32)> = result
        .context
        .pages
        .iter()
        .map(|p| (p.file_name.clone(), p.page))
        .collect();
    assert_eq!(pages, vec![("multipage.pdf".to_string(), 5)]);
    assert!(result.context.text.contains("turbofan"));
    assert!(
        result
            .stopped_because
            .contains("no document called `NO_SUCH_FILING_2030`"),
        "{}",
        result.stopped_because
    );
    assert!(
        result.stopped_because.contains("under 0.3"),
        "{}",
        result.stopped_because
    );
    assert_eq!(result.trace.len(), 2);
    assert!(result.trace[0].candidates.len() <= 6);
}

#[tokio::test]
async fn a_malformed_answer_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    ingest_offline(dir.path()).await;
    let address =
        openai_double::start(Behaviour::Content("pointers: page 5 probably".into())).await;
    let library = library_with_llm(dir.path(), &format!("http://{address}/v1")).await;
    let err = library
        .search("turbofan", &STRATEGY, &SearchSettings::default())
        .await
        .expect_err("garbage");
    assert!(
        err.to_string().contains("the language model failed"),
        "{err}"
    );
    assert!(err.to_string().contains("not the JSON asked for"), "{err}");
}

#[tokio::test]
async fn a_real_model_answers_in_the_schema() {
    let dir = tempfile::tempdir().expect("temp dir");
    ingest_offline(dir.path()).await;
    let server = llama::LlamaServer::start();
    let library = library_with_llm(dir.path(), &server.base_url).await;
    let result = library
        .search(
            "How does a turbofan produce thrust?",
            &STRATEGY,
            &SearchSettings::default(),
        )
        .await
        .expect("a schema-valid answer from the real model");
    // A 135M model points at whatever it likes; what must hold is that only real pages
    // of real documents come back.
    for page in &result.context.pages {
        assert!(["multipage.pdf", "spanish.pdf"].contains(&page.file_name.as_str()));
        assert!(page.page >= 1 && page.page <= 6);
    }
    assert_eq!(result.trace.len(), 2);
}
