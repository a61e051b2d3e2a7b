//! Turns pages into `{description, keywords}` and groups of descriptions into one.

mod boilerplate;
mod build;
pub mod extractive;
pub mod llm;

use std::sync::atomic::{AtomicUsize, Ordering};

use futures::stream::{self, StreamExt};
use serde::Serialize;

pub use crate::llm::LlmSettings;
pub use crate::tree::Description;
pub use build::build_tree;
pub use extractive::TermStats;
pub use llm::LlmDescriber;

use crate::pdf::PageText;

#[derive(Debug, thiserror::Error)]
pub enum DescribeError {
    #[error("the language model settings are not usable: {0}")]
    InvalidSettings(String),
}

/// What happened while describing a document, for the person watching.
#[derive(Debug, Clone, Default, Serialize)]
pub struct DescribeReport {
    /// Pages or groups the LLM could not describe, described offline instead.
    pub fallbacks: usize,
    /// The last thing the LLM got wrong, in words.
    pub last_error: Option<String>,
}

/// The describer a library uses: the LLM when one is configured, otherwise the offline
/// extractive one. Either way ingestion completes.
pub enum Describer {
    Extractive,
    Llm(Box<LlmDescriber>),
}

impl Describer {
    pub fn name(&self) -> &'static str {
        match self {
            Describer::Extractive => "extractive",
            Describer::Llm(_) => "llm",
        }
    }

    /// Describes every page. `on_page_done` is called once per finished page.
    pub(crate) async fn describe_pages(
        &self,
        pages: &[PageText],
        stats: &TermStats,
        on_page_done: &(dyn Fn() + Sync),
    ) -> (Vec<Description>, DescribeReport) {
        match self {
            Describer::Extractive => {
                let descriptions = pages
                    .iter()
                    .map(|page| {
                        let description = describe_offline(page, stats);
                        on_page_done();
                        description
                    })
                    .collect();
                (descriptions, DescribeReport::default())
            }
            Describer::Llm(llm) => {
                let tracker = FallbackTracker::default();
                let concurrency = llm.settings().concurrency.max(1);
                let mut described: Vec<(usize, Description)> = stream::iter(pages.iter().enumerate())
                    .map(|(index, page)| {
                        let tracker = &tracker;
                        async move {
                            let description = if !page.has_text {
                                describe_offline(page, stats)
                            } else if tracker.circuit_open() {
                                tracker.note_fallback(None);
                                describe_offline(page, stats)
                            } else {
                                match llm.describe_page(&page.text).await {
                                    Ok(description) => {
                                        tracker.note_success();
                                        description
                                    }
                                    Err(err) => {
                                        tracing::warn!(page = page.number, error = %err, "LLM description failed; using the offline describer");
                                        tracker.note_fallback(Some(err.to_string()));
                                        describe_offline(page, stats)
                                    }
                                }
                            };
                            on_page_done();
                            (index, description)
                        }
                    })
                    .buffer_unordered(concurrency)
                    .collect()
                    .await;
                described.sort_by_key(|(index, _)| *index);
                (
                    described.into_iter().map(|(_, d)| d).collect(),
                    tracker.into_report(),
                )
            }
        }
    }

    /// Writes one description for each group of children's descriptions.
    pub(crate) async fn summarise_groups(
        &self,
        groups: &[Vec<&str>],
        stats: &TermStats,
    ) -> (Vec<String>, DescribeReport) {
        match self {
            Describer::Extractive => (
                groups
                    .iter()
                    .map(|children| summarise_offline(children, stats))
                    .collect(),
                DescribeReport::default(),
            ),
            Describer::Llm(llm) => {
                let tracker = FallbackTracker::default();
                let concurrency = llm.settings().concurrency.max(1);
                let mut summaries: Vec<(usize, String)> = stream::iter(groups.iter().enumerate())
                    .map(|(index, children)| {
                        let tracker = &tracker;
                        async move {
                            if tracker.circuit_open() {
                                tracker.note_fallback(None);
                                return (index, summarise_offline(children, stats));
                            }
                            let summary = match llm.summarise(children).await {
                                Ok(summary) => {
                                    tracker.note_success();
                                    summary
                                }
                                Err(err) => {
                                    tracing::warn!(error = %err, "LLM summary failed; using the offline describer");
                                    tracker.note_fallback(Some(err.to_string()));
                                    summarise_offline(children, stats)
                                }
                            };
                            (index, summary)
                        }
                    })
                    .buffer_unordered(concurrency)
                    .collect()
                    .await;
                summaries.sort_by_key(|(index, _)| *index);
                (
                    summaries.into_iter().map(|(_, s)| s).collect(),
                    tracker.into_report(),
                )
            }
        }
    }
}

pub(crate) fn describe_offline(page: &PageText, stats: &TermStats) -> Description {
    if !page.has_text {
        return Description {
            description: format!(
                "Page {} has no text layer (a scanned image or a blank page).",
                page.number
            ),
            keywords: Vec::new(),
        };
    }
    extractive::describe_page(&page.text, stats, extractive::DEFAULT_WORD_BUDGET)
}

fn summarise_offline(children: &[&str], stats: &TermStats) -> String {
    extractive::summarise(children, stats, extractive::DEFAULT_WORD_BUDGET)
}

/// After this many failures in a row the LLM is not asked again for this document:
/// a server that is down would otherwise cost every page its full retry budget.
const CONSECUTIVE_FAILURES_BEFORE_GIVING_UP: usize = 3;

#[derive(Default)]
struct FallbackTracker {
    consecutive_failures: AtomicUsize,
    fallbacks: AtomicUsize,
    last_error: std::sync::Mutex<Option<String>>,
}

impl FallbackTracker {
    fn circuit_open(&self) -> bool {
        self.consecutive_failures.load(Ordering::Relaxed) >= CONSECUTIVE_FAILURES_BEFORE_GIVING_UP
    }

    fn note_success(&self) {
        self.consecutive_failures.store(0, Ordering::Relaxed);
    }

    fn note_fallback(&self, error: Option<String>) {
        self.fallbacks.fetch_add(1, Ordering::Relaxed);
        if let Some(error) = error {
            self.consecutive_failures.fetch_add(1, Ordering::Relaxed);
            if let Ok(mut last) = self.last_error.lock() {
                *last = Some(error);
            }
        }
    }

    fn into_report(self) -> DescribeReport {
        DescribeReport {
            fallbacks: self.fallbacks.into_inner(),
            last_error: self.last_error.into_inner().ok().flatten(),
        }
    }
}
