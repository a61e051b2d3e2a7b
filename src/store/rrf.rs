//! Weighted reciprocal rank fusion over raw scores a search already holds, computed the
//! way Qdrant computes it, so that a search can rank any subset of the nodes it has
//! scored without asking the store again.

use super::{canonical_order, Fusion, RawScores, ScoredNode};

/// What Qdrant's `Fusion::Rrf { k, weights }` would give for a dense and a sparse
/// prefetch over exactly these nodes: each list is ranked by its own similarity (equal
/// similarities by id), and a node at position `p` (from 0) of a list with weight `w`
/// gains `1 / ((p + 1) / w + k - 1)`; a weight of 0 or less contributes nothing. A node
/// without a sparse score is absent from the sparse list, as in the engine. The result
/// is best first in [`canonical_order`].
pub fn fuse<'a>(
    scores: impl IntoIterator<Item = &'a RawScores>,
    fusion: Fusion,
) -> Vec<ScoredNode> {
    let scores: Vec<&RawScores> = scores.into_iter().collect();
    let dense: Vec<(u64, f32)> = scores.iter().map(|s| (s.id, s.dense)).collect();
    let sparse: Vec<(u64, f32)> = scores
        .iter()
        .filter_map(|s| s.sparse.map(|sparse| (s.id, sparse)))
        .collect();
    fuse_rankings(dense, sparse, fusion)
}

/// What Qdrant's RRF gives for two prefetches that returned `dense` and `sparse`
/// (id, similarity): each list is ranked by similarity (equal ones by id) and fused as
/// in [`fuse`]; a node in only one list gains from that one alone. The result is best
/// first in [`canonical_order`].
pub fn fuse_rankings(
    mut dense: Vec<(u64, f32)>,
    mut sparse: Vec<(u64, f32)>,
    fusion: Fusion,
) -> Vec<ScoredNode> {
    let mut fused: std::collections::HashMap<u64, f32> =
        std::collections::HashMap::with_capacity(dense.len() + sparse.len());
    rank_in_place(&mut dense);
    for (position, (id, _)) in dense.iter().enumerate() {
        fused.insert(
            *id,
            position_score(position, fusion.rrf_k, fusion.dense_weight),
        );
    }
    rank_in_place(&mut sparse);
    for (position, (id, _)) in sparse.iter().enumerate() {
        *fused.entry(*id).or_insert(0.0) +=
            position_score(position, fusion.rrf_k, fusion.sparse_weight);
    }
    let mut ranked: Vec<ScoredNode> = fused
        .into_iter()
        .map(|(id, score)| ScoredNode { id, score })
        .collect();
    canonical_order(&mut ranked);
    ranked
}

fn rank_in_place(list: &mut [(u64, f32)]) {
    list.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
}

/// Qdrant's `position_score`, operation for operation, so that scores match bit for bit.
fn position_score(position: usize, k: usize, weight: f32) -> f32 {
    if weight <= 0.0 {
        return 0.0;
    }
    1.0 / ((position + 1) as f32 / weight + k as f32 - 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fusion(rrf_k: usize, dense_weight: f32, sparse_weight: f32) -> Fusion {
        Fusion {
            rrf_k,
            dense_weight,
            sparse_weight,
        }
    }

    fn raw(id: u64, dense: f32, sparse: Option<f32>) -> RawScores {
        RawScores { id, dense, sparse }
    }

    #[test]
    fn fuses_ranks_not_scores() {
        // Dense ranks 1, 2, 3; sparse ranks 3, 1 and 2 has no matching term.
        let scores = [
            raw(1, 0.9, Some(0.1)),
            raw(2, 0.5, None),
            raw(3, 0.1, Some(7.0)),
        ];
        let ranked = fuse(&scores, fusion(2, 1.0, 1.0));
        let by_id = |id: u64| ranked.iter().find(|n| n.id == id).map(|n| n.score);
        // k = 2: position p scores 1 / (p + 2).
        assert_eq!(by_id(1), Some(1.0 / 2.0 + 1.0 / 3.0));
        assert_eq!(by_id(2), Some(1.0 / 3.0));
        assert_eq!(by_id(3), Some(1.0 / 4.0 + 1.0 / 2.0));
        let ids: Vec<u64> = ranked.iter().map(|n| n.id).collect();
        assert_eq!(ids, [1, 3, 2]);
    }

    #[test]
    fn weights_stretch_positions_and_zero_weight_mutes_a_list() {
        let scores = [raw(1, 0.9, Some(1.0)), raw(2, 0.1, Some(2.0))];
        let ranked = fuse(&scores, fusion(2, 2.0, 0.0));
        // Weight 2 halves (p + 1): position 0 scores 1 / (0.5 + 1), position 1 1 / (1 + 1).
        assert_eq!(ranked[0].id, 1);
        assert_eq!(ranked[0].score, 1.0 / 1.5);
        assert_eq!(ranked[1].score, 0.5);
    }

    #[test]
    fn equal_similarities_rank_by_id_and_equal_scores_come_out_by_id() {
        let scores = [raw(9, 0.5, None), raw(4, 0.5, None)];
        let ranked = fuse(&scores, fusion(2, 1.0, 1.0));
        assert_eq!(ranked[0].id, 4);
        assert_eq!(ranked[0].score, 0.5);
        assert_eq!(ranked[1].id, 9);
    }

    #[test]
    fn nothing_to_fuse_gives_an_empty_ranking() {
        assert!(fuse(&[], fusion(60, 1.0, 1.0)).is_empty());
    }
}
