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
