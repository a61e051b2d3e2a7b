//! The app's LLM: settings from the library and the key store, and the connection test.

use std::time::{Duration, Instant};

use pagetree::describe::LlmSettings;
use pagetree::llm::LlmClient;
use pagetree::secret::ApiKey;
use pagetree::settings::LibrarySettings;
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

/// The language model a library's settings name, with the answer deadline saved there:
/// what the app's chat and proxy-pointer use.
pub fn for_library(settings: &LibrarySettings, api_key: Option<String>) -> Option<LlmSettings> {
    let mut llm = settings_for(
        settings.llm_base_url.as_ref(),
        settings.llm_model.as_ref(),
        api_key,
    )?;
    llm.answer_deadline = settings.answer_deadline();
    Some(llm)
}

/// Whether the stored key may go with a connection test to `url`: only to the server it
/// was saved for. The web view names the URL, and a page that could pick any URL could
/// otherwise have the keyring's key sent wherever it liked.
pub fn may_send_stored_key(url: Option<&str>, saved: Option<&str>) -> bool {
    let same = |text: &str| text.trim().trim_end_matches('/').to_string();
    match (url, saved) {
        (Some(url), Some(saved)) => !same(url).is_empty() && same(url) == same(saved),
        _ => false,
    }
}

#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
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
    let url = settings.shown_url();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_s_answer_deadline_goes_with_its_model() {
        let settings = LibrarySettings {
            llm_base_url: Some("http://127.0.0.1:8080/v1".into()),
            llm_model: Some("smol".into()),
            llm_answer_deadline_secs: 42,
            ..LibrarySettings::default()
        };
        let llm = for_library(&settings, None).expect("a model");
        assert_eq!(llm.answer_deadline, Duration::from_secs(42));
        assert_eq!(llm.model, "smol");
        assert!(for_library(&LibrarySettings::default(), None).is_none());
    }

    #[test]
    fn the_stored_key_goes_only_to_the_saved_server() {
        let saved = Some("http://127.0.0.1:8080/v1");
        assert!(may_send_stored_key(
            Some("http://127.0.0.1:8080/v1/ "),
            saved
        ));
        assert!(!may_send_stored_key(
            Some("https://elsewhere.example/v1"),
            saved
        ));
        assert!(!may_send_stored_key(Some("http://127.0.0.1:8080/v1"), None));
        assert!(!may_send_stored_key(None, saved));
        assert!(!may_send_stored_key(Some(" "), Some("")));
    }
}
