//! Flat: hybrid top-k over the searched documents' pages, no tree.

use crate::search::state::SearchState;
use crate::store::{Candidates, ScoredNode, StoreError};

pub(super) async fn select(
    search: &mut SearchState<'_>,
    k: usize,
    documents: &[i64],
) -> Result<Vec<ScoredNode>, StoreError> {
    let mut ranked = search
        .top_of_searched(
            Candidates::AllLeaves,
            Candidates::LeavesOf(documents.to_vec()),
            k,
            documents,
        )
        .await?;
    if !search.page_boosts().is_empty() {
        // The pages asked for (all of searched documents) compete with the top k
        // on one fused scale, boosted.
        let mut ids: Vec<u64> = ranked.iter().map(|node| node.id).collect();
        ids.extend(search.page_boosts().page_ids(|_| true));
        ranked = search.rank(ids).await?;
        ranked.truncate(k.max(1));
    }
    search.record(
        "top-k pages",
        &ranked,
        None,
        ranked.len(),
        Vec::new(),
        &ranked,
    );
    search.stopped_because = format!("took the {} best pages", ranked.len());
    Ok(ranked)
}
