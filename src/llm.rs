//! A client for any OpenAI-compatible chat endpoint: JSON-schema answers with bounded
//! retries and a timeout on every request. Describing pages, pointing at pages
//! (proxy-pointer) and answering questions all go through it.

use std::fmt;
use std::time::Duration;

use async_openai::config::OpenAIConfig;
use async_openai::types::chat::{
    ChatCompletionRequestSystemMessage, ChatCompletionRequestUserMessage,
    CreateChatCompletionRequestArgs, ResponseFormat, ResponseFormatJsonSchema,
};
use async_openai::Client;

/// An API key that never shows itself in logs or debug output.
#[derive(Clone, Default)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        Self(key.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_empty() {
            "ApiKey(none)"
        } else {
            "ApiKey(***)"
        })
    }
}

#[derive(Debug, Clone)]
pub struct LlmSettings {
    /// e.g. `http://127.0.0.1:8080/v1`
    pub base_url: String,
    pub model: String,
    pub api_key: ApiKey,
    pub timeout: Duration,
    pub max_attempts: u32,
    pub concurrency: usize,
    /// Page text beyond this is cut before it is sent, to fit small context windows.
    pub max_input_chars: usize,
    pub temperature: f32,
    /// Small models loop on repeated keywords inside a JSON schema; a frequency
    /// penalty stops them (0 turns it off).
    pub frequency_penalty: f32,
}

impl LlmSettings {
    /// The server's address as messages, logs and history show it: without a user or
    /// password.
    pub fn shown_url(&self) -> String {
        crate::redact::credentials(&self.base_url).into_owned()
    }

    /// What to warn about when these settings would send an API key over plain
    /// `http://` to another machine; nothing without a key or over https.
    pub fn key_warning(&self) -> Option<String> {
        (!self.api_key.expose().is_empty())
            .then(|| crate::redact::key_in_clear("LLM", &self.base_url))
            .flatten()
    }

    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            model: model.into(),
            api_key: ApiKey::default(),
            timeout: Duration::from_secs(60),
            max_attempts: 3,
            concurrency: 2,
            max_input_chars: 6_000,
            temperature: 0.1,
            frequency_penalty: 0.5,
        }
    }
}

/// Why one request to the model did not give a usable answer.
#[derive(Debug, thiserror::Error)]
pub enum LlmFailure {
    #[error("the language model server at {url} did not answer within {seconds} s")]
    Timeout { url: String, seconds: u64 },
    #[error("the language model server at {url} cannot be reached: {detail}")]
    Unreachable { url: String, detail: String },
    #[error("the language model server answered with an error: {0}")]
    Server(String),
    #[error("the language model's answer is not the JSON asked for: {0}")]
    Garbage(String),
}

#[derive(Debug, thiserror::Error)]
#[error("the language model settings are not usable: {0}")]
pub struct LlmConfigError(pub String);

/// The endpoint, with our retry and timeout policy.
pub struct LlmClient {
    client: Client<OpenAIConfig>,
    settings: LlmSettings,
}

impl LlmClient {
    pub fn new(settings: LlmSettings) -> Result<Self, LlmConfigError> {
        if !(settings.base_url.starts_with("http://") || settings.base_url.starts_with("https://"))
        {
            return Err(LlmConfigError(format!(
                "the LLM base URL `{}` must start with http:// or https://",
                settings.shown_url()
            )));
        }
        if let Some(warning) = settings.key_warning() {
            tracing::warn!("{warning}");
        }
        let http = reqwest::Client::builder()
            // A read timeout, not a total one: a streamed answer may take minutes, but
            // a server silent for this long has stopped.
            .read_timeout(settings.timeout)
            .connect_timeout(Duration::from_secs(5))
            .build()
            .map_err(|err| LlmConfigError(err.to_string()))?;
        let config = OpenAIConfig::new()
            .with_api_base(settings.base_url.trim_end_matches('/'))
            .with_api_key(settings.api_key.expose());
        // Retries are ours (bounded, for every kind of failure); the client's own
        // backoff would retry 429s for up to 15 minutes.
        let no_backoff = backoff::ExponentialBackoff {
            max_elapsed_time: Some(Duration::ZERO),
            ..Default::default()
        };
        let client = Client::with_config(config)
            .with_http_client(http)
            .with_backoff(no_backoff);
        Ok(Self { client, settings })
    }

    pub fn settings(&self) -> &LlmSettings {
        &self.settings
    }

    pub fn inner(&self) -> &Client<OpenAIConfig> {
        &self.client
    }

    /// The models the server offers (one request, no retries: for a connection test).
    pub async fn model_names(&self) -> Result<Vec<String>, LlmFailure> {
        let list = self
            .client
            .models()
            .list()
            .await
            .map_err(|err| self.classify(err))?;
        Ok(list.data.into_iter().map(|model| model.id).collect())
    }

    /// Asks for an answer that follows `schema` and returns its text once it parses as
    /// JSON. Timeouts, server errors and garbage are retried up to `max_attempts`; an
    /// unreachable server is not.
    pub async fn complete_json(
        &self,
        system: &str,
        user: &str,
        schema: &serde_json::Value,
        name: &str,
        max_tokens: u32,
    ) -> Result<String, LlmFailure> {
        let mut last = None;
        for attempt in 0..self.settings.max_attempts.max(1) {
            if attempt > 0 {
                tokio::time::sleep(Duration::from_millis(250 * 2u64.pow(attempt))).await;
            }
            match self
                .complete_once(system, user, schema, name, max_tokens)
                .await
            {
                Ok(content) => match serde_json::from_str::<serde_json::Value>(&content) {
                    Ok(_) => return Ok(content),
                    Err(err) => last = Some(LlmFailure::Garbage(err.to_string())),
                },
                Err(failure @ LlmFailure::Unreachable { .. }) => return Err(failure),
                Err(failure) => last = Some(failure),
            }
        }
        Err(last.unwrap_or_else(|| LlmFailure::Server("no attempt was made".into())))
    }

    async fn complete_once(
        &self,
        system: &str,
        user: &str,
        schema: &serde_json::Value,
        name: &str,
        max_tokens: u32,
    ) -> Result<String, LlmFailure> {
        let request = CreateChatCompletionRequestArgs::default()
            .model(self.settings.model.clone())
            .temperature(self.settings.temperature)
            .frequency_penalty(self.settings.frequency_penalty)
            .max_completion_tokens(max_tokens)
            .messages([
                ChatCompletionRequestSystemMessage::from(system).into(),
                ChatCompletionRequestUserMessage::from(user).into(),
            ])
            .response_format(ResponseFormat::JsonSchema {
                json_schema: ResponseFormatJsonSchema {
                    description: None,
                    name: name.to_string(),
                    schema: Some(schema.clone()),
                    strict: Some(true),
                },
            })
            .build()
            .map_err(|err| LlmFailure::Server(err.to_string()))?;
        let response = self
            .client
            .chat()
            .create(request)
            .await
            .map_err(|err| self.classify(err))?;
        response
            .choices
            .into_iter()
            .next()
            .and_then(|choice| choice.message.content)
            .ok_or_else(|| LlmFailure::Garbage("the answer had no content".into()))
    }

    /// Puts a client error into words a person understands.
    pub fn classify(&self, err: async_openai::error::OpenAIError) -> LlmFailure {
        use async_openai::error::OpenAIError;
        let url = self.settings.shown_url();
        let hidden = |text: String| crate::redact::credentials(&text).into_owned();
        match err {
            OpenAIError::Reqwest(inner) if inner.is_timeout() => LlmFailure::Timeout {
                url,
                seconds: self.settings.timeout.as_secs(),
            },
            OpenAIError::Reqwest(inner) if inner.is_connect() => LlmFailure::Unreachable {
                url,
                detail: hidden(root_cause(&inner)),
            },
            OpenAIError::Reqwest(inner) => LlmFailure::Server(hidden(root_cause(&inner))),
            OpenAIError::JSONDeserialize(err, _) => LlmFailure::Garbage(err.to_string()),
            other => LlmFailure::Server(hidden(other.to_string())),
        }
    }
}

pub fn cut_chars(text: &str, limit: usize) -> String {
    text.chars().take(limit).collect()
}

fn root_cause(err: &dyn std::error::Error) -> String {
    let mut cause = err;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_over_plain_http_to_another_machine_is_warned_about() {
        let mut settings = LlmSettings::new("http://llm.example:8080/v1", "m");
        assert_eq!(
            settings.key_warning(),
            None,
            "no key, nothing to warn about"
        );
        settings.api_key = ApiKey::new("sk-secret");
        let warning = settings.key_warning().expect("a warning");
        assert!(
            warning.contains("LLM API key") && warning.contains("https://"),
            "{warning}"
        );
        assert!(!warning.contains("sk-secret"), "{warning}");
        settings.base_url = "https://llm.example/v1".into();
        assert_eq!(settings.key_warning(), None);
        settings.base_url = "http://127.0.0.1:8080/v1".into();
        assert_eq!(
            settings.key_warning(),
            None,
            "loopback stays on this machine"
        );
    }

    #[test]
    fn api_key_never_prints() {
        let key = ApiKey::new("sk-secret-123");
        assert_eq!(format!("{key:?}"), "ApiKey(***)");
        let settings = LlmSettings {
            api_key: key,
            ..LlmSettings::new("http://x/v1", "m")
        };
        assert!(!format!("{settings:?}").contains("sk-secret"));
    }

    #[test]
    fn rejects_a_base_url_without_scheme() {
        assert!(LlmClient::new(LlmSettings::new("localhost:8080", "m")).is_err());
    }
}
