//! The app's LLM: settings from the library and the key store, and the connection test.

use std::time::{Duration, Instant};

use pagetree::describe::{ApiKey, LlmSettings};
use pagetree::llm::LlmClient;
use serde::Serialize;

/// How long "Test connection" waits for the server.
const TEST_TIMEOUT: Duration = Duration::from_secs(10);

pub fn settings_for(
    url: Option<&String>,
    model: Option<&String>,
    api_key: Option<String>,
) -> Option<LlmSettings> {
    let url = url.map(|u| u.trim()).filter(|u| !u.is_empty())?;
    let model = model.map(|m| m.trim()).filter(|m| !m.is_empty())?;
    let mut settings = LlmSettings::new(url, model);
    settings.api_key = ApiKey::new(api_key.unwrap_or_default());
    Some(settings)
}

#[derive(Debug, Serialize)]
pub struct ConnectionTest {
    pub ok: bool,
    pub message: String,
    pub latency_ms: Option<f64>,
}

/// Asks the server for its models, and checks that ours is among them.
pub async fn test_connection(settings: LlmSettings) -> ConnectionTest {
    let failed = |message: String| ConnectionTest {
        ok: false,
        message,
        latency_ms: None,
    };
    let url = settings.base_url.clone();
    let model = settings.model.clone();
    let client = match LlmClient::new(settings) {
        Ok(client) => client,
        Err(err) => return failed(err.0),
    };
    let started = Instant::now();
    let listed = tokio::time::timeout(TEST_TIMEOUT, client.model_names()).await;
    let latency_ms = Some(started.elapsed().as_secs_f64() * 1e3);
    match listed {
        Err(_) => failed(format!(
            "no answer from {url} within {} s; is the server running?",
            TEST_TIMEOUT.as_secs()
        )),
        Ok(Err(err)) => failed(err.to_string()),
        Ok(Ok(names)) => {
            // Single-model servers (llama-server) answer any model name.
            if names.iter().any(|name| name == &model) || names.len() == 1 {
                ConnectionTest {
                    ok: true,
                    message: format!("connected to {url}; model `{model}` is available"),
                    latency_ms,
                }
            } else {
                ConnectionTest {
                    ok: false,
                    message: format!(
                        "connected to {url}, but it does not offer `{model}` (it offers: {})",
                        if names.is_empty() {
                            "nothing".to_string()
                        } else {
                            names.join(", ")
                        }
                    ),
                    latency_ms,
                }
            }
        }
    }
}
