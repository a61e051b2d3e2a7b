//! The range every search parameter must lie in, checked once at the engine's door
//! (`Library::search_with_query` and `Library::compare`), so that the CLI, the app and
//! the benchmark refuse the same values with the same sentence instead of one of them
//! panicking deep inside a store ("capacity overflow" for `k = usize::MAX`).

use std::fmt::Display;
use std::ops::RangeInclusive;

use super::{SearchSettings, Strategy};
use crate::store::Fusion;

/// Nodes one step may keep (flat k, branch roots, beam width, the knee strategies' most
/// roots, the collapsed tree's depth). The defaults are 2–40 and the best runs of the
/// sweeps used at most 80; 1,000 pages is already more context than any model reads,
/// and it keeps every store query (which asks for twice its limit) far from overflow.
pub(crate) const MAX_NODES_PER_STEP: usize = 1_000;
/// Section summaries proxy-pointer shows the model (default 12): each costs a few
/// hundred tokens of the prompt, so 200 already fill the largest usual windows.
pub(crate) const MAX_PROXIES: usize = 200;
/// RRF k: 0 divides by zero for the first rank (`1 / (1 / w + k - 1)`); the article's
/// 60 is the largest anyone uses, and beyond a few thousand every rank scores alike.
pub(crate) const RRF_K: RangeInclusive<usize> = 1..=10_000;
/// Each half's fusion weight: 0 turns that half off; a negative or non-finite weight
/// makes scores that no longer order anything. Weights are relative, and 1,000 to 1
/// is already one half alone; the app's form takes any number of 0 or more.
pub(crate) const FUSION_WEIGHT: RangeInclusive<f32> = 0.0..=1_000.0;
/// The context budget in LLM tokens: the largest model windows are about 2 million.
pub(crate) const MAX_TOKEN_BUDGET: usize = 10_000_000;
/// Pages a selected section may span before it is narrowed (0 or none: never). Each
/// narrowing ranks a few times this many pages; no section of a real filing is wider.
pub(crate) const MAX_NODE_PAGES: u32 = 10_000;

/// A search parameter outside its range, in words a person can act on.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParameterError {
    #[error("{name} must be between {low} and {high}, not {value}")]
    OutOfRange {
        name: &'static str,
        low: String,
        high: String,
        value: String,
    },
    #[error("the dense and sparse weights cannot both be 0: one half of the score must count")]
    NoWeight,
}

/// `value` if it lies in `range`, else the error naming `name`. `contains` is false for
/// NaN, so a NaN is refused too.
fn within<T: PartialOrd + Display>(
    name: &'static str,
    value: T,
    range: RangeInclusive<T>,
) -> Result<(), ParameterError> {
    if range.contains(&value) {
        return Ok(());
    }
    Err(ParameterError::OutOfRange {
        name,
        low: range.start().to_string(),
        high: range.end().to_string(),
        value: value.to_string(),
    })
}

fn nodes(name: &'static str, value: usize) -> Result<(), ParameterError> {
    within(name, value, 1..=MAX_NODES_PER_STEP)
}

impl Strategy {
    /// Whether every parameter lies in its range (see the constants of this module).
    pub fn validate(&self) -> Result<(), ParameterError> {
        match *self {
            Strategy::Flat { k } => nodes("k", k),
            Strategy::Branch { roots } => nodes("roots", roots),
            Strategy::Beam { width } => nodes("width", width),
            Strategy::Knee { max_roots } | Strategy::LargestGap { max_roots } => {
                nodes("max roots", max_roots)
            }
            Strategy::SensitiveKnee {
                sensitivity,
                max_roots,
            } => {
                within("sensitivity", sensitivity, 0.0..=1.0)?;
                nodes("max roots", max_roots)
            }
            Strategy::CollapsedTree { depth } => nodes("collapsed-tree depth", depth),
            Strategy::ProxyPointer { proxies } => within("proxies", proxies, 1..=MAX_PROXIES),
        }
    }
}

impl Fusion {
    /// Whether k and both weights lie in their ranges and at least one weight counts.
    pub fn validate(&self, prefix: Prefix) -> Result<(), ParameterError> {
        within(prefix.name("RRF k"), self.rrf_k, RRF_K)?;
        within(
            prefix.name("dense weight"),
            self.dense_weight,
            FUSION_WEIGHT,
        )?;
        within(
            prefix.name("sparse weight"),
            self.sparse_weight,
            FUSION_WEIGHT,
        )?;
        if self.dense_weight == 0.0 && self.sparse_weight == 0.0 {
            return Err(ParameterError::NoWeight);
        }
        Ok(())
    }
}

/// Which fusion a message is about: the one of every step, or the first step's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prefix {
    Every,
    Root,
}

impl Prefix {
    fn name(self, name: &'static str) -> &'static str {
        match (self, name) {
            (Prefix::Every, name) => name,
            (Prefix::Root, "RRF k") => "root RRF k",
            (Prefix::Root, "dense weight") => "root dense weight",
            (Prefix::Root, "sparse weight") => "root sparse weight",
            (Prefix::Root, name) => name,
        }
    }
}

impl SearchSettings {
    /// Whether every parameter lies in its range (see the constants of this module).
    pub fn validate(&self) -> Result<(), ParameterError> {
        self.fusion.validate(Prefix::Every)?;
        if let Some(root) = &self.root_fusion {
            root.validate(Prefix::Root)?;
        }
        if let Some(budget) = self.token_budget {
            within("token budget", budget, 1..=MAX_TOKEN_BUDGET)?;
        }
        if let Some(pages) = self.max_node_pages {
            within("max node pages", pages, 0..=MAX_NODE_PAGES)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Prefix, FUSION_WEIGHT, MAX_NODES_PER_STEP, RRF_K};
    use crate::search::{SearchSettings, Strategy};
    use crate::store::Fusion;
    use proptest::prelude::{any, prop_assert, prop_assert_eq, prop_oneof, proptest, Just};

    #[test]
    fn the_panicking_k_is_refused_in_words() {
        let err = Strategy::Flat { k: usize::MAX }.validate().unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("k must be between 1 and 1000, not {}", usize::MAX)
        );
    }

    #[test]
    fn the_defaults_are_within_bounds() {
        for strategy in Strategy::all_defaults() {
            assert_eq!(strategy.validate(), Ok(()), "{}", strategy.name());
        }
        assert_eq!(SearchSettings::default().validate(), Ok(()));
    }

    fn any_f32() -> impl proptest::strategy::Strategy<Value = f32> {
        prop_oneof![
            -2.0f32..2_000.0,
            Just(f32::NAN),
            Just(f32::INFINITY),
            Just(f32::NEG_INFINITY),
            any::<f32>(),
        ]
    }

    proptest! {
        /// Every value a caller can pass is accepted exactly when it is in range, and
        /// refused with a sentence that names the parameter otherwise.
        #[test]
        fn a_count_is_accepted_exactly_within_its_range(k in prop_oneof![0usize..2_000, any::<usize>()]) {
            let result = Strategy::Flat { k }.validate();
            prop_assert_eq!(result.is_ok(), (1..=MAX_NODES_PER_STEP).contains(&k));
            if let Err(err) = result {
                prop_assert!(err.to_string().starts_with("k must be between"));
            }
        }

        #[test]
        fn fusion_weights_are_finite_in_range_and_not_both_zero(
            dense in any_f32(), sparse in any_f32(), rrf_k in any::<usize>(),
        ) {
            let fusion = Fusion::rrf(rrf_k, dense, sparse);
            let expected = RRF_K.contains(&rrf_k)
                && FUSION_WEIGHT.contains(&dense)
                && FUSION_WEIGHT.contains(&sparse)
                && (dense > 0.0 || sparse > 0.0);
            prop_assert_eq!(fusion.validate(Prefix::Every).is_ok(), expected);
        }
    }
}
