//! Turns pages into `{description, keywords}` and groups of descriptions into one.

pub(crate) mod boilerplate;
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

use crate::llm::health::ModelHealth;
use crate::llm::LlmFailure;
use crate::pdf::PageText;

#[derive(Debug, thiserror::Error)]
pub enum DescribeError {
    #[error("the language model settings are not usable: {0}")]
    InvalidSettings(String),
}

/// What happened while describing a document, for the person watching.
#[derive(Debug, Clone, Default, Serialize)]
pub struct DescribeReport {
    /// Pages or groups the LLM described.
    pub by_llm: usize,
    /// Pages or groups the LLM could not describe, described offline instead.
    pub fallbacks: usize,
    /// The last thing the LLM got wrong, in words.
    pub last_error: Option<String>,
}

impl DescribeReport {
    /// Adds another step's report to this one.
    pub fn add(&mut self, other: DescribeReport) {
        self.by_llm += other.by_llm;
        self.fallbacks += other.fallbacks;
        self.last_error = other.last_error.or(self.last_error.take());
    }

    /// What described a document, as the catalog records it: `llm`, `extractive`
    /// (offline, with or without a model configured) or `mixed`.
    pub fn describer(&self) -> &'static str {
        match (self.by_llm, self.fallbacks) {
            (0, _) => "extractive",
            (_, 0) => "llm",
            _ => "mixed",
        }
    }
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
                let tracker = FallbackTracker::new(llm.health());
                let concurrency = llm.settings().concurrency.max(1);
                let mut described: Vec<(usize, Description)> = stream::iter(pages.iter().enumerate())
                    .map(|(index, page)| {
                        let tracker = &tracker;
                        async move {
                            let description = if !page.has_text {
                                describe_offline(page, stats)
                            } else if tracker.given_up() {
                                tracker.note_skipped();
                                describe_offline(page, stats)
                            } else {
                                match llm.describe_page(&page.text).await {
                                    Ok(description) => {
                                        tracker.note_success();
                                        description
                                    }
                                    Err(err) => {
                                        tracing::warn!(page = page.number, error = %err, "LLM description failed; using the offline describer");
                                        tracker.note_failure(&err);
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
                let tracker = FallbackTracker::new(llm.health());
                let concurrency = llm.settings().concurrency.max(1);
                // Indices, not borrowed items: a stream of references makes the future
                // non-Send for a Tauri command that reaches it (a model change rebuilding trees).
                let mut summaries: Vec<(usize, String)> = stream::iter(0..groups.len())
                    .map(|index| {
                        let tracker = &tracker;
                        let children: &[&str] = &groups[index];
                        async move {
                            if tracker.given_up() {
                                tracker.note_skipped();
                                return (index, summarise_offline(children, stats));
                            }
                            let summary = match llm.summarise(children).await {
                                Ok(summary) => {
                                    tracker.note_success();
                                    summary
                                }
                                Err(err) => {
                                    tracing::warn!(error = %err, "LLM summary failed; using the offline describer");
                                    tracker.note_failure(&err);
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

/// One describing step's count of what the model and the offline describer did. Whether
/// the model is still asked is the run's [`ModelHealth`], shared by every document: a
/// server that is down costs one timeout, not one per page or per document.
struct FallbackTracker<'a> {
    health: &'a ModelHealth,
    by_llm: AtomicUsize,
    fallbacks: AtomicUsize,
    last_error: std::sync::Mutex<Option<String>>,
}

impl<'a> FallbackTracker<'a> {
    fn new(health: &'a ModelHealth) -> Self {
        Self {
            health,
            by_llm: AtomicUsize::new(0),
            fallbacks: AtomicUsize::new(0),
            last_error: std::sync::Mutex::new(None),
        }
    }

    fn given_up(&self) -> bool {
        self.health.given_up().is_some()
    }

    fn note_success(&self) {
        self.by_llm.fetch_add(1, Ordering::Relaxed);
        self.health.note_success();
    }

    /// A page or group described offline because the model was given up on before it.
    fn note_skipped(&self) {
        self.fallbacks.fetch_add(1, Ordering::Relaxed);
    }

    fn note_failure(&self, failure: &LlmFailure) {
        self.fallbacks.fetch_add(1, Ordering::Relaxed);
        self.health.note_failure(failure);
        if let Ok(mut last) = self.last_error.lock() {
            *last = Some(failure.to_string());
        }
    }

    fn into_report(self) -> DescribeReport {
        DescribeReport {
            by_llm: self.by_llm.into_inner(),
            fallbacks: self.fallbacks.into_inner(),
            last_error: self.last_error.into_inner().ok().flatten(),
        }
    }
}
