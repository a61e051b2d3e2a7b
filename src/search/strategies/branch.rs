//! Branch: from the best roots, each node is replaced by those of its children that
//! rank above it, until every branch ends at a node that beats its children.

use super::MAX_STEPS;
use crate::search::state::SearchState;
use crate::store::{ScoredNode, StoreError};

pub(super) async fn select(
    search: &mut SearchState<'_>,
    roots: &[u64],
    count: usize,
) -> Result<Vec<ScoredNode>, StoreError> {
    let ranked_roots = search.rank_roots(roots).await?;
    let best: Vec<ScoredNode> = ranked_roots.iter().take(count.max(1)).cloned().collect();
    search.load(&best).await?;
    search.record("roots", &ranked_roots, None, best.len(), Vec::new(), &best);
    let mut queue: Vec<ScoredNode> = best;
    let mut finals = Vec::new();
    let mut expansions = 0;
    // The queue is taken a wave at a time, in order: every queued node's payload is
    // read, and it and its children scored, in one store call each per wave.
    while !queue.is_empty() {
        let wave = std::mem::take(&mut queue);
        search.load(&wave).await?;
        let parents: Vec<u64> = wave.iter().map(|node| node.id).collect();
        search.load_section_children(&parents).await?;
        let family: Vec<u64> = wave
            .iter()
            .flat_map(|node| {
                std::iter::once(node.id).chain(search.children_of(node.id).iter().copied())
            })
            .collect();
        search.score(&family).await?;
        for node in wave {
            let children = search.children_of(node.id).to_vec();
            if children.is_empty() || expansions >= MAX_STEPS * 8 {
                finals.push(node);
                continue;
            }
            expansions += 1;
            let mut ids = vec![node.id];
            ids.extend(children);
            let ranked = search.rank(ids).await?;
            let position = ranked
                .iter()
                .position(|n| n.id == node.id)
                .unwrap_or(ranked.len());
            let winners: Vec<ScoredNode> = ranked[..position].to_vec();
            if winners.is_empty() {
                let kept = ranked
                    .iter()
                    .find(|n| n.id == node.id)
                    .cloned()
                    .unwrap_or(node);
                search.record(
                    format!("node {} beats its children", kept.id),
                    &ranked,
                    None,
                    1,
                    Vec::new(),
                    std::slice::from_ref(&kept),
                );
                finals.push(kept);
            } else {
                search.record(
                    format!("children replace node {}", node.id),
                    &ranked,
                    None,
                    winners.len(),
                    vec![node.id],
                    &winners,
                );
                queue.extend(winners);
            }
        }
    }
    search.stopped_because = "every branch ended at a node that beats its children".into();
    finals.sort_by(|a, b| b.score.total_cmp(&a.score));
    search.record("selected", &finals, None, finals.len(), Vec::new(), &finals);
    Ok(finals)
}
