//! A client for any OpenAI-compatible chat endpoint: JSON-schema answers with bounded
//! retries and a timeout on every request. Describing pages, pointing at pages
//! (proxy-pointer) and answering questions all go through it.

pub mod health;
mod sse;

use std::collections::VecDeque;
use std::time::Duration;

use async_openai::types::chat::{
    ChatCompletionRequestSystemMessage, ChatCompletionRequestUserMessage,
    CreateChatCompletionRequest, CreateChatCompletionRequestArgs, CreateChatCompletionResponse,
    CreateChatCompletionStreamResponse, ResponseFormat, ResponseFormatJsonSchema,
};
use async_openai::types::models::ListModelResponse;
use serde::Serialize;

use crate::redact::Redactor;
use crate::secret::ApiKey;

/// What is read of an error reply's body, for its message; the rest is never read, so a
/// server cannot make us hold gigabytes to tell us it failed.
pub(crate) const ERROR_BODY_KEPT: usize = 64 * 1024;
/// What of the server's own words an error message shows.
const ERROR_MESSAGE_CHARS: usize = 500;
/// One server-sent event of a chat stream is a small JSON chunk; one longer than this is
/// a server that does not end its lines.
pub(crate) const MAX_EVENT_BYTES: usize = 1024 * 1024;

/// Seconds a model server may take over one answer, or stay silent within a streamed
/// one (see [`LlmSettings::timeout`]).
pub const DEFAULT_TIMEOUT_SECS: u64 = 60;

/// How long a server may take to show it is there (see [`LlmSettings::first_byte_timeout`]).
pub const FIRST_BYTE_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone)]
pub struct LlmSettings {
    /// e.g. `http://127.0.0.1:8080/v1`
    pub base_url: String,
    pub model: String,
    pub api_key: ApiKey,
    /// How long one answer may take to begin (a model on a CPU may write a whole page
    /// description before it sends a byte), and the longest silence within a streamed
    /// one.
    pub timeout: Duration,
    /// How long a server may take to show it is there: to accept the connection and,
    /// when a request has no answer yet after this long, to answer a request it can
    /// answer at once (its model list). A server that does not is not there, whatever
    /// `timeout` allows. At most `timeout`.
    pub first_byte_timeout: Duration,
    pub max_attempts: u32,
    pub concurrency: usize,
    /// Page text beyond this is cut before it is sent, to fit small context windows.
    pub max_input_chars: usize,
    pub temperature: f32,
    /// Small models loop on repeated keywords inside a JSON schema; a frequency
    /// penalty stops them (0 turns it off).
    pub frequency_penalty: f32,
    /// The most one answer may take from the question to its last token, retries
    /// included. `timeout` only bounds silence: a server that sends a token every few
    /// seconds forever would never meet it.
    pub answer_deadline: Duration,
    /// The most bytes read of one streamed answer; reading stops there and what arrived
    /// is kept as a cut-short answer. A server may ignore the token limit it is given.
    pub max_stream_bytes: usize,
    /// The most bytes read of one answer that is not streamed (descriptions, pointers,
    /// the model list); a larger one is an error, not something to hold in memory.
    pub max_response_bytes: usize,
    /// The tokens of context the server holds for one request, when known (a server
    /// PageTree started itself): an answer's pages are then cut to fit it.
    pub context_tokens: Option<usize>,
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
            timeout: Duration::from_secs(DEFAULT_TIMEOUT_SECS),
            first_byte_timeout: FIRST_BYTE_TIMEOUT,
            max_attempts: 3,
            concurrency: 2,
            max_input_chars: 6_000,
            temperature: 0.1,
            frequency_penalty: 0.5,
            // A small model on a CPU answers 700 tokens of a long context in a minute or
            // two; five is well beyond any honest answer.
            answer_deadline: Duration::from_secs(300),
            // A streamed token costs about 200 bytes of JSON; 16 MB is some 80,000
            // tokens, a hundred times the answer asked for.
            max_stream_bytes: 16 * 1024 * 1024,
            // A described page is a few hundred bytes of JSON.
            max_response_bytes: 4 * 1024 * 1024,
            context_tokens: None,
        }
    }
}

/// Why one request to the model did not give a usable answer.
#[derive(Debug, thiserror::Error)]
pub enum LlmFailure {
    #[error("the language model server at {url} did not answer within {seconds} s")]
    Timeout { url: String, seconds: u64 },
    /// Not there: no answer to the request nor to the model list, or an answer that
    /// never ends.
    #[error("the language model server at {url} did not answer within {seconds} s ({detail})")]
    Silent {
        url: String,
        seconds: u64,
        detail: &'static str,
    },
    #[error("the language model server at {url} cannot be reached: {detail}")]
    Unreachable { url: String, detail: String },
    #[error("the language model server answered with an error: {0}")]
    Server(String),
    #[error("the language model's answer is not the JSON asked for: {0}")]
    Garbage(String),
    #[error(
        "the language model server at {url} sent {what} larger than {limit}, which no chat \
         answer is; PageTree stopped reading it (is the URL that of an OpenAI-compatible API?)"
    )]
    TooLarge {
        url: String,
        what: &'static str,
        limit: String,
    },
    #[error("the language model took more than {seconds} s, the most one answer may take")]
    Deadline { seconds: u64 },
    #[error("the language model's streamed answer passed {limit}, the most read of one answer")]
    StreamCap { limit: String },
}

impl LlmFailure {
    /// Whether asking again could help: not when the server is absent, and not for what
    /// would only happen again or take as long again.
    pub(crate) fn worth_retrying(&self) -> bool {
        !matches!(
            self,
            Self::Unreachable { .. }
                | Self::Silent { .. }
                | Self::TooLarge { .. }
                | Self::Deadline { .. }
                | Self::StreamCap { .. }
        )
    }
}

#[derive(Debug, thiserror::Error)]
#[error("the language model settings are not usable: {0}")]
pub struct LlmConfigError(pub String);

/// The endpoint, with our retry, timeout and size policy. Requests are made here, not by
/// the OpenAI client library, which reads every body whole (error bodies too) and logs
/// bodies it cannot parse at ERROR; only its request and answer types are used.
pub struct LlmClient {
    http: reqwest::Client,
    settings: LlmSettings,
    /// Hides the key in what the server says back (a 401 may quote it).
    redactor: Redactor,
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
            // a server silent for this long has stopped. `answer_deadline` bounds the
            // whole.
            .read_timeout(settings.timeout)
            .connect_timeout(
                settings
                    .first_byte_timeout
                    .min(settings.timeout)
                    .min(Duration::from_secs(5)),
            )
            .build()
            .map_err(|err| LlmConfigError(err.to_string()))?;
        let redactor = Redactor::new([&settings.api_key]);
        Ok(Self {
            http,
            settings,
            redactor,
        })
    }

    pub fn settings(&self) -> &LlmSettings {
        &self.settings
    }

    /// The models the server offers (one request, no retries: for a connection test).
    pub async fn model_names(&self) -> Result<Vec<String>, LlmFailure> {
        self.list_models()
            .await
            .map_err(|failure| self.hide(failure))
    }

    async fn list_models(&self) -> Result<Vec<String>, LlmFailure> {
        let body = self
            .within_deadline(async {
                let response = self.send(self.http.get(self.url("/models"))).await?;
                self.read_whole(response).await
            })
            .await?;
        let list: ListModelResponse =
            serde_json::from_slice(&body).map_err(|err| LlmFailure::Garbage(err.to_string()))?;
        Ok(list.data.into_iter().map(|model| model.id).collect())
    }

    /// Asks for an answer that follows `schema` and returns its text once it parses as
    /// JSON. Server errors and garbage are retried up to `max_attempts`, all within
    /// `answer_deadline`; a server that does not answer, cannot be reached or sends an
    /// oversized answer is not.
    pub(crate) async fn complete_json(
        &self,
        system: &str,
        user: &str,
        schema: &serde_json::Value,
        name: &str,
        max_tokens: u32,
    ) -> Result<String, LlmFailure> {
        self.complete_json_retrying(system, user, schema, name, max_tokens)
            .await
            .map_err(|failure| self.hide(failure))
    }

    async fn complete_json_retrying(
        &self,
        system: &str,
        user: &str,
        schema: &serde_json::Value,
        name: &str,
        max_tokens: u32,
    ) -> Result<String, LlmFailure> {
        self.within_deadline(async {
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
                    Err(failure) if !failure.worth_retrying() => return Err(failure),
                    Err(failure) => last = Some(failure),
                }
            }
            Err(last.unwrap_or_else(|| LlmFailure::Server("no attempt was made".into())))
        })
        .await
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
        let response = self.post("/chat/completions", &request).await?;
        let body = self.read_whole(response).await?;
        // The parse error says where the body went wrong, never what it holds.
        let response: CreateChatCompletionResponse =
            serde_json::from_slice(&body).map_err(|err| LlmFailure::Garbage(err.to_string()))?;
        response
            .choices
            .into_iter()
            .next()
            .and_then(|choice| choice.message.content)
            .ok_or_else(|| LlmFailure::Garbage("the answer had no content".into()))
    }

    /// Starts a streamed chat answer. The stream reads the connection only while it is
    /// polled, in the caller's task: dropping it closes the connection, so an answer
    /// that ends for any reason leaves nothing reading behind it.
    pub(crate) async fn chat_stream(
        &self,
        request: &CreateChatCompletionRequest,
    ) -> Result<ChatStream<'_>, LlmFailure> {
        let mut request = request.clone();
        request.stream = Some(true);
        let response = self
            .post("/chat/completions", &request)
            .await
            .map_err(|failure| self.hide(failure))?;
        Ok(ChatStream {
            client: self,
            response,
            reader: sse::EventReader::new(MAX_EVENT_BYTES),
            events: VecDeque::new(),
            received: 0,
            ended: false,
        })
    }

    /// `future`, or [`LlmFailure::Deadline`] once `answer_deadline` has passed.
    async fn within_deadline<T>(
        &self,
        future: impl std::future::Future<Output = Result<T, LlmFailure>>,
    ) -> Result<T, LlmFailure> {
        tokio::time::timeout(self.settings.answer_deadline, future)
            .await
            .unwrap_or_else(|_| Err(self.deadline_failure()))
    }

    /// `failure` with the key and any token-shaped word in the server's words hidden.
    pub(crate) fn hide(&self, failure: LlmFailure) -> LlmFailure {
        let scrub = |text: String| self.redactor.scrub(&text).into_owned();
        match failure {
            LlmFailure::Unreachable { url, detail } => LlmFailure::Unreachable {
                url,
                detail: scrub(detail),
            },
            LlmFailure::Server(message) => LlmFailure::Server(scrub(message)),
            LlmFailure::Garbage(message) => LlmFailure::Garbage(scrub(message)),
            other => other,
        }
    }

    /// Text the server sent, with the key and token-shaped words hidden.
    pub(crate) fn scrub(&self, text: &str) -> String {
        self.redactor.scrub(text).into_owned()
    }

    pub(crate) fn deadline_failure(&self) -> LlmFailure {
        LlmFailure::Deadline {
            seconds: self.settings.answer_deadline.as_secs(),
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.settings.base_url.trim_end_matches('/'))
    }

    async fn post(
        &self,
        path: &str,
        body: &impl Serialize,
    ) -> Result<reqwest::Response, LlmFailure> {
        self.send(self.http.post(self.url(path)).json(body)).await
    }

    /// Sends a request with the key, and turns an error status into a failure that
    /// quotes at most [`ERROR_BODY_KEPT`] of the server's reply.
    async fn send(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<reqwest::Response, LlmFailure> {
        let key = self.settings.api_key.expose();
        let request = if key.is_empty() {
            request
        } else {
            request.bearer_auth(key)
        };
        // The read timeout does not cover the wait for the first byte of a server that
        // accepted the connection and says nothing, so that wait has bounds of its own.
        let sending = request.send();
        tokio::pin!(sending);
        let first_byte = self.first_byte();
        let sent = match tokio::time::timeout(first_byte, &mut sending).await {
            Ok(sent) => sent,
            Err(_) => {
                if !self.answers_at_all().await {
                    return Err(self.silent(first_byte, "nor to a request for its model list"));
                }
                let rest = self.settings.timeout.saturating_sub(first_byte);
                tokio::time::timeout(rest, sending)
                    .await
                    .map_err(|_| LlmFailure::Timeout {
                        url: self.settings.shown_url(),
                        seconds: self.settings.timeout.as_secs(),
                    })?
            }
        };
        let response = sent.map_err(|err| self.classify(err))?;
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        // The status says what failed even when its body cannot be read.
        let body = match self.read_capped(response, ERROR_BODY_KEPT).await {
            Ok((body, _)) => body,
            Err(_) => Vec::new(),
        };
        Err(LlmFailure::Server(format!(
            "HTTP {status}: {}",
            error_message(&body)
        )))
    }

    /// A whole body of at most `max_response_bytes`; a larger one is an error. An answer
    /// that is not streamed is sent at once when it is ready, so one still arriving
    /// after the first-byte timeout is a server that streams without end.
    async fn read_whole(&self, response: reqwest::Response) -> Result<Vec<u8>, LlmFailure> {
        let limit = self.settings.max_response_bytes;
        let first_byte = self.first_byte();
        let read = tokio::time::timeout(first_byte, self.read_capped(response, limit))
            .await
            .map_err(|_| self.silent(first_byte, "its answer kept coming without an end"))?;
        match read? {
            (body, false) => Ok(body),
            (_, true) => Err(self.too_large("an answer", limit)),
        }
    }

    /// At most `limit` bytes of a body, and whether there was more. The rest is left
    /// unread: dropping the response closes the connection.
    async fn read_capped(
        &self,
        mut response: reqwest::Response,
        limit: usize,
    ) -> Result<(Vec<u8>, bool), LlmFailure> {
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|err| self.classify(err))? {
            let room = limit - body.len();
            if chunk.len() > room {
                body.extend_from_slice(&chunk[..room]);
                return Ok((body, true));
            }
            body.extend_from_slice(&chunk);
        }
        Ok((body, false))
    }

    fn too_large(&self, what: &'static str, limit: usize) -> LlmFailure {
        LlmFailure::TooLarge {
            url: self.settings.shown_url(),
            what,
            limit: size_in_words(limit),
        }
    }

    fn first_byte(&self) -> Duration {
        self.settings.first_byte_timeout.min(self.settings.timeout)
    }

    /// Whether the server answers a request it can answer at once (any status will do):
    /// one busy writing an answer still does, one that is stuck or not a server does not.
    async fn answers_at_all(&self) -> bool {
        let key = self.settings.api_key.expose();
        let probe = self.http.get(self.url("/models"));
        let probe = if key.is_empty() {
            probe
        } else {
            probe.bearer_auth(key)
        };
        matches!(
            tokio::time::timeout(self.first_byte(), probe.send()).await,
            Ok(Ok(_))
        )
    }

    fn silent(&self, waited: Duration, detail: &'static str) -> LlmFailure {
        LlmFailure::Silent {
            url: self.settings.shown_url(),
            seconds: waited.as_secs().max(1),
            detail,
        }
    }

    /// Puts a transport error into words a person understands.
    fn classify(&self, err: reqwest::Error) -> LlmFailure {
        let url = self.settings.shown_url();
        let hidden = |text: String| crate::redact::credentials(&text).into_owned();
        if err.is_timeout() {
            LlmFailure::Timeout {
                url,
                seconds: self.settings.timeout.as_secs(),
            }
        } else if err.is_connect() {
            LlmFailure::Unreachable {
                url,
                detail: hidden(root_cause(&err)),
            }
        } else {
            LlmFailure::Server(hidden(root_cause(&err)))
        }
    }
}

/// The chunks of a streamed chat answer, read with bounds: at most `max_stream_bytes`
/// in all and [`MAX_EVENT_BYTES`] for one event.
pub struct ChatStream<'a> {
    client: &'a LlmClient,
    response: reqwest::Response,
    reader: sse::EventReader,
    events: VecDeque<Vec<u8>>,
    received: usize,
    ended: bool,
}

impl ChatStream<'_> {
    /// The next chunk; None once the server said `[DONE]` or closed the stream. After an
    /// error nothing more is read.
    pub async fn next(&mut self) -> Option<Result<CreateChatCompletionStreamResponse, LlmFailure>> {
        loop {
            if let Some(event) = self.events.pop_front() {
                if event == b"[DONE]" {
                    self.ended = true;
                    return None;
                }
                return Some(parse_chunk(&event).map_err(|failure| self.client.hide(failure)));
            }
            if self.ended {
                return None;
            }
            let failure = match self.response.chunk().await {
                Ok(Some(bytes)) => {
                    self.received += bytes.len();
                    let limit = self.client.settings.max_stream_bytes;
                    if self.received > limit {
                        LlmFailure::StreamCap {
                            limit: size_in_words(limit),
                        }
                    } else {
                        let mut events = Vec::new();
                        match self.reader.push(&bytes, &mut events) {
                            Ok(()) => {
                                self.events.extend(events);
                                continue;
                            }
                            Err(sse::EventTooLong) => self
                                .client
                                .too_large("one event of a stream", MAX_EVENT_BYTES),
                        }
                    }
                }
                Ok(None) => {
                    self.ended = true;
                    continue;
                }
                Err(err) => self.client.classify(err),
            };
            self.ended = true;
            self.events.clear();
            return Some(Err(self.client.hide(failure)));
        }
    }
}

/// A stream chunk, or the error a server sent in the stream's place.
fn parse_chunk(event: &[u8]) -> Result<CreateChatCompletionStreamResponse, LlmFailure> {
    serde_json::from_slice(event).map_err(|err| {
        match serde_json::from_slice::<serde_json::Value>(event)
            .ok()
            .and_then(|value| value.get("error").map(|_| error_message(event)))
        {
            Some(message) => LlmFailure::Server(message),
            // Where the chunk went wrong, never what it holds.
            None => LlmFailure::Garbage(err.to_string()),
        }
    })
}

/// The server's own words from an error body: `error.message` when it is OpenAI's JSON,
/// else the start of the text.
fn error_message(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let message = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|value| {
            let error = value.get("error")?;
            error
                .get("message")
                .and_then(|m| m.as_str())
                .or_else(|| error.as_str())
                .map(String::from)
        })
        .unwrap_or_else(|| text.trim().to_string());
    let shown = cut_chars(&message, ERROR_MESSAGE_CHARS);
    let shown = if shown.len() < message.len() {
        format!("{shown}…")
    } else {
        shown
    };
    crate::redact::credentials(&shown).into_owned()
}

/// A size as a person reads it: `64 KB`, `4 MB`.
fn size_in_words(bytes: usize) -> String {
    const KB: usize = 1024;
    const MB: usize = 1024 * KB;
    if bytes >= MB && bytes.is_multiple_of(MB) {
        format!("{} MB", bytes / MB)
    } else if bytes >= MB {
        format!("{:.1} MB", bytes as f64 / MB as f64)
    } else if bytes >= KB {
        format!("{} KB", bytes / KB)
    } else {
        format!("{bytes} bytes")
    }
}

pub(crate) fn cut_chars(text: &str, limit: usize) -> String {
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
    fn an_error_message_is_the_servers_words_cut_to_a_readable_length() {
        assert_eq!(
            error_message(br#"{"error":{"message":"slow down","type":"rate_limit"}}"#),
            "slow down"
        );
        assert_eq!(
            error_message(br#"{"error":"model not found"}"#),
            "model not found"
        );
        assert_eq!(error_message(b"  Bad Gateway\n"), "Bad Gateway");
        let huge = vec![b'x'; ERROR_BODY_KEPT];
        let shown = error_message(&huge);
        assert_eq!(shown.chars().count(), ERROR_MESSAGE_CHARS + 1, "{shown}");
        assert!(shown.ends_with('…'));
        assert_eq!(
            error_message(b"upstream http://bob:pw@proxy:3128 refused"),
            "upstream http://***@proxy:3128 refused"
        );
    }

    #[test]
    fn an_error_in_a_stream_is_the_servers_and_garbage_is_not_quoted() {
        let failure = parse_chunk(br#"{"error":{"message":"context too long"}}"#).unwrap_err();
        assert!(matches!(&failure, LlmFailure::Server(m) if m == "context too long"));
        let failure = parse_chunk(b"{\"secret-body\": [1, 2").unwrap_err();
        assert!(matches!(failure, LlmFailure::Garbage(_)));
        assert!(!failure.to_string().contains("secret-body"), "{failure}");
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(size_in_words(64 * 1024), "64 KB");
        assert_eq!(size_in_words(4 * 1024 * 1024), "4 MB");
        assert_eq!(size_in_words(1536 * 1024), "1.5 MB");
        assert_eq!(size_in_words(10), "10 bytes");
    }

    #[test]
    fn size_and_deadline_failures_are_not_retried() {
        assert!(!LlmFailure::Deadline { seconds: 1 }.worth_retrying());
        assert!(!LlmFailure::StreamCap {
            limit: "1 MB".into()
        }
        .worth_retrying());
        assert!(LlmFailure::Server("HTTP 503".into()).worth_retrying());
    }

    #[test]
    fn rejects_a_base_url_without_scheme() {
        assert!(LlmClient::new(LlmSettings::new("localhost:8080", "m")).is_err());
    }
}
