//! Model settings and calls shared by the tests of the LLM describer and of chat.

use std::net::SocketAddr;
use std::time::Duration;

use pagetree::describe::LlmDescriber;
use pagetree::llm::{LlmFailure, LlmSettings};

/// Settings for the test model `smollm2` at `base_url`, with a generous timeout.
pub fn settings(base_url: &str) -> LlmSettings {
    let mut settings = LlmSettings::new(base_url, "smollm2");
    settings.timeout = Duration::from_secs(60);
    settings
}

/// [`settings`] for a test double listening on `address`, tried `attempts` times.
pub fn double(address: SocketAddr, attempts: u32) -> LlmSettings {
    let mut settings = settings(&format!("http://{address}/v1"));
    settings.max_attempts = attempts;
    settings
}

/// A local port that nothing listens on: taken, then freed.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

/// The error of describing one page with `settings`, which must fail.
pub async fn describe_error(settings: LlmSettings) -> LlmFailure {
    LlmDescriber::new(settings)
        .expect("settings")
        .describe_page("x")
        .await
        .expect_err("describing fails")
}
