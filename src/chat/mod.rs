//! Answers with page citations: the context from a strategy, a prompt that requires a
//! citation for every claim, a streamed answer, and validation of what it cites.

pub mod ask;
pub mod asked;
pub mod citations;
pub mod extractive;
pub mod layout;
pub mod numbers;
mod ocr_layout;
pub mod passages;
pub mod quotes;
pub mod ratios;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use async_openai::types::chat::{
    ChatCompletionRequestAssistantMessage, ChatCompletionRequestMessage,
    ChatCompletionRequestSystemMessage, ChatCompletionRequestUserMessage,
    CreateChatCompletionRequestArgs, FinishReason,
};
use serde::Serialize;

use crate::llm::{LlmClient, LlmFailure};
use crate::search::Context;
use citations::{check, CheckedAnswer};

#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    #[error(transparent)]
    Llm(#[from] LlmFailure),
    #[error("the answer stream broke off after {received} characters: {detail}")]
    StreamDropped { received: usize, detail: String },
    #[error("the model refused to answer: {0}")]
    Refused(String),
    #[error("the model stopped without answering")]
    Empty,
    #[error("{failure} ({})", tries_in_words(*.tries, *.seconds))]
    GaveUp {
        failure: LlmFailure,
        tries: u32,
        seconds: u64,
    },
}

/// How hard PageTree tried: "tried 3 times over 95 s", or "tried once".
fn tries_in_words(tries: u32, seconds: u64) -> String {
    match tries {
        0 | 1 => format!("tried once, {seconds} s"),
        tries => format!("tried {tries} times over {seconds} s"),
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    #[serde(flatten)]
    pub checked: CheckedAnswer,
    pub model: String,
    pub first_token_ms: Option<f64>,
    pub total_ms: f64,
    /// True when the model ran out of tokens before finishing.
    pub truncated: bool,
    /// Why PageTree stopped reading before the model finished (the answer's deadline or
    /// size limit), as a note for the reader; None when the model finished.
    pub stopped: Option<String>,
}

/// Settings of the answer itself (the model and endpoint are in `LlmSettings`).
#[derive(Debug, Clone, Copy)]
pub struct AnswerSettings {
    pub temperature: f32,
    pub max_tokens: u32,
}

impl Default for AnswerSettings {
    fn default() -> Self {
        Self {
            temperature: 0.1,
            max_tokens: 700,
        }
    }
}

const SYSTEM_PROMPT: &str = "You answer questions about a library of documents using only \
the context given, which is made of pages, each starting with a marker <<FILE, page N>>. \
After every sentence that states a fact from the context, cite its page as \
[DOCUMENT p.N], where DOCUMENT is the file name without .pdf and N the page number from \
the marker, e.g. [BOEING_2022_10K p.34]. A marker may also give the number printed on \
the page (<<FILE, page N, printed page 12>>): a question naming page 12 means that \
page, and it is still cited by N. Cite only pages that are in the context. If the \
context does not contain the answer, say so plainly. Be concise.";

/// How many times a request that failed before any token arrived is tried again.
const RETRIES_BEFORE_FIRST_TOKEN: u32 = 2;

/// Streams an answer to `question` from `context`, with the conversation's earlier
/// turns before it. `on_token` sees every piece of text as it arrives.
pub async fn answer(
    client: &LlmClient,
    question: &str,
    context: &Context,
    previous_turns: &[(String, String)],
    settings: AnswerSettings,
    on_token: &mut (dyn FnMut(&str) + Send),
) -> Result<Answer, AnswerError> {
    let started = Instant::now();
    let mut messages: Vec<ChatCompletionRequestMessage> =
        vec![ChatCompletionRequestSystemMessage::from(SYSTEM_PROMPT).into()];
    for (asked, answered) in previous_turns {
        messages.push(ChatCompletionRequestUserMessage::from(asked.as_str()).into());
        messages.push(ChatCompletionRequestAssistantMessage::from(answered.as_str()).into());
    }
    messages.push(
        ChatCompletionRequestUserMessage::from(format!(
            "Context:\n{}\nQuestion: {question}",
            context.text
        ))
        .into(),
    );
    let request = CreateChatCompletionRequestArgs::default()
        .model(client.settings().model.clone())
        .temperature(settings.temperature)
        .frequency_penalty(client.settings().frequency_penalty)
        .max_completion_tokens(settings.max_tokens)
        .messages(messages)
        .build()
        .map_err(|err| LlmFailure::Server(err.to_string()))?;

    let mut attempt = 0;
    let mut text = String::new();
    let mut first_token_ms = None;
    let mut truncated = false;
    let mut finished = false;
    let mut model = client.settings().model.clone();
    // A stream that stays silent longer than the request timeout counts as dropped.
    let silence = client.settings().timeout;
    // The whole answer, retries included, has a deadline; the stream is read in this
    // task only, so when the answer ends for any reason the connection is dropped.
    let streamed = tokio::time::timeout(client.settings().answer_deadline, async {
        'attempts: loop {
            let failure = match client.chat_stream(&request).await {
                Err(failure) => failure,
                Ok(mut stream) => loop {
                    let next = match tokio::time::timeout(silence, stream.next()).await {
                        Ok(next) => next,
                        // Silence: nothing is known but that the server stopped talking.
                        Err(_) => Some(Err(LlmFailure::Timeout {
                            url: client.settings().shown_url(),
                            seconds: silence.as_secs(),
                        })),
                    };
                    let chunk = match next {
                        None => break 'attempts Ok(None),
                        Some(Ok(chunk)) => chunk,
                        Some(Err(failure)) => break failure,
                    };
                    if !chunk.model.is_empty() {
                        model = chunk.model.clone();
                    }
                    for choice in chunk.choices {
                        if let Some(refusal) = choice.delta.refusal.filter(|r| !r.is_empty()) {
                            return Err(AnswerError::Refused(client.scrub(&refusal)));
                        }
                        if let Some(piece) = choice.delta.content.filter(|c| !c.is_empty()) {
                            if first_token_ms.is_none() {
                                first_token_ms = Some(started.elapsed().as_secs_f64() * 1e3);
                            }
                            on_token(&piece);
                            text.push_str(&piece);
                        }
                        finished |= choice.finish_reason.is_some();
                        match choice.finish_reason {
                            Some(FinishReason::Length) => truncated = true,
                            Some(FinishReason::ContentFilter) => {
                                return Err(AnswerError::Refused(
                                    "the provider's content filter stopped the answer".into(),
                                ))
                            }
                            _ => {}
                        }
                    }
                },
            };
            if !text.is_empty() {
                if let LlmFailure::StreamCap { limit } = &failure {
                    return Ok(Some(format!(
                        "the answer was stopped at {limit}, the most read of one answer; \
                         it may be cut short"
                    )));
                }
                return Err(AnswerError::StreamDropped {
                    received: text.len(),
                    detail: failure.to_string(),
                });
            }
            // Nothing was shown yet, so the request can be tried again.
            attempt += 1;
            if attempt > RETRIES_BEFORE_FIRST_TOKEN || !failure.worth_retrying() {
                return Err(AnswerError::GaveUp {
                    failure,
                    tries: attempt,
                    seconds: started.elapsed().as_secs(),
                });
            }
            tokio::time::sleep(Duration::from_millis(500 * 2u64.pow(attempt))).await;
        }
    })
    .await;
    let stopped = match streamed {
        Ok(result) => result?,
        Err(_) if text.is_empty() => {
            return Err(AnswerError::GaveUp {
                failure: client.deadline_failure(),
                tries: attempt + 1,
                seconds: started.elapsed().as_secs(),
            })
        }
        Err(_) => Some(format!(
            "the answer was stopped after {} s, the most one answer may take; it may be \
             cut short",
            client.settings().answer_deadline.as_secs()
        )),
    };
    if !finished && stopped.is_none() {
        // Every server ends a complete answer with a finish reason; a stream that just
        // stops lost its connection.
        return Err(AnswerError::StreamDropped {
            received: text.len(),
            detail: "the connection closed before the model finished".into(),
        });
    }
    if text.trim().is_empty() {
        return Err(AnswerError::Empty);
    }
    let in_context: HashSet<(String, u32)> = context
        .pages
        .iter()
        .map(|p| (document_name(&p.file_name).to_lowercase(), p.page))
        .collect();
    Ok(Answer {
        checked: check(&text, &in_context),
        model,
        first_token_ms,
        total_ms: started.elapsed().as_secs_f64() * 1e3,
        truncated,
        stopped,
    })
}

/// The name citations use for a file: its stem.
pub(crate) fn document_name(file_name: &str) -> &str {
    file_name
        .strip_suffix(".pdf")
        .or_else(|| file_name.strip_suffix(".PDF"))
        .unwrap_or(file_name)
}
