//! Collapsed tree (RAPTOR's): no descent, every level ranked in one list.

use crate::search::knee::knee_cut;
use crate::search::state::{scores, SearchState};
use crate::store::{Candidates, ScoredNode, StoreError};

/// Ranks the best `depth` nodes of every level in one hybrid query, cuts at the
/// knee, and keeps of overlapping nodes (a section and its pages) the better ranked.
pub(super) async fn select(
    search: &mut SearchState<'_>,
    depth: usize,
    documents: &[i64],
) -> Result<Vec<ScoredNode>, StoreError> {
    let ranked = search
        .top_of_searched(
            Candidates::AllNodes,
            Candidates::NodesOf(documents.to_vec()),
            depth,
            documents,
        )
        .await?;
    let cut = knee_cut(&scores(&ranked));
    let kept = &ranked[..cut.keep];
    search.load(kept).await?;
    let mut chosen: Vec<ScoredNode> = Vec::new();
    let mut covered: Vec<(i64, u32, u32)> = Vec::new();
    let mut overlapping = Vec::new();
    for candidate in kept {
        let Some(node) = search.node(candidate.id) else {
            continue;
        };
        let span = (node.doc_id, node.page_start, node.page_end);
        let overlaps = covered
            .iter()
            .any(|&(doc, first, last)| doc == span.0 && first <= span.2 && span.1 <= last);
        if overlaps {
            overlapping.push(candidate.id);
            continue;
        }
        covered.push(span);
        chosen.push(candidate.clone());
    }
    search.record(
        "every level",
        &ranked,
        cut.knee_index,
        cut.keep,
        overlapping,
        &chosen,
    );
    search.stopped_because = format!(
        "kept the {} nodes above the knee that do not overlap a better one",
        chosen.len()
    );
    Ok(chosen)
}
