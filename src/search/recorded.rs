//! Searches as people run them (CLI `search`/`compare`, the app's Compare view): each
//! run, failed or not, goes into history.

use super::{SearchResult, SearchSettings, Strategy};
use crate::error::{Error, Result};
use crate::history::{NewRun, RunKind};
use crate::library::{Library, LibraryError};

/// Every strategy that ran on one question, and why the others did not.
#[derive(Debug)]
pub struct Comparison {
    pub results: Vec<SearchResult>,
    pub skipped: Vec<Skipped>,
}

/// A strategy a comparison could not run. The reason is the engine's error, for the CLI
/// and the app to put in their own words (how to set a language model differs).
#[derive(Debug)]
pub struct Skipped {
    pub strategy: &'static str,
    pub reason: Error,
}

impl Library {
    /// One search, recorded in history whether it succeeds or fails.
    pub async fn search_recorded(
        &self,
        question: &str,
        strategy: &Strategy,
        settings: &SearchSettings,
    ) -> Result<SearchResult> {
        crate::library::ensure_question(question)?;
        match self.search(question, strategy, settings).await {
            Ok(result) => {
                self.catalog()
                    .record_run(&NewRun::from_search(RunKind::Search, None, &result))
                    .await?;
                Ok(result)
            }
            Err(err) => {
                let settings_json = serde_json::json!({"strategy": strategy, "search": settings});
                self.catalog()
                    .record_run(&NewRun::failed(
                        RunKind::Search,
                        None,
                        question,
                        settings_json,
                        &err.to_string(),
                    ))
                    .await?;
                Err(err)
            }
        }
    }

    /// Runs `strategies` on the same question with one query embedding, recording each
    /// run. A strategy that needs a model when none is configured, or that fails, is
    /// skipped with its reason rather than failing the comparison.
    pub async fn compare(
        &self,
        question: &str,
        strategies: &[Strategy],
        settings: &SearchSettings,
    ) -> Result<Comparison> {
        // Out-of-range values are the caller's mistake, not one strategy's failure: the
        // whole comparison is refused before anything runs.
        crate::library::ensure_question(question)?;
        settings.validate()?;
        for strategy in strategies {
            strategy.validate()?;
        }
        let (query, embed_ms) = self.embed_query_timed(question).await?;
        let mut comparison = Comparison {
            results: Vec::new(),
            skipped: Vec::new(),
        };
        for strategy in strategies {
            if strategy.needs_llm() && self.llm_settings().is_none() {
                comparison.skipped.push(Skipped {
                    strategy: strategy.name(),
                    reason: LibraryError::NoLlm.into(),
                });
                continue;
            }
            match self
                .search_with_query(question, &query, embed_ms, strategy, settings)
                .await
            {
                Ok(result) => {
                    self.catalog()
                        .record_run(&NewRun::from_search(RunKind::Compare, None, &result))
                        .await?;
                    comparison.results.push(result);
                }
                Err(reason) => comparison.skipped.push(Skipped {
                    strategy: strategy.name(),
                    reason,
                }),
            }
        }
        Ok(comparison)
    }
}
