//! Language models on this machine, with the real llama-server and the SmolLM2 model
//! file: a running server found on its port with its model, a model file served by
//! PageTree itself (and gone when dropped), clear errors for files that are no model,
//! and `pagetree --llm-gguf FILE ask`.

mod common;

use std::path::Path;
use std::time::Duration;

use common::{cli, ingest_fixture, llama, open_library, text};
use pagetree::llm::LlmClient;
use pagetree::local_llm::{
    detect_local_servers, LocalModelServer, LocalServerError, LocalServerKind, ServerOptions,
};

fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

#[tokio::test]
async fn a_running_llama_server_is_found_on_its_port_with_its_model() {
    let server = llama::LlamaServer::start();
    let port: u16 = server
        .base_url
        .trim_end_matches("/v1")
        .rsplit(':')
        .next()
        .and_then(|port| port.parse().ok())
        .expect("a port in the URL");
    let closed = free_port();
    // The only test of this binary that reads the variable.
    std::env::set_var(
        pagetree::local_llm::detect::PORTS_ENV,
        format!("{closed},{port}"),
    );
    let found = detect_local_servers().await.expect("the ports are valid");
    assert_eq!(found.len(), 1, "only the running server: {found:?}");
    let found = &found[0];
    assert_eq!(found.port, port);
    assert_eq!(found.kind, LocalServerKind::LlamaCpp);
    assert_eq!(found.base_url, server.base_url);
    assert_eq!(found.models, vec!["smollm2".to_string()]);

    // Its window, which answers are fitted to (4,096 tokens over two slots).
    let window = pagetree::local_llm::context_window(&server.base_url).await;
    assert!(
        window.is_some_and(|window| (2_048..=4_096).contains(&window)),
        "{window:?}"
    );
    let nothing =
        pagetree::local_llm::context_window(&format!("http://127.0.0.1:{closed}/v1")).await;
    assert_eq!(nothing, None);
}

#[tokio::test]
async fn a_model_file_is_served_answers_and_its_process_is_gone_after_drop() {
    let server = LocalModelServer::start(ServerOptions::new(llama::model()))
        .await
        .expect("llama-server serves the SmolLM2 file");
    let pid = server.pid();
    assert!(alive(pid), "llama-server runs as {pid}");
    assert_eq!(server.model_name(), "SmolLM2-135M-Instruct.Q4_1");
    assert!(server.base_url().starts_with("http://127.0.0.1:"));

    // Asked for 16,384 tokens, llama-server holds what SmolLM2 was trained with, and
    // answers are fitted to that.
    assert_eq!(server.context_tokens(), 8_192);
    let settings = server.llm_settings();
    assert_eq!(settings.context_tokens, Some(8_192));
    let client = LlmClient::new(settings).expect("a client");
    let models = client.model_names().await.expect("the model list");
    assert_eq!(models, vec![server.model_name().to_string()]);

    // A chat completion, a few tokens long.
    let answer: serde_json::Value = reqwest::Client::new()
        .post(format!("{}/chat/completions", server.base_url()))
        .json(&serde_json::json!({
            "model": server.model_name(),
            "messages": [{"role": "user", "content": "Say hello."}],
            "max_tokens": 8,
        }))
        .timeout(Duration::from_secs(180))
        .send()
        .await
        .expect("the server answers")
        .json()
        .await
        .expect("JSON");
    let content = answer["choices"][0]["message"]["content"]
        .as_str()
        .expect("a message");
    assert!(!content.trim().is_empty(), "{answer}");

    drop(server);
    assert!(
        !alive(pid),
        "llama-server {pid} outlived its LocalModelServer"
    );
}

#[tokio::test]
async fn a_missing_file_a_file_that_is_no_model_and_a_broken_model_are_named() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("nowhere.gguf");
    let err = LocalModelServer::start(ServerOptions::new(&missing))
        .await
        .unwrap_err();
    assert!(
        matches!(err, LocalServerError::ModelMissing { .. }),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains(&format!("{} does not exist", missing.display())),
        "{err}"
    );

    let pdf = common::fixture("multipage.pdf");
    let err = LocalModelServer::start(ServerOptions::new(&pdf))
        .await
        .unwrap_err();
    assert!(matches!(err, LocalServerError::NotGguf { .. }), "{err}");
    assert!(
        err.to_string().contains("is not a GGUF model file"),
        "{err}"
    );

    // A file that starts like one but holds no model: llama-server itself refuses it,
    // and its own words say why.
    let broken = dir.path().join("broken.gguf");
    let mut bytes = b"GGUF".to_vec();
    bytes.extend_from_slice(&[0xff; 64]);
    std::fs::write(&broken, bytes).expect("written");
    let err = LocalModelServer::start(ServerOptions {
        startup_timeout: Duration::from_secs(60),
        ..ServerOptions::new(&broken)
    })
    .await
    .unwrap_err();
    assert!(matches!(err, LocalServerError::Exited { .. }), "{err}");
    assert!(err.to_string().contains("stopped"), "{err}");
}

#[tokio::test]
async fn a_llama_server_that_is_not_there_is_named() {
    let dir = tempfile::tempdir().expect("temp dir");
    let err = LocalModelServer::start(ServerOptions {
        binary: Some(dir.path().join("llama-server")),
        ..ServerOptions::new(llama::model())
    })
    .await
    .unwrap_err();
    assert!(matches!(err, LocalServerError::Spawn { .. }), "{err}");
    assert!(
        err.to_string()
            .contains(&dir.path().join("llama-server").display().to_string()),
        "{err}"
    );
}

#[tokio::test]
async fn the_cli_answers_with_a_model_file_and_stops_its_server() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("library");
    {
        let library = open_library(&root).await;
        ingest_fixture(&library, "multipage.pdf").await;
    }
    let model = llama::model();
    let output = cli(
        &root,
        &[
            "--llm-gguf",
            model.to_str().expect("a UTF-8 path"),
            "ask",
            "How does a turbofan produce thrust?",
            "--max-tokens",
            "24",
            "--json",
        ],
    );
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let outcome: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("the answer as JSON");
    assert_eq!(outcome["model"], "SmolLM2-135M-Instruct.Q4_1", "{outcome}");
    assert!(
        outcome["answer"]["text"]
            .as_str()
            .is_some_and(|text| !text.trim().is_empty()),
        "{outcome}"
    );
    // The pages were fitted to the server's window: half of what the answer leaves.
    assert_eq!(
        outcome["search"]["settings"]["token_budget"],
        (8_192 - 24) / 2,
        "{outcome}"
    );
    let pid: u32 = stderr
        .split("llama-server (pid ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .and_then(|pid| pid.parse().ok())
        .unwrap_or_else(|| panic!("the server's pid is named: {stderr}"));
    assert!(!alive(pid), "llama-server {pid} outlived the command");

    let output = cli(
        &root,
        &["--llm-gguf", "/nowhere/model.gguf", "ask", "What is magma?"],
    );
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("the model file /nowhere/model.gguf does not exist"),
        "{}",
        text(&output.stderr)
    );
}
