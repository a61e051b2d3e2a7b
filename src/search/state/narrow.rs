//! Narrowing: a chosen node wider than the search allows gives way to its best pages.

use std::collections::HashMap;

use super::{scores, SearchState};
use crate::search::knee::knee_cut;
use crate::search::SelectedNode;
use crate::store::{Candidates, ScoredNode, StoreError};
use crate::tree::Node;

/// How deep narrowing looks into a wide node's pages, in multiples of the pages it may
/// keep. Deeper finds no more than two does and spends more tokens and time; one loses
/// hits.
pub const NARROWING_DEPTH: usize = 2;

impl SearchState<'_> {
    /// Replaces every chosen node wider than `max_pages` pages by its best pages: the
    /// node's pages are ranked by a hybrid query whose two lists each pass on their
    /// best [`NARROWING_DEPTH`] × `max_pages` pages (as flat top-k does over the whole
    /// library), the ranking is cut at the knee, and at most `max_pages` are kept. The
    /// wide nodes' queries run at the same time.
    pub async fn narrow_wide_nodes(
        &mut self,
        chosen: Vec<ScoredNode>,
        max_pages: u32,
    ) -> Result<Vec<ScoredNode>, StoreError> {
        let wide: Vec<Node> = chosen
            .iter()
            .filter_map(|scored| self.nodes.get(&scored.id))
            .filter(|node| node.page_end - node.page_start >= max_pages)
            .cloned()
            .collect();
        if wide.is_empty() {
            return Ok(chosen);
        }
        let depth = NARROWING_DEPTH * max_pages as usize;
        let (store, query, fusion) = (self.store, self.query, self.fusion);
        let rankings = futures::future::try_join_all(wide.iter().map(|node| {
            let candidates = pages_under(node);
            async move { store.hybrid_scores(query, &candidates, depth, fusion).await }
        }))
        .await?;
        self.store_queries += rankings.len();
        let rankings: Vec<Vec<ScoredNode>> = rankings
            .into_iter()
            .map(|ranked| self.with_page_boosts_added(ranked))
            .collect();
        let mut ranking_of: HashMap<u64, (Node, Vec<ScoredNode>)> = wide
            .into_iter()
            .zip(rankings)
            .map(|(node, ranked)| (node.id, (node, ranked)))
            .collect();

        let mut narrowed = Vec::with_capacity(chosen.len());
        for scored in chosen {
            let Some((node, ranked)) = ranking_of.remove(&scored.id) else {
                narrowed.push(scored);
                continue;
            };
            let cut = knee_cut(&scores(&ranked));
            let keep = cut.keep.min(max_pages as usize).max(1);
            // The pages inherit the section's score so that sections keep their order.
            let best: Vec<ScoredNode> = ranked[..keep.min(ranked.len())]
                .iter()
                .map(|page| ScoredNode {
                    id: page.id,
                    score: scored.score * (page.score / ranked[0].score.max(f32::MIN_POSITIVE)),
                })
                .collect();
            for page in &best {
                let number = crate::tree::page_of_leaf(page.id);
                let selected = SelectedNode {
                    id: page.id,
                    doc_id: node.doc_id,
                    file_name: node.file_name.clone(),
                    level: 0,
                    page_start: number,
                    page_end: number,
                    score: page.score,
                };
                self.narrowed_pages.insert(page.id, selected);
            }
            self.record(
                format!(
                    "narrow pages {}-{} of {}",
                    node.page_start, node.page_end, node.file_name
                ),
                &ranked,
                cut.knee_index,
                best.len(),
                vec![node.id],
                &best,
            );
            narrowed.extend(best);
        }
        narrowed.sort_by(|a, b| b.score.total_cmp(&a.score));
        self.record(
            "selected",
            &narrowed,
            None,
            narrowed.len(),
            Vec::new(),
            &narrowed,
        );
        Ok(narrowed)
    }
}

/// The pages under `node`. A root's are its document's leaves, which the store finds
/// by a payload filter; any other node's are named by id, and the engine looks each id
/// up in every segment (at 1M nodes that lookup was 18% of the searches' time).
pub(super) fn pages_under(node: &Node) -> Candidates {
    if node.is_root() {
        return Candidates::LeavesOf(vec![node.doc_id]);
    }
    Candidates::BestOf(
        (node.page_start..=node.page_end)
            .map(|page| crate::tree::page_node_id(node.doc_id, page))
            .collect(),
    )
}
