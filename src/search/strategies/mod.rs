//! The strategies, one module each. A tree strategy chooses nodes from the page trees
//! through a [`SearchState`] (the search's scores, payloads and trace); proxy-pointer asks
//! an LLM instead. [`Strategy::plan`] sends every strategy to exactly one of the two,
//! so that neither can be handed the other's.

pub mod beam;
pub mod branch;
pub mod collapsed_tree;
pub mod flat;
pub mod proxy_pointer;

use super::knee::CutRule;
use super::state::SearchState;
use super::walk::Stop;
use super::{SectionScoring, Strategy};
use std::collections::HashSet;

use crate::store::{ScoredNode, StoreError};
use crate::tree::doc_id_of;

pub use beam::BeamCut;

/// A beam that still changes after this many steps is stopped anyway; trees are at most
/// a dozen levels deep, so reaching it means something oscillates.
const MAX_STEPS: usize = 64;

/// How a strategy runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Plan {
    /// Chooses nodes from the page trees, on the search's own scores.
    Tree(TreeStrategy),
    /// Shows an LLM the best `proxies` section summaries and reads the pages it names.
    ProxyPointer { proxies: usize },
}

/// A strategy that chooses nodes from the page trees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TreeStrategy {
    Flat {
        k: usize,
    },
    Branch {
        roots: usize,
    },
    /// Beam, knee, sensitive knee and largest gap: one descent, cut as `BeamCut` says.
    Beam(BeamCut),
    CollapsedTree {
        depth: usize,
    },
}

impl Strategy {
    pub(crate) fn plan(&self) -> Plan {
        let tree = match *self {
            Strategy::Flat { k } => TreeStrategy::Flat { k },
            Strategy::Branch { roots } => TreeStrategy::Branch { roots },
            Strategy::Beam { width } => TreeStrategy::Beam(BeamCut::Width(width)),
            Strategy::Knee { max_roots } => TreeStrategy::Beam(BeamCut::Curve {
                max_roots,
                rule: CutRule::Knee { sensitivity: 1.0 },
            }),
            Strategy::SensitiveKnee {
                sensitivity,
                max_roots,
            } => TreeStrategy::Beam(BeamCut::Curve {
                max_roots,
                rule: CutRule::Knee { sensitivity },
            }),
            Strategy::LargestGap { max_roots } => TreeStrategy::Beam(BeamCut::Curve {
                max_roots,
                rule: CutRule::LargestGap,
            }),
            Strategy::CollapsedTree { depth } => TreeStrategy::CollapsedTree { depth },
            Strategy::ProxyPointer { proxies } => return Plan::ProxyPointer { proxies },
        };
        Plan::Tree(tree)
    }
}

impl TreeStrategy {
    /// Whether what this strategy leaves of a token budget is filled with the best other
    /// pages of the documents it chose: every strategy that stops by its own rule (flat
    /// top-k already takes the best pages until the budget is spent).
    pub(crate) fn fills_budget(&self) -> bool {
        !matches!(self, TreeStrategy::Flat { .. })
    }

    /// Runs the strategy from `roots` (one root id per searchable document) over the
    /// leaves of `documents`; the chosen nodes' payloads are read.
    pub(in crate::search) async fn select(
        self,
        search: &mut SearchState<'_>,
        roots: &[u64],
        documents: &[i64],
    ) -> Result<Vec<ScoredNode>, StoreError> {
        if roots.is_empty() {
            search.stopped_because = "the library has no searchable documents".into();
            return Ok(Vec::new());
        }
        // Flat and collapsed-tree rank in one store query that scores every node by
        // its own text: page evidence would be read for nothing.
        let ranks_sections = !matches!(
            self,
            TreeStrategy::Flat { .. } | TreeStrategy::CollapsedTree { .. }
        );
        let reads_page_evidence =
            ranks_sections && search.section_scoring() == SectionScoring::BestPage;
        if reads_page_evidence {
            search.gather_page_evidence(documents, roots).await?;
        }
        let mut chosen = match self {
            TreeStrategy::Flat { k } => flat::select(search, k, documents).await,
            TreeStrategy::Branch { roots: count } => branch::select(search, roots, count).await,
            TreeStrategy::Beam(cut) => beam::select(search, roots, cut).await,
            TreeStrategy::CollapsedTree { depth } => {
                collapsed_tree::select(search, depth, documents).await
            }
        }?;
        search.load(&chosen).await?;
        if reads_page_evidence {
            keep_the_best_page(search, &mut chosen).await?;
        }
        Ok(chosen)
    }
}

/// Adds the best page of the chosen documents when the descent left it behind. A section
/// is lifted half by half to its pages' best similarities, so one whose pages are good by
/// one half each can outrank the section of the one page that is good by both, and the
/// tree then never reaches the page flat top-k ranks first. The tree still decides which
/// documents: taking a best page from any document lost hits in libraries of many
/// short articles.
async fn keep_the_best_page(
    search: &mut SearchState<'_>,
    chosen: &mut Vec<ScoredNode>,
) -> Result<(), StoreError> {
    let documents: HashSet<i64> = chosen.iter().map(|node| doc_id_of(node.id)).collect();
    let Some(page_id) = search.best_evidence_page(&documents) else {
        return Ok(());
    };
    if search.covers(chosen, page_id) {
        return Ok(());
    }
    // Scores of different steps are on different scales: the page ranks last among the
    // chosen, and a token budget orders them all by their evidence anyway.
    let lowest = chosen.iter().map(|node| node.score).reduce(f32::min);
    let best_page = ScoredNode {
        id: page_id,
        score: lowest.unwrap_or(0.0),
    };
    let added = std::slice::from_ref(&best_page);
    search.load(added).await?;
    chosen.push(best_page.clone());
    search.record("best page kept", added, None, 1, Vec::new(), chosen);
    Ok(())
}

fn stop_reason(stop: Stop) -> String {
    match stop {
        Stop::Unchanged => "the beam stopped changing".into(),
        Stop::Cycle => "the beam returned to an earlier state (a cycle)".into(),
        Stop::StepLimit => format!("the step limit ({MAX_STEPS}) was reached"),
        Stop::Continue => String::new(),
    }
}
