//! Fusion of a dense and a sparse ranking over raw scores a search already holds, so
//! that a search can rank any subset of the nodes it has scored without asking the
//! store again. RRF is computed the way Qdrant computes it, DBSF the way Qdrant's
//! `distr_norm` does; min–max is ours (Qdrant's normalisation, with weights).

use super::{canonical_order, Fusion, FusionMethod, RawScores, ScoredNode};

/// What [`fuse_rankings`] gives for a dense and a sparse list over exactly these nodes.
/// A node without a sparse score is absent from the sparse list, as in the engine.
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

/// Fuses two prefetches that returned `dense` and `sparse` (id, similarity) by
/// `fusion.method`; a node in only one list gains from that one alone. Best first in
/// [`canonical_order`].
pub(crate) fn fuse_rankings(
    dense: Vec<(u64, f32)>,
    sparse: Vec<(u64, f32)>,
    fusion: Fusion,
) -> Vec<ScoredNode> {
    let mut fused: std::collections::HashMap<u64, f32> =
        std::collections::HashMap::with_capacity(dense.len() + sparse.len());
    for (list, weight) in [(dense, fusion.dense_weight), (sparse, fusion.sparse_weight)] {
        for (id, score) in list_scores(list, fusion, weight) {
            *fused.entry(id).or_insert(0.0) += score;
        }
    }
    let mut ranked: Vec<ScoredNode> = fused
        .into_iter()
        .map(|(id, score)| ScoredNode { id, score })
        .collect();
    canonical_order(&mut ranked);
    ranked
}

/// The lowest and highest similarity of each half among a reference set of points (the
/// question's best pages): the scale on which [`fuse_min_max_on_scale`] places others.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimilarityScale {
    pub dense: (f32, f32),
    /// None when no reference point shares a term with the question.
    pub sparse: Option<(f32, f32)>,
}

/// Min–max fusion of `scores` with each half's bounds taken from `scale`, widened to
/// these scores' own: a handful of points keep the distances the question's scale puts
/// between them, instead of being stretched over the whole unit range as min–max over
/// themselves alone would. A node without a sparse score gains nothing from that half.
pub fn fuse_min_max_on_scale(
    scores: &[RawScores],
    scale: SimilarityScale,
    fusion: Fusion,
) -> Vec<ScoredNode> {
    let dense = widened(Some(scale.dense), scores.iter().map(|s| s.dense));
    let sparse = widened(scale.sparse, scores.iter().filter_map(|s| s.sparse));
    let mut ranked: Vec<ScoredNode> = scores
        .iter()
        .map(|s| ScoredNode {
            id: s.id,
            score: fusion.dense_weight.max(0.0) * unit(s.dense, dense)
                + s.sparse
                    .map_or(0.0, |x| fusion.sparse_weight.max(0.0) * unit(x, sparse)),
        })
        .collect();
    canonical_order(&mut ranked);
    ranked
}

/// What each node of one list adds to its fused score. Every method takes the list in
/// one fixed order: RRF needs it ranked, and the score fusions' mean and deviation are
/// sums, which give the same scores bit for bit only in the same order, however a
/// store happened to order the list.
fn list_scores(mut list: Vec<(u64, f32)>, fusion: Fusion, weight: f32) -> Vec<(u64, f32)> {
    rank_in_place(&mut list);
    match fusion.method {
        FusionMethod::Rrf => list
            .iter()
            .enumerate()
            .map(|(position, &(id, _))| (id, position_score(position, fusion.rrf_k, weight)))
            .collect(),
        FusionMethod::Dbsf => normalised(list, distribution_bounds, weight),
        FusionMethod::MinMax => normalised(list, min_max_bounds, weight),
    }
}

fn rank_in_place(list: &mut [(u64, f32)]) {
    list.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
}

/// Qdrant's `position_score`, operation for operation, so that scores match bit for bit.
/// A weight of 0 or less contributes nothing: RRF gives position `p` (from 0) of a list
/// with weight `w` the score `1 / ((p + 1) / w + k - 1)`.
fn position_score(position: usize, k: usize, weight: f32) -> f32 {
    if weight <= 0.0 {
        return 0.0;
    }
    1.0 / ((position + 1) as f32 / weight + k as f32 - 1.0)
}

/// The low and high similarity a list is normalised between, if it has any.
type Bounds = fn(&[(u64, f32)]) -> Option<(f32, f32)>;

/// The list's scores mapped by `bounds` to `(score - low) / (high - low)`, times
/// `weight`. A list whose bounds coincide (one point, or all equal) scores 0.5 each,
/// as Qdrant does: nothing in it tells its points apart.
fn normalised(list: Vec<(u64, f32)>, bounds: Bounds, weight: f32) -> Vec<(u64, f32)> {
    if weight <= 0.0 {
        return Vec::new();
    }
    let bounds = bounds(&list);
    list.into_iter()
        .map(|(id, score)| (id, unit(score, bounds) * weight))
        .collect()
}

/// `score` mapped to `(score - low) / (high - low)`; 0.5 when the bounds coincide or
/// there are none.
fn unit(score: f32, bounds: Option<(f32, f32)>) -> f32 {
    match bounds {
        Some((low, high)) if high > low => (score - low) / (high - low),
        _ => 0.5,
    }
}

/// `bounds` (none: nothing yet) widened to take in every one of `scores`.
pub(crate) fn widened(
    bounds: Option<(f32, f32)>,
    scores: impl IntoIterator<Item = f32>,
) -> Option<(f32, f32)> {
    scores.into_iter().fold(bounds, |bounds, s| match bounds {
        Some((low, high)) => Some((low.min(s), high.max(s))),
        None => Some((s, s)),
    })
}

/// Mean ± 3 sample standard deviations (Welford's method, as Qdrant computes them).
fn distribution_bounds(list: &[(u64, f32)]) -> Option<(f32, f32)> {
    if list.len() < 2 {
        return None;
    }
    let (mut mean, mut aggregate) = (0.0f32, 0.0f32);
    for (&(_, score), count) in list.iter().zip(1usize..) {
        let old_delta = score - mean;
        mean += old_delta / count as f32;
        aggregate += old_delta * (score - mean);
    }
    let deviation = (aggregate / (list.len() as f32 - 1.0)).sqrt();
    Some((mean - 3.0 * deviation, mean + 3.0 * deviation))
}

fn min_max_bounds(list: &[(u64, f32)]) -> Option<(f32, f32)> {
    widened(None, list.iter().map(|&(_, score)| score))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fusion(rrf_k: usize, dense_weight: f32, sparse_weight: f32) -> Fusion {
        Fusion::rrf(rrf_k, dense_weight, sparse_weight)
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

    #[test]
    fn min_max_on_a_scale_keeps_the_distances_the_scale_puts_between_points() {
        let scale = SimilarityScale {
            dense: (0.3, 0.8),
            sparse: Some((0.0, 10.0)),
        };
        // Over themselves alone each page would win one half outright (1 + 0 each).
        let scores = [
            raw(1, 0.80, Some(5.0)),
            raw(2, 0.81, Some(4.0)),
            raw(3, 0.5, None),
        ];
        let ranked = fuse_min_max_on_scale(
            &scores,
            scale,
            fusion(2, 1.0, 1.0).with_method(FusionMethod::MinMax),
        );
        // Dense bounds widen to 0.3..0.81; sparse stay 0..10.
        let dense = |d: f32| (d - 0.3) / 0.51;
        assert!((by_id(&ranked, 1) - (dense(0.80) + 0.5)).abs() < 1e-6);
        assert!((by_id(&ranked, 2) - (dense(0.81) + 0.4)).abs() < 1e-6);
        assert!(
            (by_id(&ranked, 3) - dense(0.5)).abs() < 1e-6,
            "no sparse, no share"
        );
        assert_eq!(ranked.iter().map(|n| n.id).collect::<Vec<_>>(), [1, 2, 3]);

        // Weights scale each half; a scale without sparse takes the points' own bounds.
        let no_sparse = SimilarityScale {
            sparse: None,
            ..scale
        };
        let ranked = fuse_min_max_on_scale(
            &scores,
            no_sparse,
            fusion(2, 2.0, 1.0).with_method(FusionMethod::MinMax),
        );
        assert!((by_id(&ranked, 1) - (2.0 * dense(0.80) + 1.0)).abs() < 1e-6);
        assert!((by_id(&ranked, 2) - 2.0 * dense(0.81)).abs() < 1e-6);
    }

    fn by_id(ranked: &[ScoredNode], id: u64) -> f32 {
        ranked
            .iter()
            .find(|n| n.id == id)
            .map(|n| n.score)
            .expect("ranked")
    }

    fn assert_close(actual: f32, expected: f32) {
        assert!(
            (actual - expected).abs() < 1e-5,
            "{actual} is not {expected}"
        );
    }

    #[test]
    fn dbsf_normalises_each_list_by_its_mean_and_three_deviations() {
        // Dense 0.9, 0.6, 0.3: mean 0.6, sample deviation 0.3, bounds -0.3 and 1.5.
        // Sparse 4 and 2 (node 3 has no term): mean 3, deviation sqrt(2).
        let scores = [
            raw(1, 0.9, Some(2.0)),
            raw(2, 0.6, Some(4.0)),
            raw(3, 0.3, None),
        ];
        let ranked = fuse(&scores, fusion(2, 1.0, 1.0).with_method(FusionMethod::Dbsf));
        let deviation = 2.0f32.sqrt();
        let sparse = |s: f32| (s - (3.0 - 3.0 * deviation)) / (6.0 * deviation);
        assert_close(by_id(&ranked, 1), 1.2 / 1.8 + sparse(2.0));
        assert_close(by_id(&ranked, 2), 0.9 / 1.8 + sparse(4.0));
        assert_close(by_id(&ranked, 3), 0.6 / 1.8);
        let ids: Vec<u64> = ranked.iter().map(|n| n.id).collect();
        assert_eq!(ids, [2, 1, 3]);
    }

    #[test]
    fn min_max_scales_each_list_to_the_unit_range_and_weighs_it() {
        let scores = [
            raw(1, 0.8, Some(10.0)),
            raw(2, 0.5, Some(0.0)),
            raw(3, 0.2, Some(5.0)),
        ];
        let ranked = fuse(
            &scores,
            fusion(2, 2.0, 1.0).with_method(FusionMethod::MinMax),
        );
        assert_close(by_id(&ranked, 1), 2.0 * 1.0 + 1.0);
        assert_close(by_id(&ranked, 2), 2.0 * 0.5 + 0.0);
        assert_close(by_id(&ranked, 3), 0.0 + 0.5);
    }

    #[test]
    fn score_fusions_keep_the_size_of_a_lead_that_rrf_forgets() {
        // One node far ahead of three close ones: RRF's curve is the same as for four
        // evenly spaced nodes, a score fusion's is not.
        let clear = [
            raw(1, 0.9, Some(9.0)),
            raw(2, 0.31, Some(1.2)),
            raw(3, 0.30, Some(1.1)),
            raw(4, 0.29, Some(1.0)),
        ];
        let even = [
            raw(1, 0.9, Some(9.0)),
            raw(2, 0.7, Some(7.0)),
            raw(3, 0.5, Some(5.0)),
            raw(4, 0.3, Some(3.0)),
        ];
        let curve = |scores: &[RawScores], method| -> Vec<f32> {
            fuse(scores, fusion(2, 1.0, 1.0).with_method(method))
                .iter()
                .map(|n| n.score)
                .collect()
        };
        assert_eq!(
            curve(&clear, FusionMethod::Rrf),
            curve(&even, FusionMethod::Rrf)
        );
        for method in [FusionMethod::Dbsf, FusionMethod::MinMax] {
            let (clear, even) = (curve(&clear, method), curve(&even, method));
            assert!(clear[0] - clear[1] > even[0] - even[1], "{method}");
        }
    }

    #[test]
    fn a_list_that_cannot_tell_its_points_apart_gives_each_half() {
        let scores = [raw(1, 0.4, None), raw(2, 0.4, Some(3.0))];
        for method in [FusionMethod::Dbsf, FusionMethod::MinMax] {
            let ranked = fuse(&scores, fusion(2, 1.0, 1.0).with_method(method));
            assert_close(by_id(&ranked, 1), 0.5);
            assert_close(by_id(&ranked, 2), 1.0);
        }
    }

    #[test]
    fn fusion_names_read_back() {
        for method in FusionMethod::ALL {
            assert_eq!(method.name().parse::<FusionMethod>(), Ok(method));
        }
        assert!("borda".parse::<FusionMethod>().is_err());
    }
}
