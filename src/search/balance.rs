//! How much a library's dense model counts against BM25. The fusion weights a person
//! sets (`--dense-weight`, the app's strategy settings) are relative to the model's own
//! balance: 1 and 1 is the balance measured best for the model that made the vectors,
//! whichever it is, so that a library switched to another model needs no new weights.

use serde::Serialize;

use super::SearchSettings;
use crate::embed::DenseModel;
use crate::store::Fusion;

/// The factors a model's dense half is weighted by, at the first step (over the
/// documents' roots) and at every other.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DenseBalance {
    pub steps: f32,
    pub roots: f32,
}

impl DenseBalance {
    /// Weights as given.
    pub const NEUTRAL: DenseBalance = DenseBalance {
        steps: 1.0,
        roots: 1.0,
    };

    /// MiniLM's dense and BM25 halves count alike: a heavier dense half at its roots
    /// ranked fewer right documents first.
    ///
    /// multilingual-e5-small ranks documents and pages better than BM25 where MiniLM
    /// does not, so its dense half counts more: most at the roots, so that more right
    /// documents come first, and somewhat less at the other steps, where it lifts the
    /// knee strategies and beam at a small cost to branch and the collapsed tree.
    /// Heavier dense halves lose questions, and heavier roots rank fewer right documents
    /// first.
    pub fn of(model: DenseModel) -> Self {
        match model {
            DenseModel::MiniLm => Self::NEUTRAL,
            DenseModel::E5Small | DenseModel::E5SmallMiniLm => DenseBalance {
                steps: 1.25,
                roots: 1.5,
            },
        }
    }

    /// `settings` with the fusions a search runs on: the steps' and the roots' dense
    /// weights scaled by the model's factors (the roots start from the steps' fusion
    /// when the settings give none of their own).
    pub fn apply(self, settings: &SearchSettings) -> SearchSettings {
        let scaled = |fusion: Fusion, factor: f32| Fusion {
            dense_weight: fusion.dense_weight * factor,
            ..fusion
        };
        let roots = settings.root_fusion.unwrap_or(settings.fusion);
        SearchSettings {
            fusion: scaled(settings.fusion, self.steps),
            root_fusion: (self != Self::NEUTRAL || settings.root_fusion.is_some())
                .then(|| scaled(roots, self.roots)),
            ..settings.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neutral_balance_leaves_the_settings_as_they_are() {
        let settings = SearchSettings::default();
        let applied = DenseBalance::of(DenseModel::MiniLm).apply(&settings);
        assert_eq!(applied.fusion, settings.fusion);
        assert_eq!(applied.root_fusion, None);
    }

    #[test]
    fn e5_scales_the_dense_weights_a_person_set_and_keeps_the_rest() {
        let mut settings = SearchSettings::default();
        settings.fusion.dense_weight = 2.0;
        settings.fusion.sparse_weight = 0.5;
        let applied = DenseBalance::of(DenseModel::E5Small).apply(&settings);
        assert_eq!(applied.fusion.dense_weight, 2.5);
        assert_eq!(applied.fusion.sparse_weight, 0.5);
        let roots = applied
            .root_fusion
            .expect("the roots get their own balance");
        assert_eq!(roots.dense_weight, 3.0);
        assert_eq!(roots.sparse_weight, 0.5);
        assert_eq!(roots.method, settings.fusion.method);
    }

    #[test]
    fn a_root_fusion_of_ones_own_is_scaled_by_the_roots_factor() {
        let mut settings = SearchSettings::default();
        let mut roots = settings.fusion;
        roots.dense_weight = 0.0;
        roots.sparse_weight = 1.0;
        settings.root_fusion = Some(roots);
        let applied = DenseBalance::of(DenseModel::E5Small).apply(&settings);
        let applied_roots = applied.root_fusion.expect("kept");
        assert_eq!(
            applied_roots.dense_weight, 0.0,
            "BM25 alone stays BM25 alone"
        );
        assert_eq!(applied_roots.sparse_weight, 1.0);
    }
}
