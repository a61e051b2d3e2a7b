//! Retrieval strategies over the page trees, all on hybrid (dense + BM25) scores fused
//! by RRF, each returning the selected nodes, the context they make, and a trace.

pub mod balance;
pub mod bounds;
pub mod context;
pub mod document_words;
pub mod knee;
mod library_search;
mod named_page_boosts;
pub mod named_pages;
pub mod node_cache;
pub mod outline;
pub mod page_boosts;
pub mod page_order;
pub mod query;
mod recorded;
pub mod state;
pub mod strategies;
pub mod strategy;
pub mod walk;

use serde::{Deserialize, Serialize};

pub use bounds::ParameterError;
pub use context::{Context, ContextPage};
pub use outline::{OutlineDocument, OutlineNode};
pub use recorded::{Comparison, Skipped};
pub use strategy::Strategy;

use crate::store::{Fusion, FusionMethod, ScoredNode};

/// RRF `k` is a setting because it shapes the score curve the knee is cut on.
/// Qdrant's default (and the reference implementation's) is 2; the article quotes 60.
/// A small k makes the curve fall steeply after the best few, so the knee keeps far
/// fewer tokens than with 60 and finds as much.
pub const DEFAULT_RRF_K: usize = 2;
/// Min–max: each list scaled to 0–1, so the knee is cut on a curve that carries the
/// evidence, not on ranks alone. With a budget's pages ranked by their own evidence
/// (see [`page_order`]), the default strategy, knee, finds more with it than with RRF,
/// though sensitive knee and beam lose some over a whole library of long filings. The
/// knee keeps more with it, which costs tokens and time: more store calls a search.
pub const DEFAULT_FUSION: FusionMethod = FusionMethod::MinMax;

/// Best-page scoring, against own-text: it lifts every tree strategy over libraries of
/// short articles and within one document, and is mixed over a whole library of long
/// filings.
pub const DEFAULT_SECTION_SCORING: SectionScoring = SectionScoring::BestPage;

/// How a section (a parent or a root) is scored when a step ranks it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum SectionScoring {
    /// By its own summary and keywords only (the seed's): a section whose summary is
    /// generic ranks low however good its pages are, and a cut there loses them all.
    #[default]
    OwnText,
    /// By the best of its own and its pages' similarities, each half of the hybrid score
    /// on its own (max-pool): a step compares sections on the evidence below them.
    BestPage,
}

impl SectionScoring {
    pub const ALL: [SectionScoring; 2] = [SectionScoring::OwnText, SectionScoring::BestPage];

    pub fn name(self) -> &'static str {
        match self {
            SectionScoring::OwnText => "own-text",
            SectionScoring::BestPage => "best-page",
        }
    }
}

impl std::fmt::Display for SectionScoring {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for SectionScoring {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|scoring| scoring.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| format!("unknown section scoring \"{text}\": use own-text or best-page"))
    }
}

/// Sections the walk stops at can span whole filings; narrowing anything wider than
/// this to its best pages keeps contexts page-precise: without narrowing a search spends
/// many times the tokens for a few more hits, and a narrower limit loses hits for few
/// tokens saved.
pub const DEFAULT_MAX_NODE_PAGES: u32 = 8;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SearchSettings {
    pub fusion: Fusion,
    /// Fusion for the first step, over the documents' roots (e.g. keywords first to find
    /// the right filing); `fusion` otherwise.
    // Optional in TypeScript: a client may leave it out (serde default).
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    #[serde(default)]
    pub root_fusion: Option<Fusion>,
    /// Largest context, in LLM tokens; the lowest-scored nodes go first.
    pub token_budget: Option<usize>,
    /// A selected section wider than this many pages is narrowed to its best pages
    /// (ranked in one more hybrid query, cut at the knee); none keeps whole sections.
    /// Missing from JSON means the default, so that clients that do not know the field
    /// (the app's settings) get page-precise contexts; an explicit null turns it off.
    // Optional in TypeScript: a client may leave it out (serde default).
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    #[serde(default = "default_max_node_pages")]
    pub max_node_pages: Option<u32>,
    /// Restrict the search to these documents (ids); all ready documents otherwise.
    pub documents: Option<Vec<i64>>,
    /// Read organisations, periods and kinds of document in the question and use the
    /// documents' cards at the first step (see [`crate::card::question`]). Only over the
    /// whole library: a search told its documents has nothing to choose.
    // Optional in TypeScript: a client may leave it out (serde default).
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    #[serde(default = "default_true")]
    pub query_analysis: bool,
    /// How sections are scored by the tree strategies. Missing from JSON means the
    /// default.
    #[serde(default = "default_section_scoring")]
    pub section_scoring: SectionScoring,
    /// With a token budget, a tree strategy's choice comes first and, when it chose
    /// within one document, what it leaves of the budget goes to that document's best
    /// other pages (the pages flat top-k would take there), so that an early stop never
    /// leaves evidence unread.
    /// Missing from JSON means on.
    // Optional in TypeScript: a client may leave it out (serde default).
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    #[serde(default = "default_true")]
    pub fill_budget: bool,
}

fn default_section_scoring() -> SectionScoring {
    DEFAULT_SECTION_SCORING
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
            fusion: Fusion::rrf(DEFAULT_RRF_K, 1.0, 1.0).with_method(DEFAULT_FUSION),
            root_fusion: None,
            token_budget: None,
            max_node_pages: Some(DEFAULT_MAX_NODE_PAGES),
            documents: None,
            query_analysis: true,
            section_scoring: DEFAULT_SECTION_SCORING,
            fill_budget: true,
        }
    }
}

/// One step of a search, as the UI draws it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SearchResult {
    pub question: String,
    pub strategy: Strategy,
    /// As given: the fusion weights relative to the library model's balance (see
    /// [`balance::DenseBalance`]).
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
    /// The financial statements the question asks about, whose pages were ranked up.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub statements: Vec<crate::statements::FinancialStatement>,
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
