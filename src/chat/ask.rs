//! `Library::ask`: search, answer (streamed from a model, or extractive without one),
//! validate citations, and record the whole turn in history, failed or not.

use serde::Serialize;

use std::collections::HashMap;

use super::citations::{CheckedAnswer, Citation};
use super::document_name;
use super::numbers::{check_numbers, NumberCheck};
use super::{answer, extractive, AnswerError, AnswerSettings};
use crate::error::Result;
use crate::history::{AnswerRecord, NewRun, RunKind};
use crate::library::{Library, LibraryError};
use crate::llm::LlmClient;
use crate::search::{SearchResult, SearchSettings, Strategy};

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AskOutcome {
    pub run_id: i64,
    pub conversation_id: i64,
    pub search: SearchResult,
    pub answer: CheckedAnswer,
    /// The passages an extractive answer quotes, best first, each with where it is on
    /// its page (empty for a written answer).
    #[serde(default)]
    pub passages: Vec<extractive::Passage>,
    /// A written answer's figures looked for on the pages cited for them (None for an
    /// extractive answer, which only quotes).
    #[serde(default)]
    pub numbers: Option<NumberCheck>,
    /// None when no model is configured (the answer is extractive).
    pub model: Option<String>,
    pub first_token_ms: Option<f64>,
    pub total_ms: f64,
    pub notes: Vec<String>,
}

impl Library {
    /// Answers `question`, continuing `conversation` when given (its earlier turns go to
    /// the model, and the previous question helps find pages for a follow-up).
    pub async fn ask(
        &self,
        question: &str,
        strategy: &Strategy,
        settings: &SearchSettings,
        conversation: Option<i64>,
        answer_settings: AnswerSettings,
        on_token: &mut (dyn FnMut(&str) + Send),
    ) -> Result<AskOutcome> {
        crate::library::ensure_question(question)?;
        let catalog = self.catalog();
        let conversation_id = match conversation {
            Some(id) => id,
            None => catalog.new_conversation(question).await?,
        };
        let turns = catalog.conversation_turns(conversation_id).await?;
        let retrieval_text = match turns.last() {
            Some((previous, _)) => format!("{previous}\n{question}"),
            None => question.to_string(),
        };
        let fitted = self
            .llm_settings()
            .and_then(|llm| llm.context_tokens)
            .map(|window| fit_to_window(settings, window, answer_settings.max_tokens, &turns));
        let settings = fitted.as_ref().unwrap_or(settings);
        let run_settings = serde_json::json!({"strategy": strategy, "search": settings});
        let mut search = match self.search(&retrieval_text, strategy, settings).await {
            Ok(search) => search,
            Err(err) => {
                let failed = NewRun::failed(
                    RunKind::Ask,
                    Some(conversation_id),
                    question,
                    run_settings,
                    &err.to_string(),
                );
                catalog.record_run(&failed).await?;
                return Err(err);
            }
        };
        search.question = question.to_string();
        let mut notes = Vec::new();
        if let Some(truncation) = &search.context.truncation {
            notes.push(truncation.clone());
        }
        // Both paths end the same way: one run with its answer in history.
        let mut passages = Vec::new();
        let mut numbers = None;
        let (checked, model, first_token_ms, total_ms) = match self.llm_settings().cloned() {
            None => {
                let extracted = self.extractive_answer(question, &search).await?;
                notes.push(extractive::NO_MODEL_NOTE.to_string());
                on_token(&extracted.checked.text);
                passages = extracted.passages;
                (extracted.checked, None, None, None)
            }
            Some(llm) => {
                let client = LlmClient::new(llm).map_err(|e| LibraryError::Settings(e.0))?;
                let mut answered = match answer(
                    &client,
                    question,
                    &search.context,
                    &turns,
                    answer_settings,
                    on_token,
                )
                .await
                {
                    Ok(answered) => answered,
                    Err(err) => {
                        let mut failed =
                            NewRun::from_search(RunKind::Ask, Some(conversation_id), &search);
                        failed.error = Some(err.to_string());
                        catalog.record_run(&failed).await?;
                        return Err(LibraryError::Answer(err).into());
                    }
                };
                if !answered.checked.removed.is_empty() {
                    notes.push(format!(
                        "removed citations of pages that were not in the context: {}",
                        answered.checked.removed.join(", ")
                    ));
                }
                if answered.checked.uncited {
                    notes
                        .push("the answer cites no page of the context: treat it with care".into());
                }
                if answered.truncated {
                    notes.push("the answer hit the token limit and may be cut short".into());
                }
                notes.extend(answered.stopped.clone());
                let check = self.check_figures(&search, &mut answered.checked).await?;
                if !check.missing.is_empty() {
                    notes.push(format!(
                        "{} of the answer's {} figures are on none of the pages cited for them \
                         (marked [?]): {}",
                        check.missing.len(),
                        check.checked,
                        check.missing.join(", ")
                    ));
                }
                numbers = Some(check);
                (
                    answered.checked,
                    Some(answered.model),
                    answered.first_token_ms,
                    Some(answered.total_ms),
                )
            }
        };
        let mut checked = checked;
        super::citations::label_citations(&mut checked.citations, &search.context.pages);
        let run_id = catalog
            .record_run(&NewRun::from_search(
                RunKind::Ask,
                Some(conversation_id),
                &search,
            ))
            .await?;
        catalog
            .record_answer(
                run_id,
                &AnswerRecord::new(&checked, model.clone(), first_token_ms, total_ms),
            )
            .await?;
        Ok(AskOutcome {
            run_id,
            conversation_id,
            search,
            answer: checked,
            passages,
            numbers,
            model,
            first_token_ms,
            total_ms: total_ms.unwrap_or(0.0),
            notes,
        })
    }
}

impl Library {
    /// Looks for every figure of a written answer on the pages cited for it, and marks
    /// in the answer those found on none.
    async fn check_figures(
        &self,
        search: &SearchResult,
        answer: &mut CheckedAnswer,
    ) -> Result<NumberCheck> {
        let pages: HashMap<(String, u32), (i64, u32)> = search
            .context
            .pages
            .iter()
            .map(|p| {
                (
                    (document_name(&p.file_name).to_lowercase(), p.page),
                    (p.doc_id, p.page),
                )
            })
            .collect();
        let key = |c: &Citation| pages.get(&(c.document.to_lowercase(), c.page)).copied();
        let cited: Vec<(i64, u32)> = answer.citations.iter().filter_map(key).collect();
        let texts = self.catalog().page_texts(&cited).await?;
        let (marked, check) = check_numbers(&answer.text, &|c: &Citation| {
            key(c).and_then(|k| texts.get(&k).cloned())
        });
        answer.text = marked;
        Ok(check)
    }
}

impl From<AnswerError> for LibraryError {
    fn from(err: AnswerError) -> Self {
        LibraryError::Answer(err)
    }
}

/// Context tokens, counted with PageTree's tokenizer (cl100k), per token of a server's
/// window: a small model's tokenizer may take up to twice as many for the same text
/// (digits one by one in a filing's tables), and the system prompt and the answer need
/// their room too.
const WINDOW_SHARE_FOR_PAGES: f64 = 0.5;

/// `settings` with a token budget the server's context window holds, beside the
/// conversation so far and the answer's `max_tokens`; a smaller budget already set is
/// kept.
fn fit_to_window(
    settings: &SearchSettings,
    window: usize,
    max_tokens: u32,
    turns: &[(String, String)],
) -> SearchSettings {
    // Four characters a token is English's average; the share below leaves the rest.
    let earlier: usize = turns
        .iter()
        .map(|(asked, answered)| (asked.len() + answered.len()) / 4)
        .sum();
    let room = window
        .saturating_sub(max_tokens as usize)
        .saturating_sub(earlier);
    let fits = ((room as f64 * WINDOW_SHARE_FOR_PAGES) as usize).max(500);
    let mut fitted = settings.clone();
    fitted.token_budget = Some(
        settings
            .token_budget
            .map_or(fits, |budget| budget.min(fits)),
    );
    fitted
}

#[cfg(test)]
mod window_tests {
    use super::*;

    #[test]
    fn the_pages_fit_the_window_beside_the_answer_and_the_conversation() {
        let settings = SearchSettings::default();
        let fitted = fit_to_window(&settings, 16_384, 700, &[]);
        assert_eq!(fitted.token_budget, Some(7_842));
        let long_talk = vec![("q".repeat(4_000), "a".repeat(8_000))];
        let fitted = fit_to_window(&settings, 16_384, 700, &long_talk);
        assert_eq!(fitted.token_budget, Some(6_342));
        let small = SearchSettings {
            token_budget: Some(2_500),
            ..SearchSettings::default()
        };
        assert_eq!(
            fit_to_window(&small, 16_384, 700, &[]).token_budget,
            Some(2_500)
        );
        assert_eq!(
            fit_to_window(&settings, 512, 700, &[]).token_budget,
            Some(500)
        );
    }
}
