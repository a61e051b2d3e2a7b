//! Retrieval strategies over the page trees, all on hybrid (dense + BM25) scores fused
//! by RRF, each returning the selected nodes, the context they make, and a trace.

pub mod context;
mod execute;
pub mod knee;
pub mod node_cache;
pub mod proxy;
pub mod query;
mod recorded;
pub mod run;
pub mod strategy;
pub mod walk;

use serde::{Deserialize, Serialize};

pub use context::{Context, ContextPage};
pub use recorded::Comparison;
pub use strategy::Strategy;

use crate::store::{Fusion, ScoredNode};

/// RRF `k` is a setting because it shapes the score curve the knee is cut on.
/// Qdrant's default (and the reference implementation's) is 2; the article quotes 60.
/// On the dev split (47 questions, whole library, max_node_pages 8) k = 2 gave knee
/// hit 0.170 at 8,768 mean context tokens against 0.149 at 22,411 for k = 60.
pub const DEFAULT_RRF_K: usize = 2;

/// Sections the walk stops at can span whole filings; narrowing anything wider than
/// this to its best pages keeps contexts page-precise. On the dev split (whole library,
/// k = 2) knee went from hit 0.191 at 67,059 mean tokens (no narrowing) to 0.170 at
/// 8,768 tokens (8 pages) and 0.149 at 6,341 tokens (4 pages).
pub const DEFAULT_MAX_NODE_PAGES: u32 = 8;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SearchSettings {
    pub fusion: Fusion,
    /// Fusion for the first step, over the documents' roots (e.g. keywords first to find
    /// the right filing); `fusion` otherwise.
    #[serde(default)]
    pub root_fusion: Option<Fusion>,
    /// Largest context, in LLM tokens; the lowest-scored nodes go first.
    pub token_budget: Option<usize>,
    /// A selected section wider than this many pages is narrowed to its best pages
    /// (ranked in one more hybrid query, cut at the knee); none keeps whole sections.
    /// Missing from JSON means the default, so that clients that do not know the field
    /// (the app's settings) get page-precise contexts; an explicit null turns it off.
    #[serde(default = "default_max_node_pages")]
    pub max_node_pages: Option<u32>,
    /// Restrict the search to these documents (ids); all ready documents otherwise.
    pub documents: Option<Vec<i64>>,
    /// Read organisations, periods and kinds of document in the question and use the
    /// documents' cards at the first step (see [`crate::card::question`]). Only over the
    /// whole library: a search told its documents has nothing to choose.
    #[serde(default = "default_true")]
    pub query_analysis: bool,
}

fn default_true() -> bool {
    true
}

fn default_max_node_pages() -> Option<u32> {
    Some(DEFAULT_MAX_NODE_PAGES)
}

impl Default for SearchSettings {
    fn default() -> Self {
        Self {
            fusion: Fusion {
                rrf_k: DEFAULT_RRF_K,
                dense_weight: 1.0,
                sparse_weight: 1.0,
            },
            root_fusion: None,
            token_budget: None,
            max_node_pages: Some(DEFAULT_MAX_NODE_PAGES),
            documents: None,
            query_analysis: true,
        }
    }
}

/// One step of a search, as the UI draws it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TraceStep {
    pub label: String,
    /// Every candidate ranked in this step, best first.
    pub candidates: Vec<ScoredNode>,
    /// Where the knee was found in `candidates`, for the knee strategies.
    pub knee_index: Option<usize>,
    /// How many candidates survived the cut (all of them when there is no cut).
    pub kept: usize,
    pub eliminated: Vec<u64>,
    /// The beam (or selection) after this step.
    pub beam: Vec<u64>,
}

/// A node the strategy chose, with what a person needs to cite it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SelectedNode {
    pub id: u64,
    pub doc_id: i64,
    pub file_name: String,
    pub level: u32,
    pub page_start: u32,
    pub page_end: u32,
    pub score: f32,
}

impl SelectedNode {
    /// `node` as chosen with `score`.
    pub fn of(node: &crate::tree::Node, score: f32) -> Self {
        Self {
            id: node.id,
            doc_id: node.doc_id,
            file_name: node.file_name.clone(),
            level: node.level,
            page_start: node.page_start,
            page_end: node.page_end,
            score,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SearchResult {
    pub question: String,
    pub strategy: Strategy,
    pub settings: SearchSettings,
    pub selected: Vec<SelectedNode>,
    pub context: Context,
    /// Time to embed the question.
    pub embed_ms: f64,
    /// Time of the search itself, without embedding.
    pub search_ms: f64,
    /// Everything: embedding, search and context assembly.
    pub latency_ms: f64,
    pub store_queries: usize,
    pub trace: Vec<TraceStep>,
    pub stopped_because: String,
    /// What the question named and how the first step used it.
    #[serde(default)]
    pub analysis: Option<crate::card::QuestionAnalysis>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_without_max_node_pages_narrow_by_default_and_null_turns_it_off() {
        let fusion = r#""fusion":{"rrf_k":2,"dense_weight":1,"sparse_weight":1},"token_budget":null,"documents":null"#;
        let missing: SearchSettings = serde_json::from_str(&format!("{{{fusion}}}")).unwrap();
        assert_eq!(missing.max_node_pages, Some(DEFAULT_MAX_NODE_PAGES));
        let off: SearchSettings =
            serde_json::from_str(&format!("{{{fusion},\"max_node_pages\":null}}")).unwrap();
        assert_eq!(off.max_node_pages, None);
    }
}
