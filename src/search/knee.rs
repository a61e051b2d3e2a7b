//! Knee-point detection on a descending score curve.
//!
//! Scores are sorted descending; rank (x) and score (y) are each scaled to [0, 1]; the
//! knee is the point farthest from the chord joining the first and last points. Points
//! up to the knee are kept, and the knee itself when it lies above the chord: there it
//! is the edge of a cliff (the last of the head), below it the foot of a drop (the first
//! of the tail). The first point lies on the chord, so without that distinction a curve
//! with one clear winner would always keep a second point.
//!
//! The largest-gap cut ("Adaptive-k", Taguchi et al., EMNLP 2025) is the alternative
//! rule: cut where the drop between neighbouring scores is largest.

const TOLERANCE: f32 = 1e-6;

/// Where the curve is cut: `keep` points survive (the first `keep` of the sorted list).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KneeCut {
    /// Index of the knee in the descending list, if the curve has one.
    pub knee_index: Option<usize>,
    /// How many points are kept.
    pub keep: usize,
}

/// Where a knee strategy cuts each step's ranking.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CutRule {
    /// The chord knee; a sensitivity below 1 keeps the points nearly as far from the
    /// chord as the knee (the sensitive knee).
    Knee { sensitivity: f32 },
    /// Where the drop between neighbouring scores is largest.
    LargestGap,
}

impl CutRule {
    pub fn cut(self, sorted_desc: &[f32]) -> KneeCut {
        match self {
            CutRule::Knee { sensitivity } => sensitive_knee_cut(sorted_desc, sensitivity),
            CutRule::LargestGap => largest_gap_cut(sorted_desc),
        }
    }
}

/// Distances of every point from the chord, in scaled units; empty when the curve is
/// too short or flat to have a knee.
pub(crate) fn chord_distances(sorted_desc: &[f32]) -> Vec<f32> {
    let n = sorted_desc.len();
    if n <= 2 {
        return Vec::new();
    }
    let first = sorted_desc[0];
    let last = sorted_desc[n - 1];
    let range = first - last;
    if range.abs() <= f32::EPSILON * first.abs().max(1.0) {
        return Vec::new();
    }
    let span = (n - 1) as f32;
    // After scaling the chord runs from (0, 1) to (1, 0): the line x + y = 1, and a
    // point's distance from it is |x + y - 1| / sqrt(2).
    sorted_desc
        .iter()
        .enumerate()
        .map(|(i, &score)| {
            let x = i as f32 / span;
            let y = (score - last) / range;
            (1.0 - x - y).abs() / std::f32::consts::SQRT_2
        })
        .collect()
}

/// The plain knee: keep everything up to the farthest point from the chord.
pub fn knee_cut(sorted_desc: &[f32]) -> KneeCut {
    sensitive_knee_cut(sorted_desc, 1.0)
}

/// The sensitive knee: keep every point up to the last one whose chord distance is at
/// least `sensitivity` × the largest distance. 1 is the plain knee; 0 keeps all.
pub fn sensitive_knee_cut(sorted_desc: &[f32], sensitivity: f32) -> KneeCut {
    let n = sorted_desc.len();
    let distances = chord_distances(sorted_desc);
    let max = distances.iter().copied().fold(0.0f32, f32::max);
    if max <= TOLERANCE {
        // A straight line (or too short, or flat): no point bends away from the chord.
        return KneeCut {
            knee_index: None,
            keep: n,
        };
    }
    // Equally distant points (the top and the foot of a cliff) resolve to the earliest,
    // which keeps fewer; the tolerance absorbs rounding in the scaling.
    let knee = distances
        .iter()
        .position(|&d| d >= max - TOLERANCE)
        .unwrap_or(0);
    let sensitivity = sensitivity.clamp(0.0, 1.0);
    if sensitivity <= 0.0 {
        return KneeCut {
            knee_index: Some(knee),
            keep: n,
        };
    }
    if sensitivity >= 1.0 {
        let foot = below_chord(sorted_desc, knee);
        return KneeCut {
            knee_index: Some(knee),
            keep: if foot { knee.max(1) } else { knee + 1 },
        };
    }
    let threshold = sensitivity * max;
    let last_above = distances
        .iter()
        .rposition(|&d| d >= threshold - TOLERANCE)
        .unwrap_or(knee);
    KneeCut {
        knee_index: Some(knee),
        keep: last_above.max(knee) + 1,
    }
}

/// Whether point `index` of the scaled curve lies below the chord from the first to
/// the last point (the line x + y = 1).
fn below_chord(sorted_desc: &[f32], index: usize) -> bool {
    let n = sorted_desc.len();
    let (first, last) = (sorted_desc[0], sorted_desc[n - 1]);
    let x = index as f32 / (n - 1) as f32;
    let y = (sorted_desc[index] - last) / (first - last);
    x + y < 1.0
}

/// The largest-gap cut: keep the points above the largest drop between neighbours
/// (the earliest of equal drops, which keeps fewer). Two points keep the better one;
/// a curve with no drop keeps all.
pub(crate) fn largest_gap_cut(sorted_desc: &[f32]) -> KneeCut {
    let n = sorted_desc.len();
    let mut best: Option<(usize, f32)> = None;
    for (index, pair) in sorted_desc.windows(2).enumerate() {
        let drop = pair[0] - pair[1];
        if drop > TOLERANCE && best.is_none_or(|(_, largest)| drop > largest + TOLERANCE) {
            best = Some((index, drop));
        }
    }
    match best {
        Some((index, _)) => KneeCut {
            knee_index: Some(index),
            keep: index + 1,
        },
        None => KneeCut {
            knee_index: None,
            keep: n,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn finds_the_elbow_of_a_convex_curve_and_keeps_what_is_above_it() {
        let scores = [1.0, 0.5, 0.3, 0.25, 0.22, 0.2, 0.19];
        let cut = knee_cut(&scores);
        assert_eq!(cut.knee_index, Some(2));
        // 0.3 is where the curve flattens: the first of the tail.
        assert_eq!(cut.keep, 2);
    }

    #[test]
    fn one_clear_winner_keeps_exactly_one() {
        for scores in [
            vec![1.0, 0.1, 0.09, 0.08],
            vec![0.9, 0.2, 0.19, 0.18, 0.17, 0.16, 0.15, 0.14, 0.13, 0.12],
        ] {
            assert_eq!(knee_cut(&scores).keep, 1, "{scores:?}");
            assert_eq!(largest_gap_cut(&scores).keep, 1, "{scores:?}");
        }
    }

    #[test]
    fn the_edge_of_a_cliff_is_kept() {
        // Flat, then a cliff: the knee is the last point before the drop.
        let cut = knee_cut(&[1.0, 0.98, 0.96, 0.94, 0.2, 0.18]);
        assert_eq!(
            cut,
            KneeCut {
                knee_index: Some(3),
                keep: 4
            }
        );
    }

    #[test]
    fn the_largest_gap_cut_keeps_what_is_above_the_largest_drop() {
        assert_eq!(
            largest_gap_cut(&[0.9, 0.85, 0.8, 0.4, 0.35, 0.1]),
            KneeCut {
                knee_index: Some(2),
                keep: 3
            }
        );
        // Equal drops: the earliest.
        assert_eq!(largest_gap_cut(&[1.0, 0.5, 0.0]).keep, 1);
        assert_eq!(largest_gap_cut(&[0.9, 0.1]).keep, 1);
        assert_eq!(largest_gap_cut(&[0.4; 5]).keep, 5);
        assert_eq!(largest_gap_cut(&[0.4]).keep, 1);
        assert_eq!(largest_gap_cut(&[]).keep, 0);
    }

    #[test]
    fn the_earliest_of_equally_distant_points_is_the_knee() {
        // The top and the foot of a cliff are equally far from the chord.
        let cut = knee_cut(&[1.0, 1.0, 1.0, 0.1, 0.1, 0.1]);
        assert_eq!(
            cut,
            KneeCut {
                knee_index: Some(2),
                keep: 3
            }
        );
    }

    #[test]
    fn two_points_or_fewer_keep_all() {
        assert_eq!(knee_cut(&[]).keep, 0);
        assert_eq!(knee_cut(&[0.5]).keep, 1);
        assert_eq!(knee_cut(&[0.9, 0.1]).keep, 2);
    }

    #[test]
    fn all_equal_scores_keep_all() {
        let cut = knee_cut(&[0.3; 6]);
        assert_eq!(
            cut,
            KneeCut {
                knee_index: None,
                keep: 6
            }
        );
    }

    #[test]
    fn a_straight_line_keeps_all() {
        let line: Vec<f32> = (0..10).map(|i| 1.0 - i as f32 * 0.1).collect();
        assert_eq!(knee_cut(&line).keep, 10);
    }

    #[test]
    fn sensitivity_one_is_the_plain_knee_and_zero_keeps_everything() {
        let scores = [1.0, 0.8, 0.5, 0.3, 0.2, 0.15, 0.1];
        assert_eq!(sensitive_knee_cut(&scores, 1.0), knee_cut(&scores));
        assert_eq!(sensitive_knee_cut(&scores, 0.0).keep, scores.len());
        assert!(sensitive_knee_cut(&scores, 0.5).keep >= knee_cut(&scores).keep);
    }

    fn descending() -> impl Strategy<Value = Vec<f32>> {
        proptest::collection::vec(0.0f32..1.0, 0..60).prop_map(|mut v| {
            v.sort_by(|a, b| b.total_cmp(a));
            v
        })
    }

    proptest! {
        #[test]
        fn keeps_a_nonempty_prefix_reaching_the_knee(scores in descending()) {
            for cut in [knee_cut(&scores), largest_gap_cut(&scores)] {
                prop_assert!(cut.keep <= scores.len());
                prop_assert!(scores.is_empty() || cut.keep >= 1);
                if let Some(knee) = cut.knee_index {
                    prop_assert!(knee <= cut.keep && cut.keep <= knee + 1);
                }
            }
        }

        #[test]
        fn lower_sensitivity_never_keeps_fewer(scores in descending(), a in 0.0f32..1.0, b in 0.0f32..1.0) {
            let (low, high) = if a <= b { (a, b) } else { (b, a) };
            prop_assert!(sensitive_knee_cut(&scores, low).keep >= sensitive_knee_cut(&scores, high).keep);
        }

        #[test]
        fn scaling_scores_does_not_move_the_knee(scores in descending(), factor in prop_oneof![Just(0.25f32), Just(0.5), Just(2.0), Just(8.0)]) {
            let scaled: Vec<f32> = scores.iter().map(|s| s * factor).collect();
            prop_assert_eq!(knee_cut(&scores).keep, knee_cut(&scaled).keep);
        }
    }
}
